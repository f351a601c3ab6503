/**
 * A slow service: create_expense answers 3 s or 8 s after it was sent, six and sixteen times the
 * app's own timeout. The person is told the truth (booked, with the expense), never "not booked"
 * while the write may still land; and a person who does what they are told (retry when told it
 * is safe) never ends up with two expenses. Each latency gets a world of its own, so that the two
 * run at once.
 */
import { randomBytes } from 'node:crypto';
import { call, control, type Loose } from '@split/service-emulator/testing';
import { type ExpectStatic, it } from 'vitest';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

interface World {
  h: Harness;
  ann: LinkedPerson;
}

async function startWorld(): Promise<World> {
  const h = await startHarness({
    // The app gives up on a call after half a second and looks four times a second; the service
    // may apply a request for 10 s after it was sent (longer than the slowest latency below).
    serviceTimeoutMs: 500,
    reconcileDelayMs: 250,
    serviceSettleMs: 10_000,
  });
  const ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  return { h, ann };
}

async function expensesCalled({ h, ann }: World, description: string): Promise<Loose[]> {
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
async function splitUntilFinal(
  { h }: World,
  expect: ExpectStatic,
  text: string,
  waitMs: number,
): Promise<ResponseUrlPost[]> {
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

it.concurrent.for([
  [3_000, 'slow lunch three'],
  [8_000, 'slow lunch eight'],
] as const)(
  'create_expense answering after %i ms: booked once, and the person is told it was booked (no "not booked" before it landed)',
  { timeout: 40_000 },
  async ([latency, description], { expect }) => {
    const world = await startWorld();
    try {
      const fault = await control(world.h.emu.url, 'POST', 'faults', {
        path: '/api/v3.0/create_expense',
        latency_ms: latency,
        times: 1,
      });
      expect(fault.status).toBe(201);
      const started = Date.now();
      const text = `40 ${description} <@U0BOB>`;
      const answers = await splitUntilFinal(world, expect, text, latency + 10_000);
      const final = answers.at(-1)!.body as Loose;
      if (SAFE_TO_RETRY.test(String(final.text))) {
        // What a person does when told it is safe: book it again.
        await splitUntilFinal(world, expect, text, latency + 10_000);
      }
      // Whatever the app said, the slow write has landed by now if it ever will.
      const left = started + latency + 1_000 - Date.now();
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));

      expect(await expensesCalled(world, description)).toHaveLength(1);
      expect(final.response_type).toBe('in_channel');
      expect(final.text).toContain(description);
      const texts = answers.map((p) => String((p.body as Loose).text));
      expect(texts.filter((t) => SAFE_TO_RETRY.test(t))).toEqual([]);
      // While it waited, the person was asked not to book it again.
      expect(texts[0]).toContain("Please don't book it again");
    } finally {
      await world.h.close();
    }
  },
);
