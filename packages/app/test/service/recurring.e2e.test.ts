/**
 * Recurring expenses: `repeat_interval`, `email_reminder` and `email_reminder_in_advance` are
 * writable on createExpense and updateExpense. The emulator applies repeat_interval, so that one
 * is proven by its effect; for the reminder fields the tests prove what went on the wire (the
 * recording fetch) and what the emulator received and answered (its request log), and they accept
 * either of the two honest answers: applied, or refused by name. A reminder silently dropped
 * fails them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExpenseResult,
  ServiceBadRequestException,
  ServiceInputException,
} from '../../src/service/index.js';
import {
  type CreatedUser,
  clientFor,
  control,
  emulator,
  type Loose,
  type Recorder,
  type RunningEmulator,
  recorder,
  resetRequests,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
  // The service puts people on an expense by user_id only once they are acquainted.
  await clientFor(emu.url, { apiKey: ann.api_key }).createFriend({ email: bob.user.email });
});

afterAll(async () => {
  await emu?.close();
});

function recorded(): { rec: Recorder; client: ReturnType<typeof clientFor> } {
  const rec = recorder();
  return { rec, client: clientFor(emu.url, { apiKey: ann.api_key, fetch: rec.fetch }) };
}

const shares = () => [
  { user_id: ann.user.id, paid_share: '30', owed_share: '15' },
  { user_id: bob.user.id, paid_share: '0', owed_share: '15' },
];

/** The API requests the emulator logged since the last reset, by path. */
async function logged(path: string): Promise<Array<{ method: string; status: number }>> {
  const { body } = await control(emu.url, 'GET', 'requests');
  return (body.requests as Loose[]).filter((r) => r.path === path);
}

/**
 * The emulator's answer to reminder fields: either it applied them, or it refused the request
 * with a 400 naming the first of them. Anything else (a success that lost them) fails.
 */
async function expectAppliedOrRefusedByName(
  outcome: ExpenseResult | unknown,
  path: string,
  expected: { email_reminder: boolean; email_reminder_in_advance: number },
): Promise<void> {
  const requests = await logged(path);
  expect(requests).toHaveLength(1);
  expect(requests[0]?.method).toBe('POST');
  if (outcome instanceof ServiceBadRequestException) {
    expect(requests[0]?.status).toBe(400);
    expect(outcome.errors?.base?.[0]).toMatch(/`email_reminder(_in_advance)?`/);
    return;
  }
  expect(requests[0]?.status).toBe(200);
  expect(outcome).toMatchObject({ errors: {}, expense: expected });
}

describe('repeat_interval', () => {
  it('createExpense makes a recurring expense, updateExpense changes and stops it', async () => {
    const { rec, client } = recorded();
    const created = await client.createExpense({
      description: 'Rent',
      cost: '30',
      repeat_interval: 'monthly',
      users: shares(),
    });
    expect(rec.form()).toContainEqual(['repeat_interval', 'monthly']);
    expect(created.errors).toEqual({});
    expect(created.expense).toMatchObject({ repeats: true, repeat_interval: 'monthly' });
    expect(created.expense?.next_repeat).toEqual(expect.any(String));
    const id = created.expense!.id;

    const weekly = await client.updateExpense({ id, repeat_interval: 'weekly' });
    expect(rec.form()).toEqual([['repeat_interval', 'weekly']]);
    expect(weekly.expense).toMatchObject({ repeats: true, repeat_interval: 'weekly' });

    const stopped = await client.updateExpense({ id, repeat_interval: 'never' });
    expect(rec.form()).toEqual([['repeat_interval', 'never']]);
    expect(stopped.errors).toEqual({});
    expect(stopped.expense).toMatchObject({ repeats: false, next_repeat: null });
    expect(stopped.expense?.repeat_interval ?? 'never').toBe('never');
  });
});

describe('email_reminder and email_reminder_in_advance', () => {
  it('createExpense sends both after repeat_interval, once, and they are not lost', async () => {
    const { rec, client } = recorded();
    await resetRequests(emu.url);
    const outcome = await client
      .createExpense({
        description: 'Gym',
        cost: '30',
        repeat_interval: 'monthly',
        email_reminder: true,
        email_reminder_in_advance: 3,
        payment: false,
        users: shares(),
      })
      .catch((error: unknown) => error);
    expect(rec.calls).toHaveLength(1);
    expect(rec.form().slice(0, 6)).toEqual([
      ['description', 'Gym'],
      ['cost', '30'],
      ['repeat_interval', 'monthly'],
      ['email_reminder', 'true'],
      ['email_reminder_in_advance', '3'],
      ['payment', 'false'],
    ]);
    await expectAppliedOrRefusedByName(outcome, '/api/v3.0/create_expense', {
      email_reminder: true,
      email_reminder_in_advance: 3,
    });
  });

  it('updateExpense sends only them, false and -1 included', async () => {
    const { rec, client } = recorded();
    const created = await client.createExpense({
      description: 'Phone',
      cost: '30',
      repeat_interval: 'monthly',
      users: shares(),
    });
    const id = created.expense!.id;
    await resetRequests(emu.url);
    const outcome = await client
      .updateExpense({ id, email_reminder: false, email_reminder_in_advance: -1 })
      .catch((error: unknown) => error);
    expect(rec.last().url.pathname).toBe(`/api/v3.0/update_expense/${id}`);
    expect(rec.form()).toEqual([
      ['email_reminder', 'false'],
      ['email_reminder_in_advance', '-1'],
    ]);
    await expectAppliedOrRefusedByName(outcome, `/api/v3.0/update_expense/${id}`, {
      email_reminder: false,
      email_reminder_in_advance: -1,
    });
  });

  it('a number of days the service does not offer fails before sending', async () => {
    const { rec, client } = recorded();
    for (const days of [10, 2.5, -2]) {
      const error = await client
        .updateExpense({ id: 1, email_reminder_in_advance: days as never })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceInputException);
      expect((error as Error).message).toBe(
        `updateExpense: email_reminder_in_advance must be one of -1, 0, 1, 2, 3, 4, 5, 6, 7, 14, got ${days}`,
      );
    }
    expect(rec.calls).toHaveLength(0);
  });
});
