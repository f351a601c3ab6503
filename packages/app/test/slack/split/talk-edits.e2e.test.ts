/**
 * An edited message books nothing more: a person fixes a typo in "@Split 40 lunch @bob" after it
 * was booked, and the simulated workspace sends what Slack sends for that edit (message_changed,
 * and a new app_mention with `edited` and the message's own ts). One expense stays at the
 * service, one answer stays in the thread, and the person is told once, privately, how to change
 * the expense. The same in the Messages tab, where an edit is message_changed alone.
 */
import { readFileSync } from 'node:fs';
import { call, type Loose } from '@split/service-emulator/testing';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

const CHANNEL = 'C0001';
const DM = 'D0ANN';
const BOT = 'U0BOT0001';
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
}, 30_000);
afterAll(() => h?.close());

/** Ann's expenses at the service with this description, deleted ones left out. */
async function expensesNamed(description: string): Promise<Loose[]> {
  const all = (await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
    .expenses as Loose[];
  return all.filter((e) => e.description === description && !e.deleted_at);
}

/** Lets whatever the app was sent run to its end: its queue, then a moment for stragglers. */
async function settled(): Promise<void> {
  await h.app.deps.work.idle();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await h.app.deps.work.idle();
}

async function edit(channel: string, ts: string, text: string): Promise<void> {
  await h.slack.act.editMessage({ as: 'U0ANN', channel, ts, text });
  await settled();
}

describe('an edit', () => {
  it('of a booked mention books nothing more and tells its author once, privately', async () => {
    await h.slack.act.message({
      as: 'U0ANN',
      channel: CHANNEL,
      text: `<@${BOT}> 40 picnic <@U0BOB>`,
    });
    const mention = h.slack.messages(CHANNEL).at(-1)!;
    const answers = () =>
      h.slack.messages(CHANNEL).filter((m) => m.user === BOT && m.thread_ts === mention.ts);
    await expect.poll(() => answers().length, { timeout: 8_000 }).toBe(1);
    await settled();

    const events = () => h.slack.deliveries.filter((d) => d.kind === 'event');
    const before = events().length;
    await edit(CHANNEL, mention.ts, `<@${BOT}> 42 picnic <@U0BOB>`);
    await edit(CHANNEL, mention.ts, `<@${BOT}> 44 picnic <@U0BOB>`);
    // Each edit reached the app as Slack sends it (the app is not subscribed to the channel's
    // messages): a new app_mention, under an event id of its own, answered in time.
    const sent = events().slice(before);
    expect(sent.map((d) => d.status)).toEqual([200, 200]);
    expect(new Set(sent.map((d) => d.event_id)).size).toBe(2);

    expect(await expensesNamed('picnic')).toHaveLength(1);
    const [booked, told, ...more] = answers();
    expect(more).toEqual([]);
    expect(booked!.ephemeralFor).toBeUndefined();
    expect(blocksText(booked!.blocks)).toContain('picnic');
    expect(told!.ephemeralFor).toBe('U0ANN');
    expect(blocksText(told!.blocks)).toContain('use *Edit* on the expense');
  });

  it('of a DM books nothing more and is told once, in the DM', async () => {
    const dmAnswers = () => h.slack.messages(DM).filter((m) => m.user === BOT);
    const already = dmAnswers().length;
    await h.slack.act.message({ as: 'U0ANN', channel: DM, text: `18 museum <@U0BOB>` });
    const mine = h.slack.messages(DM).at(-1)!;
    await expect.poll(() => dmAnswers().length, { timeout: 8_000 }).toBe(already + 1);
    await settled();

    await edit(DM, mine.ts, '19 museum <@U0BOB>');
    await edit(DM, mine.ts, '20 museum <@U0BOB>');

    expect(await expensesNamed('museum')).toHaveLength(1);
    const [booked, told, ...more] = dmAnswers().slice(already);
    expect(more).toEqual([]);
    expect(blocksText(booked!.blocks)).toContain('museum');
    expect(blocksText(told!.blocks)).toContain('use *Edit* on the expense');
  });
});
