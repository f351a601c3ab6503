import { control } from '@split/service-emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/core/money.js';
import type { DigestSlackClient } from '../../../src/slack/digest/index.js';
import { blockText, type Harness, startHarness, webClient } from './harness.js';

const at = (iso: string) => new Date(iso);

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('daily balance DM, end to end (emulator + fake Slack + SQLite)', () => {
  it('sends at 08:00 local in Tokyo and in New York, at different UTC times', async () => {
    const tokyo = await h.person('Asia/Tokyo');
    const newYork = await h.person('America/New_York');
    const friend = await h.person('Europe/London', { hour: 3 });
    await h.lunch(friend, tokyo, '20');
    await h.lunch(friend, newYork, '30');

    // 22:59Z: 07:59 in Tokyo, 17:59 in New York: nobody yet.
    await h.app.runner.runDue(at('2026-11-20T22:59:00Z'));
    expect(h.dms(tokyo)).toHaveLength(0);
    // 23:00Z: 08:00 in Tokyo; New York's 18:00 is past its 4-hour window, not its morning.
    const first = await h.app.runner.runDue(at('2026-11-20T23:00:00Z'));
    expect(first.outcomes.sent).toBe(1);
    expect(h.dms(tokyo)).toHaveLength(1);
    expect(h.dms(newYork)).toHaveLength(0);
    // 13:00Z: 08:00 in New York (EST, UTC-5); Tokyo already had the 21st's.
    await h.app.runner.runDue(at('2026-11-21T12:59:00Z'));
    expect(h.dms(newYork)).toHaveLength(0);
    await h.app.runner.runDue(at('2026-11-21T13:00:00Z'));
    expect(h.dms(newYork)).toHaveLength(1);
    expect(h.dms(tokyo)).toHaveLength(1);
    expect(blockText(h.dms(newYork)[0]!.blocks)).toContain('You owe *P3 Person* *$15.00*');
    expect(h.dms(newYork)[0]!.text).toContain('you owe $15.00');
  });

  it("writes amounts and the date in the person's Slack locale", async () => {
    const ana = await h.person('Europe/Paris', { locale: 'fr-FR', hour: 9 });
    const friend = await h.person('Europe/London', { hour: 3 });
    await h.lunch(friend, ana, '30');
    await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    const [dm] = h.dms(ana);
    const owed = formatMoney(1500, 'USD', 'fr-FR');
    expect(owed).not.toBe('$15.00');
    expect(blockText(dm!.blocks)).toContain('Tes soldes, samedi 21 novembre');
    expect(blockText(dm!.blocks)).toContain(`*${owed}*`);
    expect(dm!.text).toBe(`Tes soldes du samedi 21 novembre\u202F: tu dois ${owed}.`);
    expect(dm!.text).not.toContain('$15.00');
  });

  it('follows New York across the DST change: 08:00 is 13:00Z before and 12:00Z after', async () => {
    const ny = await h.person('America/New_York', { always: true });
    await h.app.runner.runDue(at('2026-03-07T13:00:00Z'));
    expect(h.dms(ny)).toHaveLength(1);
    // Sunday 8 March 2026, clocks spring forward: 12:00Z is already 08:00 EDT.
    await h.app.runner.runDue(at('2026-03-08T11:59:00Z'));
    expect(h.dms(ny)).toHaveLength(1);
    await h.app.runner.runDue(at('2026-03-08T12:00:00Z'));
    expect(h.dms(ny)).toHaveLength(2);
  });

  it('sends once per day however often it runs, and again the next day', async () => {
    const ann = await h.person('Europe/Paris', { always: true, hour: 9 });
    for (const time of ['08:00', '08:01', '08:30', '10:00']) {
      await h.app.runner.runDue(at(`2026-11-21T${time}:00Z`));
    }
    expect(h.dms(ann)).toHaveLength(1);
    await h.app.runner.runDue(at('2026-11-22T08:05:00Z'));
    expect(h.dms(ann)).toHaveLength(2);
  });

  it('sends nothing when nothing is owed and nothing changed, unless the person asked', async () => {
    const quiet = await h.person('UTC');
    const always = await h.person('UTC', { always: true });
    const report = await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(report.outcomes.nothing_new).toBe(1);
    expect(h.dms(quiet)).toHaveLength(0);
    expect(h.dms(always)).toHaveLength(1);
    expect(h.dms(always)[0]!.text).toContain('all settled up');
  });

  it('says what changed since the last DM', async () => {
    const ann = await h.person('UTC', { name: 'Ann' });
    const ben = await h.person('UTC', { name: 'Ben', hour: 23 });
    await h.lunch(ann, ben, '40');
    await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(blockText(h.dms(ann)[0]!.blocks)).toContain('owes you *$20.00*');
    await h.lunch(ann, ben, '10');
    await h.app.runner.runDue(at('2026-11-22T08:00:00Z'));
    const second = blockText(h.dms(ann)[1]!.blocks);
    expect(second).toContain('Since your last DM');
    expect(second).toContain('owes you $25.00 (was: owes you $20.00)');
    // The 23rd: still owed, nothing new: a DM (something is owed) saying nothing changed.
    await h.app.runner.runDue(at('2026-11-23T08:00:00Z'));
    expect(blockText(h.dms(ann)[2]!.blocks)).toContain('nothing changed');
  });

  it('carries Settle up and Pause buttons, and pause stops the DM until resumed', async () => {
    const ann = await h.person('UTC', { name: 'Ann' });
    const ben = await h.person('UTC', { name: 'Ben', hour: 23 });
    await h.lunch(ben, ann, '20');
    await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    const blocks = blockText(h.dms(ann)[0]!.blocks);
    expect(blocks).toContain('"action_id":"digest_settle_up"');
    expect(blocks).toContain(`{\\"friend_id\\":${ben.service.user.id},\\"currency\\":\\"USD\\"}`);
    expect(blocks).toContain('"action_id":"digest_pause"');

    await h.app.preferences.pause(ann);
    await h.app.runner.runDue(at('2026-11-22T08:00:00Z'));
    expect(h.dms(ann)).toHaveLength(1);
    await h.app.preferences.resume(ann);
    await h.app.runner.runDue(at('2026-11-23T08:00:00Z'));
    expect(h.dms(ann)).toHaveLength(2);
  });

  it('honours a pause made after the walk over the store read the subscription', async () => {
    const ann = await h.person('UTC', { always: true });
    const stale = (await h.app.preferences.get(ann))!;
    await h.app.preferences.pause(ann);
    expect(await h.app.runner.runOne(stale, at('2026-11-21T08:00:00Z'))).toBe('not_due');
    expect(h.dms(ann)).toHaveLength(0);
    await h.app.preferences.resume(ann);
    expect(await h.app.runner.runOne(stale, at('2026-11-21T08:00:00Z'))).toBe('sent');
  });

  it('tells a person with a revoked token once, then skips them without calling the service', async () => {
    const ann = await h.person('UTC', { always: true });
    await h.revoke(ann);
    const day1 = await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(day1.outcomes.revoked_notified).toBe(1);
    expect(h.dms(ann)).toHaveLength(1);
    expect(h.dms(ann)[0]!.text).toContain('/split connect');

    const before = await countServiceCalls(h);
    const day2 = await h.app.runner.runDue(at('2026-11-22T08:00:00Z'));
    expect(day2.outcomes.revoked_skipped).toBe(1);
    expect(h.dms(ann)).toHaveLength(1);
    expect(await countServiceCalls(h)).toBe(before);

    // Reconnecting stores a new link (another linked_at): the DM resumes by itself.
    const fresh = await control<{ access_token: string }>(h.emu.url, 'POST', 'tokens', {
      user_id: ann.service.user.id,
      client_id: h.clientId,
    });
    await h.app.tokens.set(ann, {
      access_token: fresh.body.access_token,
      token_type: 'bearer',
      service_user_id: ann.service.user.id,
      name: 'Ann',
      linked_at: '2026-11-22T12:00:00.000Z',
    });
    const day3 = await h.app.runner.runDue(at('2026-11-23T08:00:00Z'));
    expect(day3.outcomes.sent).toBe(1);
    expect(h.dms(ann)).toHaveLength(2);
  });

  it('follows a time zone change read from Slack when it is time to send', async () => {
    const ann = await h.person('Asia/Tokyo', { always: true });
    h.slack.addUser({ id: ann.user_id, name: 'ann', tz: 'America/New_York' });
    // 08:00 in Tokyo is 18:00 in New York: not the person's morning any more.
    const report = await h.app.runner.runDue(at('2026-11-20T23:00:00Z'));
    expect(report.outcomes.moved).toBe(1);
    expect(h.dms(ann)).toHaveLength(0);
    expect((await h.app.preferences.get(ann))?.tz).toBe('America/New_York');
    await h.app.runner.runDue(at('2026-11-21T13:00:00Z'));
    expect(h.dms(ann)).toHaveLength(1);
  });

  it('delivers once through a Slack 429 with Retry-After (the WebClient waits and retries)', async () => {
    const runner = (
      await h.instance({
        slackFor: async () =>
          webClient(h.slack, { retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 20 } }),
      })
    ).runner;
    const ann = await h.person('UTC', { always: true });
    h.slack.rateLimit('chat.postMessage', { retryAfter: 1, times: 1 });
    const started = performance.now();
    const report = await runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect(report.outcomes.sent).toBe(1);
    expect(h.slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
    expect(h.dms(ann)).toHaveLength(1);
  });

  it('delivers once through a 429 the WebClient hands back (rejectRateLimitedCalls)', async () => {
    const waits: number[] = [];
    const runner = (
      await h.instance({
        slackFor: async () => webClient(h.slack, { rejectRateLimitedCalls: true }),
        sleep: async (ms) => {
          waits.push(ms);
        },
      })
    ).runner;
    const ann = await h.person('UTC', { always: true });
    h.slack.rateLimit('chat.postMessage', { retryAfter: 7, times: 2 });
    const report = await runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(report.outcomes.sent).toBe(1);
    expect(waits).toEqual([7000, 7000]);
    expect(h.dms(ann)).toHaveLength(1);
  });

  it('releases the claim after a transient failure so that a later tick sends', async () => {
    const ann = await h.person('UTC', { always: true });
    h.slack.httpError('chat.postMessage', 503, 1);
    const first = await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(first.outcomes.retry_later).toBe(1);
    expect(h.dms(ann)).toHaveLength(0);
    const second = await h.app.runner.runDue(at('2026-11-21T08:01:00Z'));
    expect(second.outcomes.sent).toBe(1);
    expect(h.dms(ann)).toHaveLength(1);
  });

  it('does not send again when the DM went out but the store failed to record it', async () => {
    const ann = await h.person('UTC', { always: true });
    const real = h.app.preferences;
    let failing = true;
    const runner = (
      await h.instance({
        preferences: {
          ...real,
          update: async (user, change) => {
            if (failing) {
              failing = false;
              throw new Error('store unreachable');
            }
            return real.update(user, change);
          },
        },
      })
    ).runner;
    const first = await runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(first.outcomes.sent).toBe(1);
    const second = await runner.runDue(at('2026-11-21T08:01:00Z'));
    expect(second.outcomes.claimed_elsewhere).toBe(1);
    expect(h.dms(ann)).toHaveLength(1);
  });

  it('keeps going when one person fails', async () => {
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await h.person('UTC', { always: true }));
    h.slack.fail('chat.postMessage', 'user_disabled', 1);
    const report = await h.app.runner.runDue(at('2026-11-21T08:00:00Z'));
    expect(report.outcomes.failed).toBe(1);
    expect(report.outcomes.sent).toBe(3);
  });

  it('two instances on one store running at once send one DM to each person', async () => {
    const people = [];
    for (let i = 0; i < 8; i++) people.push(await h.person('UTC', { always: true }));
    const other = await h.instance();
    const [a, b] = await Promise.all([
      h.app.runner.runDue(at('2026-11-21T08:00:00Z')),
      other.runner.runDue(at('2026-11-21T08:00:00Z')),
    ]);
    expect(a.outcomes.sent + b.outcomes.sent).toBe(8);
    for (const person of people) expect(h.dms(person)).toHaveLength(1);
  });

  it('a restart in the middle of a run sends no second DM', async () => {
    const people = [];
    for (let i = 0; i < 6; i++) people.push(await h.person('UTC', { always: true }));
    // The first process posts two DMs, then dies while posting the third (its call never ends).
    const real = webClient(h.slack);
    let posts = 0;
    const dying: DigestSlackClient = {
      users: real.users,
      conversations: real.conversations,
      chat: {
        postMessage: (args) =>
          ++posts <= 2 ? real.chat.postMessage(args) : new Promise<never>(() => undefined),
      },
    };
    const crashed = await h.instance({ slackFor: async () => dying, concurrency: 1 });
    void crashed.runner.runDue(at('2026-11-21T08:00:00Z'));
    await h.slack.waitForCall(
      'chat.postMessage',
      () => h.slack.callsTo('chat.postMessage').length >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    const restarted = await h.instance();
    const report = await restarted.runner.runDue(at('2026-11-21T08:05:00Z'));
    const counts = people.map((p) => h.dms(p).length);
    expect(counts.every((n) => n <= 1)).toBe(true);
    // Two sent before the crash, three after it; the one in flight at the crash keeps its
    // claim and is left out today rather than risk a second DM.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(report.outcomes.claimed_elsewhere).toBe(1);
    expect(report.outcomes.sent).toBe(3);
  });
});

async function countServiceCalls(harness: Harness): Promise<number> {
  const reply = await fetch(`${harness.emu.url}/__emulator/requests`);
  const body = (await reply.json()) as { counts: Record<string, number> };
  return Object.entries(body.counts)
    .filter(([route]) => route.includes('/api/v3.0/'))
    .reduce((sum, [, n]) => sum + n, 0);
}
