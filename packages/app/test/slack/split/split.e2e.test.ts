/**
 * `/split <expense>` end to end: signed command -> app -> emulator, the created expense read back
 * from the emulator, and the posted answer checked (content and Block Kit limits).
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let dan: { id: number; email: string };
let roommates: { id: number };
const CHO_EMAIL = 'cho.invite@example.com';

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    default_currency: 'EUR',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  // Cho is in Slack only; Dan has a service account that Ann is already friends with.
  h.addSlackUser({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim', email: CHO_EMAIL });
  const friend = await call(h.emu.url, ann.apiKey, 'POST', 'create_friend', {
    user_email: 'dan.friend@example.com',
    user_first_name: 'Dan',
  });
  dan = { id: friend.body.friend.id, email: 'dan.friend@example.com' };
  h.addSlackUser({ slackId: 'U0DAN', first_name: 'Daniel', email: dan.email });
  const group = await call(h.emu.url, ann.apiKey, 'POST', 'create_group', {
    name: 'Roommates',
    users__0__email: bob.email,
    users__0__first_name: 'Bob',
  });
  roommates = { id: group.body.group.id };
});
afterAll(() => h?.close());

async function expenseById(id: number): Promise<Loose> {
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`);
  expect(reply.status).toBe(200);
  return reply.body.expense;
}

function owedBy(expense: Loose): Record<number, number> {
  const out: Record<number, number> = {};
  for (const u of expense.users) out[u.user_id] = Number(u.owed_share);
  return out;
}

function paidBy(expense: Loose): number[] {
  return expense.users.filter((u: Loose) => Number(u.paid_share) > 0).map((u: Loose) => u.user_id);
}

function paidShares(expense: Loose): Record<number, number> {
  const out: Record<number, number> = {};
  for (const u of expense.users)
    if (Number(u.paid_share) > 0) out[u.user_id] = Number(u.paid_share);
  return out;
}

function expenseIdOf(blocks: unknown): number {
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(blocks));
  if (!match) throw new Error('no Undo button');
  return Number(match[1]);
}

interface Booked {
  text: string;
  cost: number;
  currency: string;
  /** Owed per person, by name. */
  owed: Record<string, number>;
  /** Who paid it all, or what each paid when several did, by name. */
  payer: string | Record<string, number>;
  date?: string;
  group?: boolean;
}

/** A phrasing answered with a question, privately, and nothing booked. */
interface Asked {
  text: string;
  asks: string;
}

/**
 * A `/split list` phrasing, answered privately with the expenses it finds (descriptions, as
 * listed) and, when its words name no group, a note that it searched the descriptions.
 */
interface Listed {
  text: string;
  lists: string[];
  searched: boolean;
}

const ROWS: Array<Booked | Asked | Listed> = [
  {
    text: '40 lunch <@U0BOB|bob>',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 20, bob: 20 },
    payer: 'ann',
  },
  {
    text: 'lunch 40 <@U0BOB>',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 20, bob: 20 },
    payer: 'ann',
  },
  {
    text: '€12,50 taxi <@U0BOB> <@U0CHO|cho>',
    cost: 12.5,
    currency: 'EUR',
    owed: { ann: 4.17, bob: 4.17, cho: 4.16 },
    payer: 'ann',
  },
  {
    text: '$30 dinner <@U0BOB> paid by <@U0BOB>',
    cost: 30,
    currency: 'USD',
    owed: { ann: 15, bob: 15 },
    payer: 'bob',
  },
  {
    text: '40 lunch <@U0BOB> 25 <@U0CHO> 15',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 0, bob: 25, cho: 15 },
    payer: 'ann',
  },
  {
    text: '40 lunch <@U0BOB> 60% <@U0CHO> 40%',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 0, bob: 24, cho: 16 },
    payer: 'ann',
  },
  {
    text: '40 lunch <@U0BOB> 2x <@U0CHO> 1x',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 10, bob: 20, cho: 10 },
    payer: 'ann',
  },
  {
    text: '1000 JPY sushi <@U0BOB>',
    cost: 1000,
    currency: 'JPY',
    owed: { ann: 500, bob: 500 },
    payer: 'ann',
  },
  // Words that name no group search the descriptions; a group's name lists the group.
  { text: 'list sushi', lists: ['sushi'], searched: true },
  {
    text: '1.234,50 EUR rent <@U0BOB>',
    cost: 1234.5,
    currency: 'EUR',
    owed: { ann: 617.25, bob: 617.25 },
    payer: 'ann',
  },
  {
    text: '40 lunch <@U0BOB> on 2026-11-20',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 20, bob: 20 },
    payer: 'ann',
    date: '2026-11-20',
  },
  {
    text: '40 lunch <@U0BOB> except me',
    cost: 40,
    currency: 'EUR',
    owed: { ann: 0, bob: 40 },
    payer: 'ann',
  },
  {
    text: '20 coffee <@U0DAN>',
    cost: 20,
    currency: 'EUR',
    owed: { ann: 10, dan: 10 },
    payer: 'ann',
  },
  {
    text: '30 groceries in Roommates',
    cost: 30,
    currency: 'EUR',
    owed: { ann: 15, bob: 15 },
    payer: 'ann',
    group: true,
  },
  { text: 'list roommates', lists: ['groceries'], searched: false },
  {
    // Cho, named after the last payer's amount, shares the cost and pays nothing.
    text: '60 dinner paid by me 40 <@U0BOB> 20 <@U0CHO>',
    cost: 60,
    currency: 'EUR',
    owed: { ann: 20, bob: 20, cho: 20 },
    payer: { ann: 40, bob: 20 },
  },
  {
    // Bob has no amount, and a payer follows him: he is asked about, not taken as a sharer.
    text: '60 dinner paid by me 40 <@U0BOB> <@U0CHO> 20',
    asks: "How much did <@U0BOB> pay? With several payers, put each one's amount right after them.",
  },
];

describe('/split books what people type', () => {
  it.each(ROWS)('$text', async (row) => {
    const before = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    const out = await h.split(row.text);
    expect(out.status).toBe(200);
    expect(out.ackBody).toBe('');
    const body = out.answer.body as Loose;
    if ('lists' in row) {
      expect(body.response_type).toBe('ephemeral');
      expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
      const text = blocksText(body.blocks);
      expect([...text.matchAll(/\*([^*]+)\* · /g)].map((m) => m[1])).toEqual(row.lists);
      const note = 'so I looked for it in the descriptions';
      if (row.searched) expect(text).toContain(note);
      else expect(text).not.toContain(note);
      return;
    }
    if ('asks' in row) {
      expect(body.response_type).toBe('ephemeral');
      expect(body.text).toContain(row.asks);
      expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
      const after = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
      expect(after.body.expenses.length).toBe(before.body.expenses.length);
      return;
    }
    expect(body.response_type).toBe('in_channel');
    expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
    const expense = await expenseById(expenseIdOf(body.blocks));

    const ids: Record<string, number> = { ann: ann.serviceId, bob: bob.serviceId, dan: dan.id };
    const cho = expense.users.find((u: Loose) => u.user?.first_name === 'Cho');
    if (cho) ids.cho = cho.user_id;
    const expected: Record<number, number> = {};
    for (const [name, amount] of Object.entries(row.owed)) expected[ids[name]!] = amount;
    expect(owedBy(expense)).toEqual(expected);
    expect(Number(expense.cost)).toBe(row.cost);
    expect(expense.currency_code).toBe(row.currency);
    if (typeof row.payer === 'string') expect(paidBy(expense)).toEqual([ids[row.payer]]);
    else {
      const paid: Record<number, number> = {};
      for (const [name, amount] of Object.entries(row.payer)) paid[ids[name]!] = amount;
      expect(paidShares(expense)).toEqual(paid);
    }
    expect(expense.created_by.id).toBe(ann.serviceId);
    if (row.date) expect(expense.date.slice(0, 10)).toBe(row.date);
    expect(expense.group_id ?? 0).toBe(row.group ? roommates.id : 0);

    // Everyone who owes is mentioned in the fallback text, so that Slack notifies them. The
    // answer to several payers names only the payers there (payers-repeat.e2e.test.ts), and
    // everyone in its lines.
    const mentioned = typeof row.payer === 'string' ? body.text : blocksText(body.blocks);
    for (const name of Object.keys(row.owed)) {
      const slackId = `U0${name.toUpperCase()}`;
      if (name !== row.payer && row.owed[name]! > 0) expect(mentioned).toContain(`<@${slackId}>`);
    }
    if (row.group) expect(blocksText(body.blocks)).toContain('Roommates');
  });

  it('invites someone known only by their Slack e-mail, by name', async () => {
    const out = await h.split('10 snacks <@U0CHO>');
    const expense = await expenseById(expenseIdOf((out.answer.body as Loose).blocks));
    const cho = expense.users.find((u: Loose) => u.user_id !== ann.serviceId);
    const user = await call(h.emu.url, ann.apiKey, 'GET', `get_user/${cho.user_id}`);
    expect(user.body.user).toMatchObject({ first_name: 'Cho', last_name: 'Kim', email: CHO_EMAIL });
  });

  it('shows cost, date, payer, shares, group and an Undo button in the answer', async () => {
    const out = await h.split('40 team lunch <@U0BOB> on 2026-11-20');
    const body = out.answer.body as Loose;
    const text = blocksText(body.blocks);
    expect(body.blocks[0]).toEqual({
      type: 'header',
      block_id: 'expense_header',
      text: { type: 'plain_text', text: 'team lunch · €40.00', emoji: true },
    });
    expect(text).toContain('Fri, Nov 20, 2026');
    expect(text).toContain('*Paid by*\n<@U0ANN>');
    expect(text).toContain('<@U0BOB> owes <@U0ANN> *€20.00*');
    expect(body.text).toBe('<@U0ANN> paid €40.00 for team lunch: <@U0BOB> owes €20.00');
    const actions = body.blocks.find((b: Loose) => b.type === 'actions');
    expect(actions.elements[0]).toMatchObject({
      action_id: 'expense_undo',
      text: { text: 'Undo' },
    });
  });

  it('answers through the app’s own HTTP client, not the global fetch', async () => {
    // The global fetch's first calls compile a WebAssembly HTTP parser, and on Node 24 that
    // leaves about 10 MB behind for as long as the app runs.
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      const out = await h.split('6 tea <@U0BOB>');
      expect(out.answer.body).toMatchObject({ response_type: 'in_channel' });
      const urls = spy.mock.calls.map(([input]) => String(input));
      expect(urls).not.toContain(out.responseUrl);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers privately, with an example that works, when the text cannot be read', async () => {
    const out = await h.split('lunch with <@U0BOB>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toMatch(/For example: \/split /);
    expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  });

  it('refuses an unknown group with the groups the person has', async () => {
    const out = await h.split('30 groceries in Attic');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('You have no group called "Attic". Your groups: "Roommates".');
    expect(body.text).toContain('/split 40 lunch in Roommates');
  });

  it('finds a group made after its list of groups was cached', async () => {
    await h.split('5 tea in Roommates');
    const made = await call(h.emu.url, ann.apiKey, 'POST', 'create_group', { name: 'Ski Trip' });
    const out = await h.split('60 fuel in ski trip');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('in_channel');
    const expense = await expenseById(expenseIdOf(body.blocks));
    expect(expense.group_id).toBe(made.body.group.id);
  });

  it('books into the group bound to the channel when nobody is named', async () => {
    await h.app.deps.bindings.set(
      { team_id: 'T0001', channel_id: 'C0ROOM' },
      {
        group_id: roommates.id,
        group_name: 'Roommates',
        bound_by: 'U0ANN',
        bound_at: new Date().toISOString(),
      },
    );
    const out = await h.split('50 cleaning', { channel_id: 'C0ROOM' });
    const expense = await expenseById(expenseIdOf((out.answer.body as Loose).blocks));
    expect(expense.group_id).toBe(roommates.id);
    expect(owedBy(expense)).toEqual({ [ann.serviceId]: 25, [bob.serviceId]: 25 });
  });

  it('shows the most used forms and the topics on /split help, privately', async () => {
    const out = await h.split('help');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    const text = blocksText(body.blocks);
    for (const form of [
      '/split 40 lunch ',
      '/split balance',
      '/split help payers',
      '/split help account',
    ]) {
      expect(text).toContain(form);
    }
    expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
    const shares = blocksText(((await h.split('help shares')).answer.body as Loose).blocks);
    expect(shares).toMatch(/\/split 40 lunch \S+ 60% \S+ 40%/);
    const account = blocksText(((await h.split('hilfe account')).answer.body as Loose).blocks);
    expect(account).toContain('/split connect');
  });

  it('costs one service call in steady state (same caller, same people)', async () => {
    await h.split('12 bagels <@U0BOB> <@U0CHO>');
    const before = await h.serviceCounts();
    await h.split('12 bagels <@U0BOB> <@U0CHO>');
    const after = await h.serviceCounts();
    const diff: Record<string, number> = {};
    for (const [route, count] of Object.entries(after)) {
      const delta = count - (before[route] ?? 0);
      if (delta > 0 && !route.includes('__emulator')) diff[route] = delta;
    }
    expect(diff).toEqual({ 'POST /api/v3.0/create_expense': 1 });
  });

  it("reads the caller's link from the store once per booking", async () => {
    await h.split('12 bagels <@U0BOB>');
    const reads = vi.spyOn(h.app.deps.tokens, 'get');
    try {
      const out = await h.split('12 bagels <@U0BOB>');
      expect(out.answer.body).toMatchObject({ response_type: 'in_channel' });
      expect(reads.mock.calls).toEqual([[{ team_id: 'T0001', user_id: 'U0ANN' }]]);
    } finally {
      reads.mockRestore();
    }
  });
});
