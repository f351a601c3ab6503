/**
 * A person's Slack profile (their language, zone and name) is answered from the directory's cache
 * for a minute at most; Slack's `user_change` replaces it at once for a person the cache holds, and
 * a refresh (App Home opened) reads it again. Nobody the cache does not hold is read on an event.
 */
import { describe, expect, it } from 'vitest';
import { createDirectory, SLACK_PROFILE_TTL_MS } from '../../src/accounts/directory.js';
import { lookupBudget } from '../../src/accounts/lookups.js';

/** users.info answering each person's current locale; `calls` counts the reads. */
function slackWithLocales(locales: Map<string, string>) {
  const calls: string[] = [];
  const client = {
    users: {
      info: async ({ user }: { user: string }) => {
        calls.push(user);
        return {
          ok: true,
          user: {
            id: user,
            name: user.toLowerCase(),
            tz: 'Europe/Berlin',
            locale: locales.get(user),
            profile: { real_name: 'Ann Example', email: 'ann@example.com' },
          },
        };
      },
      lookupByEmail: async () => ({ ok: true, user: { id: 'U0X' } }),
    },
  };
  return { calls, slack: async () => client as never };
}

describe('a Slack profile in the directory', () => {
  it('is read again once a minute has passed, so a new language shows within a minute', async () => {
    const locales = new Map([['U0ANN', 'en-US']]);
    const fake = slackWithLocales(locales);
    let now = 1_000_000;
    const directory = createDirectory({ slack: fake.slack, now: () => now });
    expect((await directory.slackUser('T1', 'U0ANN', lookupBudget())).locale).toBe('en-US');
    locales.set('U0ANN', 'de-DE');
    now += SLACK_PROFILE_TTL_MS - 1;
    expect((await directory.slackUser('T1', 'U0ANN', lookupBudget())).locale).toBe('en-US');
    now += 1;
    expect((await directory.slackUser('T1', 'U0ANN', lookupBudget())).locale).toBe('de-DE');
    expect(SLACK_PROFILE_TTL_MS).toBeLessThanOrEqual(60_000);
    expect(fake.calls).toEqual(['U0ANN', 'U0ANN']);
  });

  it('keeps friends and the service profile for the longer time: only the Slack profile is short', async () => {
    const fake = slackWithLocales(new Map());
    let now = 0;
    const directory = createDirectory({ slack: fake.slack, now: () => now });
    let reads = 0;
    const client = {
      getFriends: async () => {
        reads += 1;
        return [];
      },
    } as never;
    const user = { team_id: 'T1', user_id: 'U0ANN' };
    await directory.friends(user, client);
    now += 2 * SLACK_PROFILE_TTL_MS;
    await directory.friends(user, client);
    expect(reads).toBe(1);
  });

  it('is replaced by user_change for a person it holds, the e-mail read before kept', async () => {
    const fake = slackWithLocales(new Map([['U0ANN', 'en-US']]));
    const directory = createDirectory({ slack: fake.slack });
    await directory.slackUser('T1', 'U0ANN', lookupBudget());
    directory.profileChanged('T1', {
      id: 'U0ANN',
      tz: 'Europe/Paris',
      locale: 'fr-FR',
      profile: { real_name: 'Ann Exemple' },
    });
    expect(directory.knownSlackUser('T1', 'U0ANN')).toMatchObject({
      locale: 'fr-FR',
      tz: 'Europe/Paris',
      name: 'Ann Exemple',
      email: 'ann@example.com',
    });
    expect(fake.calls).toEqual(['U0ANN']);
  });

  it('is read again after a user_change without a locale, and holds nobody new', async () => {
    const locales = new Map([['U0ANN', 'en-US']]);
    const fake = slackWithLocales(locales);
    const directory = createDirectory({ slack: fake.slack });
    await directory.slackUser('T1', 'U0ANN', lookupBudget());
    locales.set('U0ANN', 'ja-JP');
    directory.profileChanged('T1', { id: 'U0ANN', profile: { real_name: 'Ann' } });
    expect(directory.knownSlackUser('T1', 'U0ANN')).toBeUndefined();
    expect((await directory.slackUser('T1', 'U0ANN', lookupBudget())).locale).toBe('ja-JP');
    // Someone the app never asked about: nothing kept, nothing read.
    directory.profileChanged('T1', { id: 'U0BOB', locale: 'de-DE' });
    expect(directory.knownSlackUser('T1', 'U0BOB')).toBeUndefined();
    expect(fake.calls).toEqual(['U0ANN', 'U0ANN']);
  });

  it('does not keep a read that was under way when user_change came', async () => {
    const locales = new Map([['U0ANN', 'en-US']]);
    const fake = slackWithLocales(locales);
    const directory = createDirectory({ slack: fake.slack });
    await directory.slackUser('T1', 'U0ANN', lookupBudget());
    directory.profileChanged('T1', { id: 'U0ANN' });
    const stale = directory.slackUser('T1', 'U0ANN', lookupBudget());
    directory.profileChanged('T1', { id: 'U0ANN', locale: 'de-DE', profile: {} });
    await stale;
    expect(directory.knownSlackUser('T1', 'U0ANN')?.locale).toBe('de-DE');
  });

  it('is read again on a refresh, within the budget; a refused one keeps what was cached', async () => {
    const locales = new Map([['U0ANN', 'en-US']]);
    const fake = slackWithLocales(locales);
    const directory = createDirectory({ slack: fake.slack });
    await directory.slackUser('T1', 'U0ANN', lookupBudget());
    locales.set('U0ANN', 'pt-BR');
    const spent = lookupBudget(0);
    await directory.refreshSlackUser('T1', 'U0ANN', spent);
    expect(directory.knownSlackUser('T1', 'U0ANN')?.locale).toBe('en-US');
    await directory.refreshSlackUser('T1', 'U0ANN', lookupBudget(1));
    expect(directory.knownSlackUser('T1', 'U0ANN')?.locale).toBe('pt-BR');
    expect(fake.calls).toEqual(['U0ANN', 'U0ANN']);
  });
});
