/**
 * A slow service: create_expense answers after 10 s or 30 s, long after the app's own timeout.
 * The person is told the truth (booked, with the expense), never "not booked" while the write
 * may still land; and a person who does what they are told (retry when told it is safe) never
 * ends up with two expenses.
 */
import { randomBytes } from 'node:crypto';
import { call, control, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness({
    // The app gives up on a call after 1 s and looks twice a second; the service may apply a
    // request for 35 s after it was sent (longer than the slowest latency below).
    serviceTimeoutMs: 1_000,
    reconcileDelayMs: 500,
    serviceSettleMs: 35_000,
  });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

async function expensesCalled(description: string): Promise<Loose[]> {
  const all = (await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
    .expenses as Loose[];
  return all.filter((e) => e.description === description && !e.deleted_at);
}

/** An answer that ends the matter for the person: the booking, or a failure, not "still checking". */
function isFinal(p: ResponseUrlPost): boolean {
  const body = p.body as Loose;
  return body.response_type === 'in_channel' || !String(body.text).includes("hasn't confirmed");
}

/** Sends `/split <text>` as Ann and waits for its final answer; returns every answer it got. */
async function splitUntilFinal(text: string, waitMs: number): Promise<ResponseUrlPost[]> {
  const id = randomBytes(8).toString('hex');
  const response = await h.sender.command({
    text,
    user_id: 'U0ANN',
    response_url: h.slack.responseUrl({ id }),
  });
  expect(response.status).toBe(200);
  await h.slack.waitForResponse((p) => p.id === id && isFinal(p), waitMs);
  return h.slack.responses.filter((p) => p.id === id);
}

const SAFE_TO_RETRY = /not booked|safe to try again/i;

describe.each([
  [10_000, 'slow lunch ten'],
  [30_000, 'slow lunch thirty'],
])('create_expense answering after %i ms', (latency, description) => {
  it(
    'is booked once, and the person is told it was booked (no "not booked" before it landed)',
    async () => {
      const fault = await control(h.emu.url, 'POST', 'faults', {
        path: '/api/v3.0/create_expense',
        latency_ms: latency,
        times: 1,
      });
      expect(fault.status).toBe(201);
      const started = Date.now();
      const answers = await splitUntilFinal(`40 ${description} <@U0BOB>`, latency + 10_000);
      const final = answers.at(-1)!.body as Loose;
      if (SAFE_TO_RETRY.test(String(final.text))) {
        // What a person does when told it is safe: book it again.
        await splitUntilFinal(`40 ${description} <@U0BOB>`, latency + 10_000);
      }
      // Whatever the app said, the slow write has landed by now if it ever will.
      const left = started + latency + 1_000 - Date.now();
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));

      expect(await expensesCalled(description)).toHaveLength(1);
      expect(final.response_type).toBe('in_channel');
      expect(final.text).toContain(description);
      const texts = answers.map((p) => String((p.body as Loose).text));
      expect(texts.filter((t) => SAFE_TO_RETRY.test(t))).toEqual([]);
      // While it waited, the person was asked not to book it again.
      expect(texts[0]).toContain("Please don't book it again");
    },
    latency + 30_000,
  );
});
