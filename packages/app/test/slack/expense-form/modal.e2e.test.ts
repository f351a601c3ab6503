/**
 * The expense form end to end: `/split` alone and "Split this" open it (views.open at once, then
 * filled), a submission books through the emulator, unequal splits go through a second step,
 * mistakes come back as field errors, a double submit books once, and a receipt chosen in Slack
 * reaches the expense.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, control, type Loose, raw } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  type FormFields,
  formOpened,
  formValues,
  stepValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

async function expense(id: number): Promise<Loose> {
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`);
  expect(reply.status).toBe(200);
  return reply.body.expense;
}

function owed(e: Loose): Record<number, string> {
  return Object.fromEntries(e.users.map((u: Loose) => [u.user_id, u.owed_share]));
}

async function openFromCommand() {
  const since = h.slack.now();
  const response = await h.sender.command({ text: '' });
  expect(response.status).toBe(200);
  return formOpened(h, since);
}

const today = () => new Date().toISOString().slice(0, 10);

function lunch(extra: FormFields = {}): FormFields {
  return {
    amount: '40',
    currency: 'EUR',
    description: 'Team lunch',
    date: today(),
    participants: ['U0ANN', 'U0BOB'],
    payer: 'U0ANN',
    ...extra,
  };
}

/** The expense message posted after `since`, in the channel (and thread when given). */
async function posted(since: number, thread?: string) {
  const call = await h.slack.waitForCall(
    'chat.postMessage',
    (c) =>
      c.at >= since &&
      c.args.channel === 'C0001' &&
      (thread === undefined || c.args.thread_ts === thread) &&
      JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
  );
  expect(blockKitErrors(call.args.blocks, 'message')).toEqual([]);
  return call;
}

describe('opening the form', () => {
  it('asks a person with no link to connect, in the form itself', async () => {
    const since = h.slack.now();
    expect((await h.sender.command({ text: '', user_id: 'U0CAROL' })).status).toBe(200);
    const { view } = await formOpened(h, since);
    const shown = JSON.stringify(view.blocks);
    expect(shown).toContain('connect your Splitwise account first');
    expect(shown).toContain('Connect');
    expect(view.submit).toBeUndefined();
  });

  it('unlinks a person whose link stopped working and asks them to connect again', async () => {
    const cy = await h.link({ slackId: 'U0CY', first_name: 'Cy' });
    await control(h.emu.url, 'POST', 'tokens/revoke', { access_token: cy.accessToken });
    const since = h.slack.now();
    expect((await h.sender.command({ text: '', user_id: 'U0CY' })).status).toBe(200);
    const { view } = await formOpened(h, since);
    expect(JSON.stringify(view.blocks)).toContain('stopped working, so I removed it');
    expect(await h.app.deps.tokens.get({ team_id: 'T0001', user_id: 'U0CY' })).toBeUndefined();
  });

  it('/split alone opens it at once, then fills it: my currency, today, me as payer', async () => {
    const form = await openFromCommand();
    expect(form.view.title.text).toBe('Split an expense');
    expect(element(form.view, 'form_currency').initial_option.value).toBe('EUR');
    expect(element(form.view, 'form_payer').initial_user).toBe('U0ANN');
    expect(element(form.view, 'form_participants').initial_users).toEqual(['U0ANN']);
    expect(element(form.view, 'form_date').initial_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(element(form.view, 'form_receipt').type).toBe('file_input');
    expect(form.meta.length).toBeLessThan(200);
  });

  it('"Split this" fills it from the message: amount, description with names, people', async () => {
    const since = h.slack.now();
    await h.sender.messageShortcut({
      message: {
        text: 'Dinner at Luigi’s €84.50 with <@U0BOB>',
        user: 'U0BOB',
        ts: '1700000000.000100',
      },
    });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_amount').initial_value).toBe('84.50');
    expect(element(form.view, 'form_currency').initial_option.value).toBe('EUR');
    expect(element(form.view, 'form_description').initial_value).toMatch(/bob/i);
    expect(element(form.view, 'form_description').initial_value).not.toContain('<@');
    expect(element(form.view, 'form_participants').initial_users).toEqual(['U0ANN', 'U0BOB']);
  });

  it('"Split this" on a message of 40,000 characters fills it from the start of the message', async () => {
    const text = `Dinner at Luigi’s €84.50 with <@U0BOB> ${'and then we walked along the river, '.repeat(1200)}`;
    expect(text.length).toBeGreaterThan(40_000);
    const since = h.slack.now();
    await h.sender.messageShortcut({ message: { text, user: 'U0BOB', ts: '1700000000.000300' } });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_amount').initial_value).toBe('84.50');
    expect(element(form.view, 'form_currency').initial_option.value).toBe('EUR');
    expect(element(form.view, 'form_description').initial_value).toMatch(/^Dinner at Luigi’s/);
    expect(element(form.view, 'form_participants').initial_users).toEqual(['U0ANN', 'U0BOB']);
  });

  it('"Split this" on a message without an amount leaves the amount empty', async () => {
    const since = h.slack.now();
    await h.sender.messageShortcut({ message: { text: 'Taxi home, split it <@U0BOB>?' } });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_amount').initial_value).toBeUndefined();
    expect(element(form.view, 'form_description').initial_value).toContain('Taxi home');
  });
});

describe('booking from the form', () => {
  it('books an equal split and answers in the message thread for "Split this"', async () => {
    const since = h.slack.now();
    await h.sender.messageShortcut({
      message: { text: 'Pizza 30 <@U0BOB>', user: 'U0BOB', ts: '1700000001.000200' },
    });
    const form = await formOpened(h, since);
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ amount: '30', description: 'Pizza', notes: 'Thin crust' })),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const message = await posted(since, '1700000001.000200');
    const e = await expense(expenseIdIn(message.args.blocks));
    expect(e.description).toBe('Pizza');
    expect(e.cost).toBe('30.0');
    expect(e.currency_code).toBe('EUR');
    // The notes as typed, then the marker that lets the app find this booking again.
    expect(e.details).toMatch(/^Thin crust\n\nBooked from Slack, ref [\w-]{16}$/);
    expect(owed(e)).toEqual({ [ann.serviceId]: '15.0', [bob.serviceId]: '15.0' });
  });

  it.each([
    ['exact', ['25', null], { ann: '25.0', bob: '15.0' }],
    ['percent', ['60', '40%'], { ann: '24.0', bob: '16.0' }],
    ['shares', ['3', '1'], { ann: '30.0', bob: '10.0' }],
  ] as const)('splits by %s through the second step', async (method, values, expected) => {
    const form = await openFromCommand();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ split: method, description: `Lunch by ${method}` })),
    });
    expect(ack.response_action).toBe('push');
    expect(viewErrors(ack.view)).toEqual([]);
    expect(
      ack.view.blocks.filter((b: Loose) => b.type === 'input').map((b: Loose) => b.label.text),
    ).toEqual(['ann', 'bob']);
    const since = h.slack.now();
    const done = await submit(h, {
      viewId: `V0STEP${method.toUpperCase()}`,
      callback_id: 'expense_form_split',
      meta: ack.view.private_metadata,
      root_view_id: form.viewId,
      previous_view_id: form.viewId,
      values: stepValues([...values]),
    });
    expect(done).toEqual({ response_action: 'clear' });
    const message = await posted(since);
    const e = await expense(expenseIdIn(message.args.blocks));
    expect(owed(e)).toEqual({ [ann.serviceId]: expected.ann, [bob.serviceId]: expected.bob });
  });

  it('books once when the same form is submitted twice', async () => {
    const form = await openFromCommand();
    const values = formValues(lunch({ description: 'Double submit' }));
    const [a, b] = await Promise.all([
      submit(h, { viewId: form.viewId, meta: form.meta, values }),
      submit(h, { viewId: form.viewId, meta: form.meta, values }),
    ]);
    expect(a).toEqual({ response_action: 'clear' });
    expect(b).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    const list = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', {
      limit: 0,
      visible: true,
    });
    expect(list.body.expenses.filter((e: Loose) => e.description === 'Double submit')).toHaveLength(
      1,
    );
  });

  it('uploads a receipt chosen in Slack to the expense', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    h.slack.addFile({
      id: 'F0RECEIPT',
      name: 'receipt.png',
      mimetype: 'image/png',
      user: 'U0ANN',
      content: png,
    });
    const form = await openFromCommand();
    const since = h.slack.now();
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'With receipt', files: [{ id: 'F0RECEIPT' }] })),
    });
    const message = await posted(since);
    const e = await expense(expenseIdIn(message.args.blocks));
    expect(e.receipt.original).toMatch(/^http/);
    const path = new URL(e.receipt.original).pathname;
    // Served to the person whose token the app uploaded it with.
    const bytes = await raw<string>(h.emu.url, path, {
      headers: { authorization: `Bearer ${ann.accessToken}` },
    });
    expect(bytes.status).toBe(200);
  });
});

describe('a receipt that cannot be attached', () => {
  const ephemeralSince = (since: number) =>
    h.slack.waitForCall('chat.postEphemeral', (c) => c.at >= since && c.args.user === 'U0ANN');

  it('is named in the form when Slack says it is too large, and the form books once it is out', async () => {
    const form = await openFromCommand();
    const big = { id: 'F0HUGE', name: 'huge scan.jpg', size: 300 * 2 ** 20 };
    const refused = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'Huge receipt', files: [big] })),
    });
    expect(refused).toEqual({
      response_action: 'errors',
      errors: {
        form_receipt:
          '"huge scan.jpg" is 300.0 MB, larger than the 4.9 MB a receipt can be. Remove it to book without a receipt, or choose a smaller one.',
      },
    });
    const since = h.slack.now();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'Huge receipt' })),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const e = await expense(expenseIdIn((await posted(since)).args.blocks));
    expect(e.description).toBe('Huge receipt');
  });

  it('is left out, named with the reason, when Slack says so only later: the expense is booked', async () => {
    // The form's payload said nothing of its size; files.info does.
    h.slack.addFile({
      id: 'F0LARGE',
      name: 'large.png',
      mimetype: 'image/png',
      user: 'U0ANN',
      content: Buffer.alloc(6 * 2 ** 20),
    });
    const form = await openFromCommand();
    const since = h.slack.now();
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'Large receipt', files: [{ id: 'F0LARGE' }] })),
    });
    const notice = await ephemeralSince(since);
    expect(String(notice.args.text)).toBe(
      'I couldn\'t attach "large.png": it is 6.0 MB, larger than the 4.9 MB a receipt can be. I\'m booking the expense without it. Edit it later to add a receipt.',
    );
    const e = await expense(expenseIdIn((await posted(since)).args.blocks));
    expect(e.description).toBe('Large receipt');
    expect(e.receipt?.original ?? null).toBeNull();
  });

  it('is never asked for on another host: the bot token stays with Slack, the expense is booked', async () => {
    const seen: (string | undefined)[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('x');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    // A Slack whose files.info names another loopback port as the file's download address.
    const forTeam = h.app.deps.slack.forTeam;
    h.app.deps.slack.forTeam = async (team) => {
      const client = await forTeam(team);
      return Object.create(client, {
        files: {
          value: {
            ...client.files,
            info: async () => ({
              ok: true,
              file: {
                id: 'F0AWAY',
                name: 'away.png',
                user: 'U0ANN',
                size: 10,
                url_private_download: `http://127.0.0.1:${port}/files/F0AWAY/away.png`,
              },
            }),
          },
        },
      });
    };
    try {
      const form = await openFromCommand();
      const since = h.slack.now();
      await submit(h, {
        viewId: form.viewId,
        meta: form.meta,
        values: formValues(lunch({ description: 'Receipt elsewhere', files: [{ id: 'F0AWAY' }] })),
      });
      const notice = await ephemeralSince(since);
      expect(String(notice.args.text)).toContain(
        `I couldn't attach "away.png": its download address is on 127.0.0.1:${port}, not on Slack's file host`,
      );
      const e = await expense(expenseIdIn((await posted(since)).args.blocks));
      expect(e.description).toBe('Receipt elsewhere');
      expect(seen).toEqual([]);
    } finally {
      h.app.deps.slack.forTeam = forTeam;
      other.close();
    }
  });
});

describe('where the answer goes', () => {
  it('sends the expense by DM when the bot may not post in the channel', async () => {
    h.slack.addChannel({ id: 'C0NOBOT', name: 'private', botIsMember: false });
    const since = h.slack.now();
    await h.sender.command({ text: '', channel_id: 'C0NOBOT' });
    const form = await formOpened(h, since);
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ description: 'Private lunch' })),
    });
    const dm = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && c.args.channel === 'U0ANN' && c.status === 200,
    );
    expect(JSON.stringify(dm.args.blocks)).toContain('Private lunch');
  });

  it('says so privately when Slack refuses to open the form', async () => {
    h.slack.fail('views.open', 'expired_trigger_id');
    const since = h.slack.now();
    await h.sender.command({ text: '' });
    const notice = await h.slack.waitForCall('chat.postEphemeral', (c) => c.at >= since);
    expect(String(notice.args.text)).toContain("didn't let me open the expense form");
  });
});

describe('a refusal after the form closed', () => {
  it("reaches the person privately, in the service's words, and nothing is booked", async () => {
    const form = await openFromCommand();
    const since = h.slack.now();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      // A parent category: only the service knows it takes subcategories.
      values: formValues(lunch({ description: 'Refused', category: '1' })),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const notice = await h.slack.waitForCall(
      'chat.postEphemeral',
      (c) => c.at >= since && c.args.user === 'U0ANN',
    );
    expect(String(notice.args.text)).toContain('not a subcategory');
    expect(String(notice.args.text)).toContain('Nothing was booked');
    const list = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 });
    expect(list.body.expenses.some((e: Loose) => e.description === 'Refused')).toBe(false);
  });
});

describe('field errors', () => {
  it.each([
    ['an amount that is not a number', { amount: 'forty' }, 'form_amount'],
    ['a negative amount', { amount: '-4' }, 'form_amount'],
    ['nobody to split with', { participants: [] }, 'form_participants'],
    ['only the payer', { participants: ['U0ANN'] }, 'form_participants'],
    ['an unknown currency', { currency: 'XYZ' }, 'form_currency'],
    ['a date in the future', { date: '2999-01-01' }, 'form_date'],
    ['no description', { description: '' }, 'form_description'],
  ])('%s', async (_what, change, block) => {
    const form = await openFromCommand();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch(change)),
    });
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors)).toEqual([block]);
  });

  it.each([
    ['amounts that do not add up', 'exact', ['30', '20'], /more than the cost/],
    ['percentages that do not make 100', 'percent', ['50', '30'], /not 100%/],
    ['a share that is not a whole number', 'shares', ['1.5', '1'], /whole number/],
  ] as const)('%s in the second step', async (_what, method, values, message) => {
    const form = await openFromCommand();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(lunch({ split: method })),
    });
    const step = await submit(h, {
      viewId: `V0BAD${method.toUpperCase()}`,
      callback_id: 'expense_form_split',
      meta: ack.view.private_metadata,
      root_view_id: form.viewId,
      values: stepValues([...values]),
    });
    expect(step.response_action).toBe('errors');
    expect(Object.values(step.errors).join(' ')).toMatch(message);
  });

  it('answers within Slack limits with a long description and many people', async () => {
    const people = Array.from({ length: 50 }, (_, i) => `U0P${String(i).padStart(3, '0')}`);
    for (const id of people) h.addSlackUser({ slackId: id, first_name: `Person${id}`.repeat(8) });
    const form = await openFromCommand();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues(
        lunch({ split: 'shares', participants: people, description: 'x'.repeat(250) }),
      ),
    });
    expect(ack.response_action).toBe('push');
    expect(viewErrors(ack.view)).toEqual([]);
    expect(ack.view.blocks.length).toBeLessThanOrEqual(100);
  });
});

describe('searchable selects', () => {
  it('answers a currency search with at most 100 options, the typed code first', async () => {
    const currencies = await call(h.emu.url, ann.apiKey, 'GET', 'get_currencies');
    expect(currencies.body.currencies.length).toBeGreaterThan(100);
    const all = await h.sender.blockSuggestion({ action_id: 'form_currency', value: '' });
    const answer = (await all.json()) as Loose;
    expect(answer.options.length).toBe(100);
    const eur = (await (
      await h.sender.blockSuggestion({ action_id: 'form_currency', value: 'eu' })
    ).json()) as Loose;
    expect(eur.options[0].value).toBe('EUR');
    for (const o of answer.options) expect(o.text.text.length).toBeLessThanOrEqual(75);
  });

  it('answers a category search with subcategories grouped by parent', async () => {
    const answer = (await (
      await h.sender.blockSuggestion({ action_id: 'form_category', value: 'taxi' })
    ).json()) as Loose;
    expect(answer.option_groups.map((g: Loose) => g.label.text)).toEqual(['Transportation']);
    expect(answer.option_groups[0].options.map((o: Loose) => o.text.text)).toEqual(['Taxi']);
  });
});
