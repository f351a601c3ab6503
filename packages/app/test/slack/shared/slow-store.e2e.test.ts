/**
 * A store slow to answer while a command or a form is being kept: Slack still gets its answer in
 * time, saying that saving is slow, never its own timeout. A write that lands in the end is
 * carried out once; one that fails in the end is told to the person, with nothing booked. The
 * store's write lock is held by another connection: the app's write waits behind it (up to its
 * busy timeout of 5 s), as it would behind another process's long write.
 */
import { randomBytes } from 'node:crypto';
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { formOpened, formValues, submit } from '../../support/modal-support.js';
import { holdWriteLock } from '../../support/store-faults.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  // A first command creates the job table, so that the lock below is the only thing in the way.
  await h.split('40 warm up <@U0BOB>');
});
afterAll(() => h?.close());

async function described(description: string): Promise<Loose[]> {
  const list = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 });
  return (list.body.expenses as Loose[]).filter(
    (e) => !e.deleted_at && e.description === description,
  );
}

/** Sends a /split as Ann; returns the ack's body, how long it took, and the response_url's id. */
async function command(text: string) {
  const id = randomBytes(8).toString('hex');
  const started = Date.now();
  const response = await h.sender.command({ text, response_url: h.slack.responseUrl({ id }) });
  const body = await response.text();
  return {
    id,
    status: response.status,
    ms: Date.now() - started,
    body: body ? JSON.parse(body) : null,
  };
}

const SLOW =
  "Saving this is taking longer than usual. The answer will appear here once it's done, or I'll say it couldn't be.";

describe('a store slow to keep a /split', () => {
  it('answers Slack in time that saving is slow, then books once when the write lands', async () => {
    const lock = await holdWriteLock(h.config.storeUrl, 3_500);
    const sent = await command('30 slow but kept <@U0BOB>');
    expect(sent.status).toBe(200);
    expect(sent.ms).toBeLessThan(3_000);
    expect(sent.body).toEqual({ response_type: 'ephemeral', text: SLOW });
    await lock.released;
    const booked = await h.slack.waitForResponse(
      (p) => p.id === sent.id && p.body.response_type === 'in_channel',
      10_000,
    );
    expect(booked.body.text).toContain('<@U0BOB> owes');
    await h.app.deps.work.idle();
    expect(await described('slow but kept')).toHaveLength(1);
  });

  it('says nothing was booked when the write fails in the end', async () => {
    const lock = await holdWriteLock(h.config.storeUrl, 6_500);
    const sent = await command('30 slow and lost <@U0BOB>');
    expect(sent.status).toBe(200);
    expect(sent.ms).toBeLessThan(3_000);
    expect(sent.body).toEqual({ response_type: 'ephemeral', text: SLOW });
    const told = await h.slack.waitForResponse((p) => p.id === sent.id, 10_000);
    expect(told.body.text).toBe(
      "I couldn't take that command just now: my storage isn't answering. Nothing was booked. Try again in a minute.",
    );
    await lock.released;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await described('slow and lost')).toEqual([]);
  }, 20_000);
});

describe('a store slow to keep a form', () => {
  it('keeps the form open saying so, and a second submit books it once', async () => {
    const since = h.slack.now();
    expect((await h.sender.command({ text: '' })).status).toBe(200);
    const form = await formOpened(h, since);
    const values = formValues({
      amount: '24',
      currency: 'EUR',
      description: 'Slow form',
      date: new Date().toISOString().slice(0, 10),
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
    });
    const lock = await holdWriteLock(h.config.storeUrl, 3_500);
    const started = Date.now();
    const first = await submit(h, { viewId: form.viewId, meta: form.meta, values });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(first).toEqual({
      response_action: 'errors',
      errors: {
        form_description:
          'Saving this is taking longer than usual. Press Book it again in a moment: it goes through only once.',
      },
    });
    await lock.released;
    const again = await submit(h, { viewId: form.viewId, meta: form.meta, values });
    expect(again).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.app.deps.work.idle();
    expect(await described('Slow form')).toHaveLength(1);
  });
});
