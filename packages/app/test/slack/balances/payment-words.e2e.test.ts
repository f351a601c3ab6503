/**
 * A payment is saved at the service with a description in the payer's language: `/split paid`
 * and Settle up and Pay part… by a German-speaking payer write "Zahlung", and `/split @cho paid me`
 * writes it in Cho's language (Japanese), read back from the emulator.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expense } from '../../../src/service/index.js';
import { ask, book, button, CHANNEL, click, payments } from '../../support/balance-support.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { voices } from '../../support/voice-support.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads read loosely in a test
type Loose = Record<string, any>;

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', locale: 'de-DE' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray', locale: 'fr-FR' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim', locale: 'ja-JP' });
  // Ann owes Bob $40; Cho owes Ann $20.
  await book(h, bob, {
    cost: '80',
    currency: 'USD',
    shares: [
      { who: bob, owed: '40' },
      { who: ann, owed: '40' },
    ],
  });
  await book(h, ann, {
    cost: '40',
    currency: 'USD',
    shares: [
      { who: ann, owed: '20' },
      { who: cho, owed: '20' },
    ],
  });
});
afterAll(() => h?.close());

/** The payment recorded since `before` (the ids Ann could see then). */
async function newPayment(before: Expense[]): Promise<Expense> {
  const known = new Set(before.map((p) => p.id));
  const added = (await payments(h, ann)).filter((p) => !known.has(p.id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

describe('a payment’s description at the service', () => {
  it('is the payer’s word for a payment, for /split paid', async () => {
    const before = await payments(h, ann);
    await ask(h, 'paid <@U0BOB|bob> 5');
    const payment = await newPayment(before);
    expect(payment.description).toBe('Zahlung');
    expect(payment.description).toBe(voices.de.t('settle.payment_description'));
  });

  it('is in the payer’s language when the other person paid', async () => {
    const before = await payments(h, ann);
    await ask(h, '<@U0CHO|cho> paid me 5');
    const payment = await newPayment(before);
    expect(payment.description).toBe('支払い');
    const paid = new Map(payment.users.map((u) => [u.user_id, Number(u.paid_share)]));
    expect(paid.get(cho.serviceId)).toBe(5);
  });

  it('is the payer’s word for a payment, for Settle up', async () => {
    const message = await ask(h, 'balance');
    const before = await payments(h, ann);
    const { answer } = await click(h, message, button(message.blocks, 'balance_settle_up', 'Bob'));
    await answer();
    const payment = await newPayment(before);
    expect(payment.description).toBe('Zahlung');
    expect(payment.users.find((u) => u.user_id === bob.serviceId)?.owed_share).toBe('35.0');
  });

  it('is the payer’s word for a payment, for Pay part…', async () => {
    await book(h, bob, {
      cost: '20',
      currency: 'USD',
      shares: [
        { who: bob, owed: '10' },
        { who: ann, owed: '10' },
      ],
    });
    const message = await ask(h, 'balance');
    const menu = (message.blocks as Loose[])
      .flatMap((b) => b.elements ?? [])
      .find((e: Loose) => e.action_id === 'balance_settle_part');
    const option = menu.options.find((o: Loose) => o.text.text.includes('Bob Ray'));
    const since = Date.now();
    const answerId = randomBytes(8).toString('hex');
    await h.sender.blockActions({
      user_id: 'U0ANN',
      channel_id: CHANNEL,
      actions: { action_id: 'balance_settle_part', type: 'static_select', selected_option: option },
      message: { ts: message.ts, text: message.text ?? '', blocks: message.blocks ?? [] },
      response_url: h.slack.responseUrl({ id: answerId, channel: CHANNEL, user: 'U0ANN' }),
    });
    const opened = await h.slack.waitForCall(
      'views.open',
      (c) => c.at >= since && c.status === 200,
    );
    const before = await payments(h, ann);
    const submitted = await h.sender.viewSubmission({
      user_id: 'U0ANN',
      id: (opened.response as Loose).view.id,
      callback_id: 'settle_part_form',
      private_metadata: (opened.args.view as Loose).private_metadata,
      values: {
        settle_part_amount: { settle_part_amount: { type: 'plain_text_input', value: '4' } },
      },
    });
    expect(submitted.status).toBe(200);
    await h.slack.waitForResponse((p) => p.id === answerId, 5_000);
    const payment = await newPayment(before);
    expect(payment.description).toBe('Zahlung');
    expect(Number(payment.cost)).toBe(4);
  });
});
