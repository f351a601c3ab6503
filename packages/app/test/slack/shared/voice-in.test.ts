/**
 * The voice a request's context carries: the person who acted, read once per request whatever the
 * number of handlers that ask; for a modal opened with a trigger, English past a moment, so that
 * a slow users.info never costs the trigger's 3 seconds.
 */
import type { Context, Logger } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { lookupBudget } from '../../../src/accounts/lookups.js';
import { lineText } from '../../../src/observe/logger.js';
import { actingPerson, putActingVoice, voiceIn } from '../../../src/slack/shared/voice.js';

const TEAM = 'T1';

function logger(warnings: string[] = []): Logger {
  return { warn: (...args: unknown[]) => warnings.push(lineText(args)) } as unknown as Logger;
}

/** A directory whose profiles are all `profile`, counting the reads. */
function directory(profile: () => Promise<{ locale?: string; tz?: string }>) {
  const reads: string[] = [];
  return {
    reads,
    deps: {
      directory: {
        slackUser: async (team_id: string, user_id: string) => {
          reads.push(`${team_id}:${user_id}`);
          return (await profile()) as never;
        },
      },
    },
  };
}

/** The context of a request whose body is `body`, after the middleware ran. */
function requestContext(
  deps: Parameters<typeof putActingVoice>[0],
  body: unknown,
  log = logger(),
  quickMs?: number,
): Context {
  const context: Context = { isEnterpriseInstall: false, teamId: TEAM };
  putActingVoice(deps, { body, context, logger: log }, quickMs);
  return context;
}

const click = { type: 'block_actions', team: { id: TEAM }, user: { id: 'U0ANN', team_id: TEAM } };

describe('voiceIn', () => {
  it("is the acting person's, read once however many times the request asks", async () => {
    const world = directory(async () => ({ locale: 'ja-JP', tz: 'Asia/Tokyo' }));
    const context = requestContext(world.deps, click);
    const voices = await Promise.all([
      voiceIn(context),
      voiceIn(context, { lookups: lookupBudget() }),
      voiceIn(context, { quick: true }),
    ]);
    expect(voices.map((v) => [v.language, v.timeZone])).toEqual([
      ['ja', 'Asia/Tokyo'],
      ['ja', 'Asia/Tokyo'],
      ['ja', 'Asia/Tokyo'],
    ]);
    expect(world.reads).toEqual([`${TEAM}:U0ANN`]);
  });

  it('reads nothing until a handler asks', () => {
    const world = directory(async () => ({ locale: 'de-DE' }));
    requestContext(world.deps, click);
    expect(world.reads).toEqual([]);
  });

  it('spends its lookup from the budget handed with the first ask, and only once', async () => {
    const budget = lookupBudget(5);
    const spending = {
      directory: {
        slackUser: async (_team: string, _user: string, lookups: { take(): boolean }) => {
          lookups.take();
          return { locale: 'de-DE' } as never;
        },
      },
    };
    const context = requestContext(spending, click);
    const first = await voiceIn(context, { lookups: budget });
    await voiceIn(context, { lookups: budget });
    expect(first.language).toBe('de');
    expect(budget.spent).toBe(1);
  });

  it('answers in English, en-US and UTC when Slack cannot say who the person is', async () => {
    const warnings: string[] = [];
    const world = directory(async () => {
      throw new Error('user_not_found');
    });
    const voice = await voiceIn(requestContext(world.deps, click, logger(warnings)));
    expect([voice.language, voice.locale, voice.timeZone]).toEqual(['en', 'en-US', 'UTC']);
    expect(warnings).toEqual(['users.info for U0ANN failed, answering in English: user_not_found']);
  });

  it('is English for a quick answer once the moment is spent, and says so', async () => {
    const warnings: string[] = [];
    const world = directory(() => new Promise(() => undefined));
    const context = requestContext(world.deps, click, logger(warnings), 50);
    const started = performance.now();
    const voice = await voiceIn(context, { quick: true });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(voice.language).toBe('en');
    expect(warnings).toEqual(['the profile of U0ANN was slow to come: the form opens in English']);
  });

  it('refuses a context the middleware did not see: a handler asking there is a bug', async () => {
    await expect(voiceIn({ isEnterpriseInstall: false })).rejects.toThrow(/voiceMiddleware/);
  });
});

describe('actingPerson', () => {
  const context: Context = { isEnterpriseInstall: false, teamId: 'T0CTX' };

  it('is who typed a command', () => {
    expect(actingPerson({ command: '/split', team_id: TEAM, user_id: 'U0ANN' }, context)).toEqual({
      team_id: TEAM,
      user_id: 'U0ANN',
    });
  });

  it("is who clicked, in the team the click names, else the person's own", () => {
    expect(actingPerson(click, context)).toEqual({ team_id: TEAM, user_id: 'U0ANN' });
    const orgWide = { type: 'block_actions', team: null, user: { id: 'U0ANN', team_id: 'T2' } };
    expect(actingPerson(orgWide, context)).toEqual({ team_id: 'T2', user_id: 'U0ANN' });
  });

  it("is who submitted a form, in the form's team when the submission names none", () => {
    const body = {
      type: 'view_submission',
      team: null,
      user: { id: 'U0BOB' },
      view: { team_id: 'T3' },
    };
    expect(actingPerson(body, context)).toEqual({ team_id: 'T3', user_id: 'U0BOB' });
  });

  it("is an event's author, and an edited message's, in the authorized team", () => {
    const written = { type: 'event_callback', team_id: TEAM, event: { user: 'U0CHO' } };
    expect(actingPerson(written, context)).toEqual({ team_id: 'T0CTX', user_id: 'U0CHO' });
    const edited = {
      type: 'event_callback',
      team_id: TEAM,
      event: { subtype: 'message_changed', message: { user: 'U0DAN' } },
    };
    expect(actingPerson(edited, context)).toEqual({ team_id: 'T0CTX', user_id: 'U0DAN' });
  });

  it('is nobody where no person acted', () => {
    const uninstalled = {
      type: 'event_callback',
      team_id: TEAM,
      event: { type: 'app_uninstalled' },
    };
    expect(actingPerson(uninstalled, context)).toBeUndefined();
    const profile = { type: 'event_callback', event: { type: 'user_change', user: { id: 'U1' } } };
    expect(actingPerson(profile, context)).toBeUndefined();
  });
});
