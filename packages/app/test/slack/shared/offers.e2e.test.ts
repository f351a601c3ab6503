/**
 * Values a member's Slack client sends back, made up as a hostile member would make them: a "Split
 * this" offer naming someone else's DM with the app, a form's private_metadata naming another
 * conversation, a receipt's file id of someone else's file, and Pay part's metadata naming a
 * response_url of the member's choosing. The app reveals nothing the member could not see, posts
 * nowhere they are not, and fetches no file that is not theirs or offered to them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, book, CHANNEL } from '../../support/balance-support.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { type FormFields, formOpened, formValues, submit } from '../../support/modal-support.js';

const BOB_DM = 'D0BOB';
const SECRET = 'Payslip November: 4,210.77 EUR net';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
/** A server of the member's choosing, which no post of the app may reach. */
let trap: Server;
let trapped = 0;
let trapUrl: string;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  trap = createServer((_req, res) => {
    trapped += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  trap?.close();
  await h?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
const lunch = (extra: FormFields = {}): FormFields => ({
  amount: '40',
  currency: 'EUR',
  description: 'Team lunch',
  date: today(),
  participants: ['U0ANN', 'U0BOB'],
  payer: 'U0ANN',
  ...extra,
});

/** Bob's private message to the app, with a file only he shared. */
async function bobsPrivateMessage(): Promise<{ ts: string; fileId: string }> {
  h.slack.addFile({
    id: 'F0PAYSLIP',
    name: 'payslip.png',
    mimetype: 'image/png',
    user: 'U0BOB',
    content: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('payslip')]),
  });
  await h.slack.act.message({ as: 'U0BOB', channel: BOB_DM, text: SECRET });
  const message = h.slack.messages(BOB_DM).at(-1)!;
  return { ts: message.ts, fileId: 'F0PAYSLIP' };
}

/** Everything the app sent anywhere after `since`, as text. */
function sentSince(since: number): string {
  return JSON.stringify(h.slack.calls.filter((c) => c.at >= since).map((c) => c.args));
}

async function expensesNamed(description: string): Promise<Loose[]> {
  const list = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', {
    limit: 0,
    visible: true,
  });
  return list.body.expenses.filter((e: Loose) => e.description === description);
}

describe('a made-up "Split this" offer', () => {
  it('naming another person’s DM reads nothing of it and opens no form', async () => {
    const { ts } = await bobsPrivateMessage();
    const since = h.slack.now();
    // The value of an offer as the app writes one, pointing at Bob's DM instead of Ann's thread.
    const forged = JSON.stringify({ c: BOB_DM, t: ts, p: 1 });
    for (const where of [CHANNEL, BOB_DM]) {
      const sent = await h.sender.blockActions({
        user_id: 'U0ANN',
        channel_id: where,
        actions: { action_id: 'talk_open_form', value: forged },
        is_ephemeral: true,
        response_url: h.slack.responseUrl({ channel: where, user: 'U0ANN' }),
      });
      expect(sent.status).toBe(200);
    }
    await expect
      .poll(() => h.slack.responses.filter((r) => r.at >= since).length, { timeout: 5_000 })
      .toBe(2);
    await h.app.deps.work.idle();
    const calls = h.slack.calls.filter((c) => c.at >= since).map((c) => c.method);
    expect(calls).not.toContain('conversations.replies');
    expect(calls).not.toContain('views.open');
    expect(sentSince(since)).not.toContain('Payslip');
    for (const r of h.slack.responses.filter((r) => r.at >= since))
      expect(JSON.stringify(r.body)).toContain('This button is damaged');
  });
});

describe('a form’s made-up private_metadata', () => {
  it('naming another conversation books nothing and posts nothing there', async () => {
    const since = h.slack.now();
    const inBobsDm = () => h.slack.messages(BOB_DM).filter((m) => m.user !== 'U0BOB').length;
    const before = inBobsDm();
    await h.sender.command({ text: '' });
    const form = await formOpened(h, since);
    const signed = form.meta;
    const attempts = [
      // Unsigned, as a client would write it.
      JSON.stringify({ v: 1, c: BOB_DM }),
      // Ann's own, its channel changed, its signature kept.
      signed.replace(`"c":"${CHANNEL}"`, `"c":"${BOB_DM}"`),
    ];
    for (const meta of attempts) {
      const ack = await submit(h, {
        viewId: form.viewId,
        meta,
        values: formValues(lunch({ description: 'Into Bob’s DM' })),
      });
      expect(ack.response_action).toBe('errors');
      expect(ack.errors.form_description).toContain('This form is damaged');
    }
    // Bob's client sending Ann's form as his own gets the same.
    const asBob = await submit(h, {
      viewId: form.viewId,
      meta: signed,
      user_id: 'U0BOB',
      values: formValues(lunch({ description: 'Into Bob’s DM', payer: 'U0BOB' })),
    });
    expect(asBob.errors.form_description).toContain('This form is damaged');
    await h.app.deps.work.idle();
    expect(inBobsDm()).toBe(before);
    expect(await expensesNamed('Into Bob’s DM')).toEqual([]);
    // Ann's own, untouched, still books.
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: signed,
      values: formValues(lunch({ description: 'Into Bob’s DM' })),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    await expect.poll(async () => (await expensesNamed('Into Bob’s DM')).length).toBe(1);
  });
});

describe('a receipt’s made-up file id', () => {
  const leftOut = (since: number) =>
    h.slack.waitForCall('chat.postEphemeral', (c) => c.at >= since && c.args.user === 'U0ANN');

  it('of a file someone else shared is not fetched nor attached, and is not named', async () => {
    await bobsPrivateMessage();
    const since = h.slack.now();
    await h.sender.command({ text: '' });
    const form = await formOpened(h, since);
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'Forged receipt', files: [{ id: 'F0PAYSLIP' }] })),
    });
    const notice = await leftOut(since);
    expect(String(notice.args.text)).toContain('it is not a file you shared or were offered here');
    expect(String(notice.args.text)).not.toContain('payslip');
    await expect.poll(async () => (await expensesNamed('Forged receipt')).length).toBe(1);
    const [booked] = await expensesNamed('Forged receipt');
    expect(booked?.receipt?.original ?? null).toBeNull();
    expect(h.slack.fileDownloads('F0PAYSLIP')).toBe(0);
  });

  it('ticked as the message’s receipt, for a message that had none, is not attached', async () => {
    const since = h.slack.now();
    await h.sender.messageShortcut({ message: { text: 'Taxi 23 EUR', user: 'U0ANN' } });
    const form = await formOpened(h, since);
    const values = {
      ...formValues(lunch({ description: 'Forged message receipt' })),
      form_message_receipt: {
        form_message_receipt: {
          type: 'checkboxes',
          selected_options: [{ text: { type: 'plain_text', text: 'x' }, value: 'F0PAYSLIP' }],
        },
      },
    };
    await submit(h, { viewId: form.viewId, meta: form.meta, values });
    const notice = await leftOut(since);
    expect(String(notice.args.text)).toContain('it is not a file you shared or were offered here');
    await expect.poll(async () => (await expensesNamed('Forged message receipt')).length).toBe(1);
    expect(h.slack.fileDownloads('F0PAYSLIP')).toBe(0);
  });

  it('of the message "Split this" was used on is attached: the form offered it', async () => {
    h.slack.addFile({
      id: 'F0BILL',
      name: 'bill.png',
      mimetype: 'image/png',
      user: 'U0BOB',
      content: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('bill')]),
    });
    const since = h.slack.now();
    await h.sender.messageShortcut({
      message: {
        text: 'Dinner 48 EUR',
        user: 'U0BOB',
        files: [{ id: 'F0BILL', name: 'bill.png', mimetype: 'image/png', size: 12 }],
      },
    });
    const form = await formOpened(h, since);
    const values = {
      ...formValues(lunch({ description: 'Offered receipt' })),
      form_message_receipt: {
        form_message_receipt: {
          type: 'checkboxes',
          selected_options: [{ text: { type: 'plain_text', text: 'x' }, value: 'F0BILL' }],
        },
      },
    };
    await submit(h, { viewId: form.viewId, meta: form.meta, values });
    await expect.poll(async () => (await expensesNamed('Offered receipt')).length).toBe(1);
    const [booked] = await expensesNamed('Offered receipt');
    expect(booked?.receipt?.original).toMatch(/^http/);
  });
});

describe('Pay part’s made-up private_metadata', () => {
  it('naming a response_url of the member’s choosing is never posted to', async () => {
    await book(h, bob, {
      cost: '60',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '30' },
        { who: ann, owed: '30' },
      ],
    });
    const message = await ask(h, 'balance', 'U0ANN');
    const menu = (message.blocks as Loose[])
      .flatMap((b) => b.elements ?? [])
      .find((e: Loose) => e.action_id === 'balance_settle_part');
    const ref = JSON.parse(menu.options[0].value);
    const before = trapped;
    const response = await h.sender.viewSubmission({
      user_id: 'U0ANN',
      id: 'V0FORGED',
      callback_id: 'settle_part_form',
      private_metadata: JSON.stringify({ r: ref, u: trapUrl }),
      values: {
        settle_part_amount: { settle_part_amount: { type: 'plain_text_input', value: '1' } },
      },
    });
    expect(response.status).toBe(200);
    const ack = JSON.parse(await response.text());
    expect(ack.response_action).toBe('errors');
    await h.app.deps.work.idle();
    expect(trapped).toBe(before);
  });
});
