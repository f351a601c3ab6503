/**
 * Booking, editing, settling and reminding called as listeners and jobs, with the emulator's
 * ledger answering the service client in this process (support/service-world.ts): what the
 * person is answered, and what the service then holds. No socket, no server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formJob } from '../../../src/slack/expense-form/submit.js';
import { splitCommand } from '../../../src/slack/split/ack.js';
import { commandArgs } from '../../support/listener-args.js';
import {
  type ServicePerson,
  type ServiceWorld,
  startServiceWorld,
} from '../../support/service-world.js';

let world: ServiceWorld;
let ann: ServicePerson;
let bob: ServicePerson;

beforeAll(async () => {
  world = await startServiceWorld();
  ann = await world.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await world.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => world.close());

/** `/split <text>` from Ann (or `user_id`), through the ack and its job; the answers posted. */
async function split(text: string, trigger_id: string, user_id = 'U0ANN') {
  const since = world.posts.length;
  const { args, rec } = commandArgs(world, { text, trigger_id, user_id });
  await splitCommand(world.deps, async () => undefined)(args);
  expect(rec.acks).toEqual([undefined]);
  await world.settled();
  return world.posts.slice(since);
}

/** The one expense of Ann's called `description`, as the service holds it. */
async function expenseCalled(description: string) {
  const all = await world.serviceFor(ann).getExpenses({ limit: 0 });
  const found = all.filter((e) => e.description === description && !e.deleted_at);
  expect(found).toHaveLength(1);
  return found[0]!;
}

function owed(e: Awaited<ReturnType<typeof expenseCalled>>) {
  return Object.fromEntries(e.users.map((u) => [u.user_id, [u.paid_share, u.owed_share]]));
}

describe('booking through the service, in process', () => {
  it('books /split 40 lunch @bob once, with exact shares, and answers in the channel', async () => {
    const posts = await split('40.01 lunch <@U0BOB>', '1.1.1');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body.response_type).toBe('in_channel');
    expect(String(posts[0]!.body.text)).toContain('lunch');
    const e = await expenseCalled('lunch');
    expect(e.currency_code).toBe('EUR');
    expect(owed(e)).toEqual({
      [ann.serviceId]: ['40.01', '20.01'],
      [bob.serviceId]: ['0.0', '20.0'],
    });
    // The same delivery again (same trigger id) books nothing more.
    expect(await split('40.01 lunch <@U0BOB>', '1.1.1')).toEqual([]);
    await expenseCalled('lunch');
  });

  it('edits the amount of a booked expense: new cost, new shares, one update', async () => {
    await split('30 taxi <@U0BOB>', '2.2.2');
    const before = await expenseCalled('taxi');
    const form = {
      cost: 3000,
      currency: 'EUR',
      description: 'taxi',
      date: before.date.slice(0, 10),
      category_id: null,
      group_id: null,
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
      method: 'equal' as const,
      notes: '',
      repeat: 'never' as const,
      files: [],
    };
    const job = {
      user: { team_id: 'T0001', user_id: 'U0ANN' },
      meta: { v: 1 as const, e: before.id },
      rootViewId: 'V0EDIT',
      form: { ...form, cost: 3600 },
      split: { kind: 'equal' as const },
      edit: {
        expense_id: before.id,
        form,
        shares: before.users.map((u) => ({
          user_id: u.user_id,
          paid_share: u.paid_share,
          owed_share: u.owed_share,
        })),
        ids: { U0ANN: ann.serviceId, U0BOB: bob.serviceId },
        peopleEditable: true,
        bookedBy: 'U0ANN',
      },
    };
    const run = {
      id: 'form:edit',
      progress: undefined,
      createdAt: Date.now(),
      save: async () => undefined,
    };
    await formJob(world.deps)(job, run, world.logger);
    const after = await expenseCalled('taxi');
    expect(after.id).toBe(before.id);
    expect(after.cost).toBe('36.0');
    expect(owed(after)).toEqual({
      [ann.serviceId]: ['36.0', '18.0'],
      [bob.serviceId]: ['0.0', '18.0'],
    });
    const told = world.calls.filter((c) => c.method.startsWith('chat.')).at(-1);
    expect(told, JSON.stringify(world.calls.map((c) => c.method))).toBeDefined();
    expect(JSON.stringify(told?.args)).toContain('taxi');
  });

  it('records Bob paying Ann back with /split paid @ann, and the balance follows', async () => {
    const before = await world.serviceFor(bob).getFriends();
    const owing = before.find((f) => f.id === ann.serviceId)?.balance ?? [];
    expect(owing).toEqual([{ currency_code: 'EUR', amount: '-38.0' }]);
    const posts = await split('paid <@U0ANN> 10', '3.3.3', 'U0BOB');
    expect(posts.map((p) => p.body.text)).toEqual([
      '✅ Recorded: you paid Ann €10.00. You still owe Ann €28.00.',
    ]);
    const after = await world.serviceFor(bob).getFriends();
    expect(after.find((f) => f.id === ann.serviceId)?.balance).toEqual([
      { currency_code: 'EUR', amount: '-28.0' },
    ]);
  });

  it('reminds Bob of what he owes Ann, by DM', async () => {
    const before = world.calls.length;
    await split('remind <@U0BOB>', '4.4.4');
    const dms = world.calls.slice(before).filter((c) => c.method === 'chat.postMessage');
    expect(dms.map((c) => c.args.channel)).toContain('U0BOB');
    expect(JSON.stringify(dms.find((c) => c.args.channel === 'U0BOB')?.args)).toContain('€28.00');
  });
});
