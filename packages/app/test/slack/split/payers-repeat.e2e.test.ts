/**
 * Several payers and repeating expenses typed after `/split`, end to end: signed command -> app
 * -> emulator, the expense read back from the emulator (each person's paid and owed shares, the
 * repeat interval) and the answer checked.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMinor } from '../../../src/core/money.js';
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
let cho: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
});
afterAll(() => h?.close());

async function booked(text: string): Promise<{ expense: Loose; body: Loose }> {
  const out = await h.split(text);
  expect(out.status).toBe(200);
  const body = out.answer.body as Loose;
  expect(body.response_type, JSON.stringify(body)).toBe('in_channel');
  expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(body.blocks));
  if (!match) throw new Error('no Undo button');
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${match[1]}`);
  expect(reply.status).toBe(200);
  return { expense: reply.body.expense, body };
}

/** Paid and owed shares by person, in cents (all these expenses are in EUR). */
function shares(expense: Loose): Record<string, { paid: number; owed: number }> {
  const names = new Map([
    [ann.serviceId, 'ann'],
    [bob.serviceId, 'bob'],
    [cho.serviceId, 'cho'],
  ]);
  const out: Record<string, { paid: number; owed: number }> = {};
  for (const u of expense.users) {
    out[names.get(u.user_id) ?? String(u.user_id)] = {
      paid: parseMinor(u.paid_share, 2),
      owed: parseMinor(u.owed_share, 2),
    };
  }
  return out;
}

describe('several payers typed after /split', () => {
  it('books what each paid and what each owes, and shows who paid what', async () => {
    const { expense, body } = await booked('60 dinner <@U0CHO> paid by me 40 <@U0BOB> 20');
    expect(parseMinor(expense.cost, 2)).toBe(6000);
    expect(shares(expense)).toEqual({
      ann: { paid: 4000, owed: 2000 },
      cho: { paid: 0, owed: 2000 },
      bob: { paid: 2000, owed: 2000 },
    });
    const text = blocksText(body.blocks);
    expect(text).toContain('*Paid by*\n<@U0ANN> €40.00\n<@U0BOB> €20.00');
    expect(text).toContain('• <@U0ANN>: paid *€40.00* · share €20.00 · is owed €20.00');
    expect(text).toContain('• <@U0BOB>: paid *€20.00* · share €20.00 · settled up');
    expect(text).toContain('• <@U0CHO>: share €20.00 · owes €20.00');
    expect(body.text).toBe('<@U0ANN> (€40.00) and <@U0BOB> (€20.00) paid €60.00 for dinner');
  });

  it('reads "I paid 400, @bob paid 200" with no total as a cost of 600', async () => {
    const { expense } = await booked('I paid 400, <@U0BOB> paid 200 for the hotel');
    expect(parseMinor(expense.cost, 2)).toBe(60000);
    expect(expense.description).toBe('the hotel');
    expect(shares(expense)).toEqual({
      ann: { paid: 40000, owed: 30000 },
      bob: { paid: 20000, owed: 30000 },
    });
  });

  it('combines several payers with exact owed amounts, to the cent', async () => {
    const { expense } = await booked(
      '100.01 tickets <@U0BOB> 50 <@U0CHO> 30 paid_by <@U0BOB> 70.01 <@U0CHO> 30',
    );
    expect(shares(expense)).toEqual({
      ann: { paid: 0, owed: 2001 },
      bob: { paid: 7001, owed: 5000 },
      cho: { paid: 3000, owed: 3000 },
    });
  });

  it('refuses paid amounts that do not add up to the cost, and books nothing', async () => {
    const before = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    const out = await h.split('60 dinner paid by me 40 <@U0BOB> 30');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain(
      'The payers paid €70.00 together, but the cost is €60.00: what each paid must add up to the cost.',
    );
    // The example names Bob, whom the command mentioned, in place of a made-up person.
    expect(body.text).toMatch(
      /\/split 60 dinner <@U0BOB> paid by me 40 (<@U0[A-Z]+>|@someone-else) 20/,
    );
    const after = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    expect(after.body.expenses.length).toBe(before.body.expenses.length);
  });

  it('refuses a payer without an amount', async () => {
    const out = await h.split('60 dinner paid by me 40 <@U0BOB>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('How much did <@U0BOB> pay?');
  });
});

describe('repeating expenses typed after /split', () => {
  it.each([
    ['1200 rent <@U0BOB> monthly', 'monthly'],
    ['30 cleaning <@U0BOB> weekly', 'weekly'],
    ['50 gym <@U0BOB> every two weeks', 'fortnightly'],
    ['90 domain <@U0BOB> each year', 'yearly'],
  ])('%s repeats %s', async (text, interval) => {
    const { expense, body } = await booked(text);
    expect(expense.repeat_interval).toBe(interval);
    expect(expense.repeats).toBe(true);
    expect(expense.next_repeat).not.toBeNull();
    expect(blocksText(body.blocks)).toContain(`*Repeats*\n${interval}`);
    expect(body.text).toContain(`repeats ${interval}`);
  });

  it('books a one-off when "monthly" is quoted, as description', async () => {
    const { expense, body } = await booked('1200 "monthly rent" <@U0BOB>');
    expect(expense.description).toBe('monthly rent');
    expect(expense.repeat_interval ?? null).toBeNull();
    expect(blocksText(body.blocks)).not.toContain('Repeats');
  });

  it('repeats an expense with several payers', async () => {
    const { expense } = await booked('1500 rent paid by <@U0BOB> 1000 <@U0CHO> 500 monthly');
    expect(expense.repeat_interval).toBe('monthly');
    expect(shares(expense)).toEqual({
      ann: { paid: 0, owed: 50000 },
      bob: { paid: 100000, owed: 50000 },
      cho: { paid: 50000, owed: 50000 },
    });
  });

  it('refuses a period the service cannot repeat, naming what it can', async () => {
    const out = await h.split('5 coffee <@U0BOB> every day');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain(
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "every day".',
    );
  });

  it('refuses an unknown word after "repeat"', async () => {
    const out = await h.split('1200 rent <@U0BOB> repeat sometimes');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('After "repeat", say how often');
  });
});
