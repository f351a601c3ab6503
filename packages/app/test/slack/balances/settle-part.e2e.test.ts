/**
 * "Record part…" end to end: a debt chosen under a balance opens the amount form (views.open),
 * bad amounts come back as errors under the field with nothing recorded, a part is recorded and
 * read back from the emulator, a second submission of the same form records nothing more (one after
 * the other, or both at once), the whole amount takes Settle up's path, and a store that refuses the
 * job before the ack leaves the form open with the reason under the field and nothing recorded,
 * and amounts are shown in the person's locale. (Carried out after a crash: settle-part-crash.e2e.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  book,
  CHANNEL,
  eventually,
  payments,
  serviceFor,
} from '../../support/balance-support.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { breakJobQueue, holdWriteLock } from '../../support/store-faults.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads read loosely in a test
type Loose = Record<string, any>;

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  await book(h, bob, {
    cost: '60',
    currency: 'EUR',
    shares: [
      { who: bob, owed: '30' },
      { who: ann, owed: '30' },
    ],
  });
});
afterAll(() => h?.close());

async function owedToBob(): Promise<number> {
  const friend = await serviceFor(h, ann).getFriend(bob.serviceId);
  const signed = friend.balance
    .filter((b) => b.currency_code === 'EUR')
    .reduce((sum, b) => sum + Math.round(Number(b.amount) * 100), 0);
  return signed === 0 ? 0 : -signed;
}

/** Picks the debt to Bob in the "Record part of a debt…" menu of `/split balance`; returns the opened form. */
async function openForm(user = 'U0ANN'): Promise<{
  viewId: string;
  meta: string;
  view: Loose;
  answerId: string;
}> {
  const message = await ask(h, 'balance', user);
  const menu = (message.blocks as Loose[])
    .flatMap((b) => b.elements ?? [])
    .find((e: Loose) => e.action_id === 'balance_settle_part');
  const option = menu.options.find((o: Loose) => o.text.text.includes('Bob Ray'));
  const since = Date.now();
  const answerId = randomBytes(8).toString('hex');
  const sent = await h.sender.blockActions({
    user_id: user,
    channel_id: CHANNEL,
    actions: {
      action_id: 'balance_settle_part',
      type: 'static_select',
      selected_option: option,
    },
    message: { ts: message.ts, text: message.text ?? '', blocks: message.blocks ?? [] },
    response_url: h.slack.responseUrl({ id: answerId, channel: CHANNEL, user }),
  });
  expect(sent.status).toBe(200);
  const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since && c.status === 200);
  const view = opened.args.view as Loose;
  return {
    viewId: (opened.response as Loose).view.id,
    meta: view.private_metadata,
    view,
    answerId,
  };
}

async function submit(form: { viewId: string; meta: string }, amount: string, user = 'U0ANN') {
  const response = await h.sender.viewSubmission({
    user_id: user,
    id: form.viewId,
    callback_id: 'settle_part_form',
    private_metadata: form.meta,
    values: {
      settle_part_amount: { settle_part_amount: { type: 'plain_text_input', value: amount } },
    },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return text === '' ? null : (JSON.parse(text) as Loose);
}

describe('Record part…', () => {
  it('opens a form with the whole debt filled in, within Slack limits', async () => {
    const form = await openForm();
    expect(viewErrors(form.view)).toEqual([]);
    expect(form.view.callback_id).toBe('settle_part_form');
    const input = (form.view.blocks as Loose[]).find((b) => b.block_id === 'settle_part_amount');
    expect(input?.element.initial_value).toBe('30.00');
    expect(JSON.stringify(form.view.blocks)).toContain('You owe *Bob Ray* *€30.00*');
  });

  it('puts bad amounts under the field and records nothing', async () => {
    const form = await openForm();
    const before = (await payments(h, ann)).length;
    const cases: Array<[string, string]> = [
      ['lots', 'I can\'t read "lots" as an amount: type a number, like 12.50.'],
      [
        '40',
        'That is more than the €30.00 owed: it would turn the debt around. Type at most €30.00.',
      ],
      ['$5', 'This debt is in EUR: type the amount in EUR.'],
      ['0', 'A payment must be more than zero.'],
      ['-3', 'The amount can\'t be negative ("-3").'],
      ['0.505', 'EUR has at most 2 decimals: "0.505" has more.'],
    ];
    for (const [typed, error] of cases) {
      expect(await submit(form, typed)).toEqual({
        response_action: 'errors',
        errors: { settle_part_amount: error },
      });
    }
    expect((await payments(h, ann)).length).toBe(before);
  });

  it('records part, reads back 12.50 less, and a second submission records nothing more', async () => {
    const form = await openForm();
    expect(await submit(form, '12,50')).toBeNull();
    const answer = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(answer.body.text).toBe(
      '✅ Recorded: you paid Bob Ray €12.50. You still owe Bob Ray €17.50.',
    );
    expect(await owedToBob()).toBe(1750);
    const count = (await payments(h, ann)).length;
    expect(await submit(form, '12,50')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await owedToBob()).toBe(1750);
    expect((await payments(h, ann)).length).toBe(count);
  });

  it('the whole amount settles the debt through Settle up', async () => {
    const form = await openForm();
    const input = (form.view.blocks as Loose[]).find((b) => b.block_id === 'settle_part_amount');
    expect(input?.element.initial_value).toBe('17.50');
    expect(await submit(form, '17.50')).toBeNull();
    const answer = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(answer.body.text).toBe('✅ Recorded: you paid Bob Ray €17.50.');
    await eventually(async () => expect(await owedToBob()).toBe(0));
  });
});

describe('Record part… kept before the ack', () => {
  beforeAll(async () => {
    await book(h, bob, {
      cost: '60',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '30' },
        { who: ann, owed: '30' },
      ],
    });
  });

  it('leaves the form open with the reason under the field when the store refuses the submission', async () => {
    const form = await openForm();
    const before = (await payments(h, ann)).length;
    const restore = await breakJobQueue(h.config.storeUrl);
    let answer: Loose | null;
    try {
      answer = await submit(form, '4');
    } finally {
      await restore();
    }
    expect(answer).toEqual({
      response_action: 'errors',
      errors: {
        settle_part_amount:
          "I couldn't save this just now: my storage isn't answering. Nothing was recorded. Press Record a payment again in a minute.",
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await payments(h, ann)).length).toBe(before);
    expect(h.slack.responses.filter((p) => p.id === form.answerId)).toEqual([]);
    expect(await owedToBob()).toBe(3000);
    // The same form, sent again once the store answers, is recorded.
    expect(await submit(form, '4')).toBeNull();
    const done = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(done.body.text).toBe(
      '✅ Recorded: you paid Bob Ray €4.00. You still owe Bob Ray €26.00.',
    );
  }, 30_000);

  it('records one payment and answers once when the same form is submitted twice at once', async () => {
    const form = await openForm();
    const before = (await payments(h, ann)).length;
    expect(await Promise.all([submit(form, '6'), submit(form, '6')])).toEqual([null, null]);
    const answer = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(answer.body.text).toBe(
      '✅ Recorded: you paid Bob Ray €6.00. You still owe Bob Ray €20.00.',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await payments(h, ann)).length).toBe(before + 1);
    expect(await owedToBob()).toBe(2000);
    expect(h.slack.responses.filter((p) => p.id === form.answerId)).toHaveLength(1);
  });

  it("shows amounts in the person's locale, and reads them back", async () => {
    // Cleo's Slack is in German: she owes Bob 12 € outside groups.
    const cleo = await h.link({ slackId: 'U0CLEO', first_name: 'Cleo', locale: 'de-DE' });
    await book(h, bob, {
      cost: '24',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '12' },
        { who: cleo, owed: '12' },
      ],
    });
    const form = await openForm('U0CLEO');
    const blocks = JSON.stringify(form.view.blocks);
    expect(blocks).toContain('Du schuldest *Bob Ray* *12,00\u00a0€*. Wie viel hast du gezahlt?');
    expect(blocks).toContain('"initial_value":"12,00"');
    expect(form.view.title).toMatchObject({ text: 'Zahlung erfassen' });
    expect(await submit(form, '12,01', 'U0CLEO')).toEqual({
      response_action: 'errors',
      errors: {
        settle_part_amount:
          'Das ist mehr als die geschuldeten 12,00\u00a0€: Die Schuld würde sich umdrehen. Gib höchstens 12,00\u00a0€ ein.',
      },
    });
    // The outcome, told where the form came from, in her language too.
    expect(await submit(form, '5', 'U0CLEO')).toBeNull();
    const done = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(done.body.text).toBe(
      '✅ Erfasst: Du hast Bob Ray 5,00\u00a0€ gezahlt. Du schuldest Bob Ray noch 7,00\u00a0€.',
    );
  });

  it('keeps the form open saying so when the store is slow, and a second submit records once', async () => {
    const form = await openForm();
    const before = (await payments(h, ann)).length;
    const lock = await holdWriteLock(h.config.storeUrl, 3_500);
    const started = Date.now();
    const first = await submit(form, '2');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(first).toEqual({
      response_action: 'errors',
      errors: {
        settle_part_amount:
          'Saving this is taking longer than usual. Press Record a payment again in a moment: it is recorded only once.',
      },
    });
    await lock.released;
    expect(await submit(form, '2')).toBeNull();
    const done = await h.slack.waitForResponse((p) => p.id === form.answerId, 5_000);
    expect(done.body.text).toBe(
      '✅ Recorded: you paid Bob Ray €2.00. You still owe Bob Ray €18.00.',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await payments(h, ann)).length).toBe(before + 1);
    expect(h.slack.responses.filter((p) => p.id === form.answerId)).toHaveLength(1);
  }, 20_000);
});
