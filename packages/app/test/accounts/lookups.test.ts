/**
 * The request's lookup budget, and the directory making Slack lookups only within it: cached
 * people cost nothing, past the cap nothing is asked, and a method Slack rate-limited in a
 * workspace is not called there again until its Retry-After has passed.
 */
import { describe, expect, it } from 'vitest';
import { createDirectory } from '../../src/accounts/directory.js';
import { LOOKUPS_PER_REQUEST, LookupRefused, lookupBudget } from '../../src/accounts/lookups.js';

describe('a lookup budget', () => {
  it('gives 50 lookups to a request, then refuses and counts the refusals', () => {
    const budget = lookupBudget();
    const taken = Array.from({ length: 60 }, () => budget.take());
    expect(taken.filter(Boolean)).toHaveLength(LOOKUPS_PER_REQUEST);
    expect(taken.slice(LOOKUPS_PER_REQUEST).every((t) => !t)).toBe(true);
    expect([budget.spent, budget.refused]).toEqual([50, 10]);
  });

  it('takes a smaller cap', () => {
    const budget = lookupBudget(1);
    expect([budget.take(), budget.take()]).toEqual([true, false]);
  });
});

/** A team's users API as Slack answers it: people by id and e-mail, or a 429 when told. */
function fakeSlack() {
  const calls: { team: string; method: string; arg: string }[] = [];
  const limited = new Map<string, number>();
  const rateLimited = (seconds: number) =>
    Object.assign(new Error('A rate-limited request was made'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter: seconds,
    });
  const users = (team: string) => ({
    users: {
      info: async ({ user }: { user: string }) => {
        calls.push({ team, method: 'users.info', arg: user });
        const seconds = limited.get(`${team} users.info`);
        if (seconds !== undefined) throw rateLimited(seconds);
        return { ok: true, user: { id: user, name: user.toLowerCase(), tz: 'Europe/Paris' } };
      },
      lookupByEmail: async ({ email }: { email: string }) => {
        calls.push({ team, method: 'users.lookupByEmail', arg: email });
        const seconds = limited.get(`${team} users.lookupByEmail`);
        if (seconds !== undefined) throw rateLimited(seconds);
        return { ok: true, user: { id: `U${email.split('@')[0]!.toUpperCase()}` } };
      },
    },
  });
  return { calls, limited, slack: async (team: string) => users(team) as never };
}

describe('the directory within a budget', () => {
  it('answers cached people for nothing and asks Slack for no one past the cap', async () => {
    const fake = fakeSlack();
    const directory = createDirectory({ slack: fake.slack });
    const warm = lookupBudget();
    await directory.slackIdByEmail('T1', 'known@example.com', warm);
    await directory.slackUser('T1', 'U0KNOWN', warm);
    expect(warm.spent).toBe(2);

    const budget = lookupBudget(3);
    const emails = Array.from({ length: 10 }, (_, i) => `p${i}@example.com`);
    const found = await Promise.all(
      [...emails, 'known@example.com'].map((e) =>
        directory.slackIdByEmail('T1', e, budget).catch((error: unknown) => error),
      ),
    );
    expect(fake.calls.filter((c) => c.method === 'users.lookupByEmail')).toHaveLength(1 + 3);
    expect(found.slice(0, 3)).toEqual(['UP0', 'UP1', 'UP2']);
    for (const refused of found.slice(3, 10)) {
      expect(refused).toBeInstanceOf(LookupRefused);
      expect(refused).toMatchObject({ method: 'users.lookupByEmail', reason: 'budget' });
    }
    // Known before the request: named from the cache, past the cap.
    expect(found[10]).toBe('UKNOWN');
    expect(await directory.slackUser('T1', 'U0KNOWN', budget)).toMatchObject({ id: 'U0KNOWN' });
    expect([budget.spent, budget.refused]).toEqual([3, 7]);
  });

  it('calls a rate-limited method again in that workspace only once its Retry-After has passed', async () => {
    const fake = fakeSlack();
    let now = 1_000_000;
    const directory = createDirectory({ slack: fake.slack, now: () => now });
    fake.limited.set('T1 users.lookupByEmail', 30);
    const budget = lookupBudget();
    await expect(directory.slackIdByEmail('T1', 'a@example.com', budget)).rejects.toMatchObject({
      reason: 'rate_limited',
    });
    fake.limited.delete('T1 users.lookupByEmail');
    // Within the 30 s: refused at once, with no call and nothing taken from the budget.
    now += 29_000;
    await expect(directory.slackIdByEmail('T1', 'b@example.com', budget)).rejects.toMatchObject({
      reason: 'rate_limited',
    });
    expect(budget.spent).toBe(1);
    // Another method, and the same method in another workspace, are not held.
    expect(await directory.slackUser('T1', 'U0ANN', budget)).toMatchObject({ id: 'U0ANN' });
    expect(await directory.slackIdByEmail('T2', 'c@example.com', budget)).toBe('UC');
    now += 1_000;
    expect(await directory.slackIdByEmail('T1', 'b@example.com', budget)).toBe('UB');
    expect(fake.calls.map((c) => `${c.team} ${c.method} ${c.arg}`)).toEqual([
      'T1 users.lookupByEmail a@example.com',
      'T1 users.info U0ANN',
      'T2 users.lookupByEmail c@example.com',
      'T1 users.lookupByEmail b@example.com',
    ]);
  });
});
