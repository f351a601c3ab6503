/**
 * Itemised `/split` end to end: sums and tip/tax typed in Slack, booked at the emulator, and the
 * expense read back (cost, owed shares, notes); the answer shows subtotal, tip, tax and total.
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

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'USD' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
});
afterAll(() => h?.close());

async function booked(text: string): Promise<{ body: Loose; expense: Loose }> {
  const out = await h.split(text);
  expect(out.status).toBe(200);
  const body = out.answer.body as Loose;
  expect(body.response_type, JSON.stringify(body.text)).toBe('in_channel');
  expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(body.blocks));
  if (!match) throw new Error('no Undo button');
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${match[1]}`);
  expect(reply.status).toBe(200);
  return { body, expense: reply.body.expense };
}

function owed(expense: Loose): Record<number, string> {
  const out: Record<number, string> = {};
  for (const u of expense.users) out[u.user_id] = u.owed_share;
  return out;
}

describe('/split with items, tip and tax', () => {
  it('books a cost typed as a sum', async () => {
    const { expense } = await booked('12.50+7.25 lunch <@U0BOB>');
    expect(expense.cost).toBe('19.75');
    expect(owed(expense)).toEqual({ [ann.serviceId]: '9.88', [bob.serviceId]: '9.87' });
  });

  it('books parts typed as sums', async () => {
    const { expense } = await booked('lunch <@U0BOB> 12+3.50 <@U0CHO> 4 + 1');
    expect(expense.cost).toBe('20.5');
    expect(owed(expense)).toEqual({
      [ann.serviceId]: '0.0',
      [bob.serviceId]: '15.5',
      [cho.serviceId]: '5.0',
    });
  });

  it('books tip and tax spread in proportion, and shows the breakdown', async () => {
    const { body, expense } = await booked('80 dinner <@U0BOB> 30 <@U0CHO> 25 +tip 15% +tax 8%');
    expect(expense.cost).toBe('98.4');
    expect(owed(expense)).toEqual({
      [ann.serviceId]: '30.75',
      [bob.serviceId]: '36.9',
      [cho.serviceId]: '30.75',
    });
    const line = 'Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40 = total $98.40';
    expect(expense.details).toContain(line);
    expect(blocksText(body.blocks)).toContain(line);
    expect(body.blocks[0].text.text).toBe('dinner · $98.40');
  });

  it('books an absolute tip on an equal split, shares adding up to the total', async () => {
    const { expense } = await booked('10 snacks <@U0BOB> <@U0CHO> +tip 1');
    expect(expense.cost).toBe('11.0');
    const shares = Object.values(owed(expense)).map((s) => Math.round(Number(s) * 100));
    expect(shares.reduce((a, b) => a + b, 0)).toBe(1100);
    expect(shares.sort()).toEqual([366, 367, 367]);
  });

  it('refuses a malformed sum where it was typed, booking nothing', async () => {
    const before = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    const out = await h.split('12++3 lunch <@U0BOB>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('"12++3" has two + in a row');
    // The example names the person typed, whom the reader can mention.
    expect(body.text).toContain('/split 12.50+7.25 lunch <@U0BOB>');
    const out2 = await h.split('40 lunch <@U0BOB> +tip 150%');
    expect((out2.answer.body as Loose).text).toContain('A tip of 150%? Tip and tax go up to 100%.');
    const after = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    expect(after.body.expenses.length).toBe(before.body.expenses.length);
  });

  it('lists the itemised forms in /split help itemise, and names the topic in /split help', async () => {
    const topic = blocksText(((await h.split('help itemise')).answer.body as Loose).blocks);
    expect(topic).toContain('Itemised bills');
    expect(topic).toContain('+tip 15% +tax 8%');
    const overview = blocksText(((await h.split('help')).answer.body as Loose).blocks);
    expect(overview).toContain('/split help itemise — sums of items, tip and tax');
  });
});
