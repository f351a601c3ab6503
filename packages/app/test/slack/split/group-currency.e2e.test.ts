/**
 * The group's currency end to end: a `/split` that names no currency, in a channel bound to a
 * group or naming one, is booked in the currency saved for the group, else the one most of its
 * recent expenses are in, and the answer says which and why; a steady-state `/split` into the
 * group costs no service call for it. The expense form opened in the group's channel (an empty
 * `/split`, "Split this") starts from the same currency the command books.
 */
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import { element, formOpened } from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let lisbon: number;
const TRIP = 'C0LIS';

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'USD' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', locale: 'de-DE' });
  h.slack.addChannel({ id: TRIP, name: 'lisbon-trip', botIsMember: true });
  const group = await call(h.emu.url, ann.apiKey, 'POST', 'create_group', {
    name: 'Lisbon trip',
    users__0__email: bob.email,
    users__0__first_name: 'Bob',
  });
  lisbon = group.body.group.id;
  // The group keeps its expenses in euros: two of three.
  for (const [cost, currency] of [
    ['30.00', 'EUR'],
    ['12.00', 'USD'],
    ['44.00', 'EUR'],
  ] as const) {
    const out = await call(h.emu.url, ann.apiKey, 'POST', 'create_expense', {
      cost,
      currency_code: currency,
      description: 'earlier',
      group_id: lisbon,
      split_equally: true,
    });
    expect(out.body.errors).toEqual({});
  }
  await h.app.deps.bindings.set(
    { team_id: 'T0001', channel_id: TRIP },
    { group_id: lisbon, group_name: 'Lisbon trip', bound_at: new Date().toISOString() },
  );
});
afterAll(() => h?.close());

async function expense(id: number): Promise<Loose> {
  return (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`)).body.expense;
}

function expenseIdOf(blocks: unknown): number {
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(blocks));
  if (!match) throw new Error('no Undo button');
  return Number(match[1]);
}

async function booked(text: string, options: { channel_id?: string; user_id?: string } = {}) {
  const out = await h.split(text, { channel_id: TRIP, ...options });
  const body = out.answer.body as Loose;
  expect(body.response_type, JSON.stringify(body)).toBe('in_channel');
  expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  return { body, text: blocksText(body.blocks), expense: await expense(expenseIdOf(body.blocks)) };
}

/** The service calls `run` made, by route. */
async function callsOf(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await h.serviceCounts();
  await run();
  const after = await h.serviceCounts();
  const diff: Record<string, number> = {};
  for (const [route, count] of Object.entries(after)) {
    const delta = count - (before[route] ?? 0);
    if (delta > 0 && !route.includes('__emulator')) diff[route] = delta;
  }
  return diff;
}

describe('a /split into a group that names no currency', () => {
  it('is in the currency most of the group’s recent expenses are in, and says so', async () => {
    // Finding it reads the group's recent expenses once.
    const first = await callsOf(() => h.split('5 water', { channel_id: TRIP }));
    expect(first['GET /api/v3.0/get_expenses']).toBe(1);
    const { body, text, expense: e } = await booked('90 dinner');
    expect(e.currency_code).toBe('EUR');
    expect(Number(e.cost)).toBe(90);
    expect(text).toContain(
      'In EUR, like most recent expenses in *Lisbon trip*. Type another currency with the amount to change it.',
    );
    expect(body.text).toContain('In EUR, like most recent expenses in *Lisbon trip*.');
  });

  it('costs no service call for the currency once the group’s is known', async () => {
    const calls = await callsOf(() => h.split('30 taxi', { channel_id: TRIP }));
    expect(calls).toEqual({ 'POST /api/v3.0/create_expense': 1 });
  });

  it('keeps a currency the text names, and says nothing about the group’s', async () => {
    const { text, expense: e } = await booked('12 USD coffee');
    expect(e.currency_code).toBe('USD');
    expect(text).not.toContain('like most recent expenses');
  });

  it('is in the group’s currency when it names the group from another channel', async () => {
    const { expense: e } = await booked('20 tram in Lisbon trip', { channel_id: 'C0001' });
    expect(e.currency_code).toBe('EUR');
  });

  it('is in the currency saved for the group, which /split group default shows and clears', async () => {
    const saved = await h.split('group default JPY', { channel_id: TRIP });
    expect(blocksText((saved.answer.body as Loose).blocks)).toContain(
      '<@U0ANN> set the currency of *Lisbon trip* to JPY.',
    );
    const { text, expense: e } = await booked('1200 dinner');
    expect(e.currency_code).toBe('JPY');
    expect(Number(e.cost)).toBe(1200);
    expect(text).toContain('In JPY, the currency saved for *Lisbon trip*.');
    // Read in the group's currency: yen have no decimals.
    const refused = await h.split('40.50 snack', { channel_id: TRIP });
    expect((refused.answer.body as Loose).text).toContain(
      'JPY has no cents: "40.50" can\'t have decimals.',
    );
    const shown = await h.split('group default', { channel_id: TRIP });
    expect(blocksText((shown.answer.body as Loose).blocks)).toContain(
      'Amounts typed without a currency in *Lisbon trip* are in JPY.',
    );
    await h.split('group default clear', { channel_id: TRIP });
    const { expense: after } = await booked('10 water');
    expect(after.currency_code).toBe('EUR');
  });

  it('tells a German reader in German', async () => {
    const { text } = await booked('16 Fado-Abend', { user_id: 'U0BOB' });
    expect(text).toContain(
      'In EUR, wie die meisten letzten Ausgaben in *Lisbon trip*. Schreib eine andere Währung zum Betrag, um das zu ändern.',
    );
    expect(bob.slackId).toBe('U0BOB');
  });
});

/** The currency and group the expense form starts from, opened in the group's channel by `how`. */
async function formStart(how: 'empty /split' | 'Split this') {
  const since = h.slack.now();
  if (how === 'empty /split') await h.sender.command({ text: '', channel_id: TRIP });
  else {
    await h.sender.messageShortcut({
      channel_id: TRIP,
      message: { text: 'Tickets for the tram', user: 'U0BOB', ts: '1700000400.000100' },
    });
  }
  const form = await formOpened(h, since);
  return {
    currency: element(form.view, 'form_currency').initial_option?.value,
    group: element(form.view, 'form_group').initial_option?.value,
  };
}

describe('the expense form opened in the group’s channel', () => {
  it('starts from the saved currency, the one a /split there books', async () => {
    await h.split('group default CHF', { channel_id: TRIP });
    const { expense: e } = await booked('8 coffee');
    expect(e.currency_code).toBe('CHF');
    for (const how of ['empty /split', 'Split this'] as const) {
      expect(await formStart(how), how).toEqual({ currency: 'CHF', group: String(lisbon) });
    }
  });

  it('starts from the currency of most recent expenses once none is saved, as /split does', async () => {
    await h.split('group default clear', { channel_id: TRIP });
    const { expense: e } = await booked('9 juice');
    expect(e.currency_code).toBe('EUR');
    expect(await formStart('empty /split')).toEqual({ currency: 'EUR', group: String(lisbon) });
  });

  it("starts from the person's own currency outside the group's channel", async () => {
    const since = h.slack.now();
    await h.sender.command({ text: '', channel_id: 'C0001' });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_currency').initial_option?.value).toBe('USD');
  });
});
