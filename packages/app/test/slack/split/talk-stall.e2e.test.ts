/**
 * A message as long as Slack allows never holds the process: a person mentions the app, or writes
 * to it in its Messages tab, with 40,000 characters of `。` or `.` (what the "split this" check
 * once read with `[.!?。！？]+$`, for 2.4 s), and the app, the simulated workspace and the
 * emulator, all in this process, keep answering: the event loop is never held more than 250 ms
 * from the message's post until the person's answer. The person is told the message is longer
 * than a command may be.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type Harness, SIGNING_SECRET, startHarness } from '../../support/harness.js';

const CHANNEL = 'C0001';
const DM = 'D0ANN';
const BOT = 'U0BOT0001';
const MAX_STALL_MS = 250;
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
}, 30_000);
afterAll(() => h?.close());

/** 40,000 characters in all: `start`, then `unit` over and over, then a last `x`. */
const message = (start: string, unit: string) =>
  `${start}${unit.repeat(40_000 - start.length - 1)}x`;

/**
 * The longest the event loop was held while `post` ran and its answer came back (`answered`), in
 * ms; the delay monitor samples every 10 ms. On a machine whose two cores are busy with other
 * work the loop also waits for a core, which no message causes: the message is posted again, up
 * to four times, and the shortest of the longest stalls counts. A message that holds the loop
 * does so every time.
 */
async function longestStall(
  post: () => Promise<() => boolean>,
): Promise<{ stall: number; attempts: number }> {
  let best = Number.POSITIVE_INFINITY;
  let attempts = 0;
  // Ten times the bound is no noise: a stall that long is told at once.
  while (attempts === 0 || (attempts < 4 && best >= MAX_STALL_MS && best < 10 * MAX_STALL_MS)) {
    attempts++;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    try {
      const answered = await post();
      await expect.poll(answered, { timeout: 10_000, interval: 20 }).toBe(true);
      await h.app.deps.work.idle();
    } finally {
      delay.disable();
    }
    best = Math.min(best, delay.max / 1e6);
  }
  return { stall: best, attempts };
}

/** A message the app posted, as the workspace keeps it. */
type StoredAnswer = ReturnType<Harness['slack']['messages']>[number];

const tooLong = 'That is 40,000 characters: /split reads at most 4,000.';

describe('a 40,000-character message', () => {
  it('mentioning the app in a channel holds the event loop at most 250 ms', async () => {
    for (const unit of ['。', '.']) {
      const text = message(`<@${BOT}> `, unit);
      expect(text.length).toBe(40_000);
      const answers: StoredAnswer[] = [];
      const { stall } = await longestStall(async () => {
        await h.slack.act.message({ as: 'U0ANN', channel: CHANNEL, text });
        const { ts } = h.slack
          .messages(CHANNEL)
          .filter((m) => m.user === 'U0ANN')
          .at(-1)!;
        return () => {
          const answer = h.slack
            .messages(CHANNEL)
            .find((m) => m.user === BOT && m.thread_ts === ts);
          if (answer) answers.push(answer);
          return answer !== undefined;
        };
      });
      expect({ unit, stall: stall < MAX_STALL_MS || `${stall.toFixed(0)} ms` }).toEqual({
        unit,
        stall: true,
      });
      for (const answer of answers) {
        expect(answer.ephemeralFor).toBe('U0ANN');
        expect(blocksText(answer.blocks)).toContain(tooLong);
      }
    }
  }, 60_000);

  it('in the Messages tab holds the event loop at most 250 ms', async () => {
    for (const unit of ['。', '.']) {
      const text = message('', unit);
      const answers = () => h.slack.messages(DM).filter((m) => m.user === BOT);
      const { stall, attempts } = await longestStall(async () => {
        const before = answers().length;
        await h.slack.act.message({ as: 'U0ANN', channel: DM, text });
        return () => answers().length > before;
      });
      expect({ unit, stall: stall < MAX_STALL_MS || `${stall.toFixed(0)} ms` }).toEqual({
        unit,
        stall: true,
      });
      for (const answer of answers().slice(-attempts))
        expect(blocksText(answer.blocks)).toContain(tooLong);
    }
  }, 60_000);
});
