/**
 * The three editions of the interface: what each lacks fails locally with an error naming the
 * edition and sends nothing; what each has behaves as that edition did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ServiceClient,
  ServiceEditionException,
  ServiceException,
} from '../../src/service/index.js';
import {
  type CreatedUser,
  clientFor,
  emulator,
  issueToken,
  type RunningEmulator,
  recorder,
  registerApp,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let annToken: string;
let groupId: number;
let expenseId: number;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
  const app = await registerApp(emu.url);
  annToken = await issueToken(emu.url, ann.user.id, app.client_id);
  const latest = clientFor(emu.url, { apiKey: ann.api_key });
  // The service adds people to a group by user_id only once they are acquainted.
  await latest.createFriend({ email: bob.user.email });
  groupId = (await latest.createGroup({ name: 'Editions', users: [{ user_id: bob.user.id }] }))
    .group!.id;
  expenseId = (
    await latest.createExpense({
      description: 'Shared',
      cost: '8',
      users: [
        { user_id: ann.user.id, paid_share: '8', owed_share: '4' },
        { user_id: bob.user.id, paid_share: '0', owed_share: '4' },
      ],
    })
  ).expense!.id;
  await latest.createComment(expenseId, 'hello');
});

afterAll(async () => {
  await emu?.close();
});

function edition(e: 1 | 2 | 3) {
  const rec = recorder();
  const client = clientFor(emu.url, { oauth2AccessToken: annToken, edition: e, fetch: rec.fetch });
  return { rec, client };
}

type Call = [string, (c: ServiceClient) => Promise<unknown>];

const EDITION_1_MISSING: Call[] = [
  ['updateUser', (c) => c.updateUser({ id: 1, first_name: 'X' })],
  ['updateExpense', (c) => c.updateExpense({ id: 1, description: 'X' })],
  ['deleteExpense', (c) => c.deleteExpense(1)],
  ['getComments', (c) => c.getComments(1)],
  ['createComment', (c) => c.createComment(1, 'x')],
  ['getNotifications', (c) => c.getNotifications()],
];

describe('edition 1', () => {
  for (const [name, run] of EDITION_1_MISSING) {
    it(`lacks ${name}: fails naming the edition, sends nothing`, async () => {
      const { rec, client } = edition(1);
      const error = await run(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceEditionException);
      expect((error as Error).message).toBe(
        `${name} is not available in edition 1 of the service interface`,
      );
      expect(rec.calls).toHaveLength(0);
    });
  }

  it('has no api_key credential', () => {
    expect(() => clientFor(emu.url, { apiKey: ann.api_key, edition: 1 })).toThrow(
      /edition 1 has no api_key/,
    );
  });

  it('sends the friend filter as friendship_id', async () => {
    const { rec, client } = edition(1);
    await client.getExpenses({ friend_id: bob.user.id });
    expect([...rec.last().url.searchParams.entries()]).toEqual([
      ['friendship_id', String(bob.user.id)],
    ]);
  });

  it('has no visible filter', async () => {
    const { rec, client } = edition(1);
    await expect(client.getExpenses({ visible: true })).rejects.toThrow(
      'the visible filter is not available in edition 1 of the service interface',
    );
    expect(rec.calls).toHaveLength(0);
  });

  it('has no Comment resource: getExpense leaves comments out', async () => {
    const { client } = edition(1);
    const expense = await client.getExpense(expenseId);
    expect(expense.id).toBe(expenseId);
    expect(expense).not.toHaveProperty('comments');
    expect((await edition(3).client.getExpense(expenseId)).comments?.length).toBe(1);
  });

  it('has no error object: a refusal (200 with errors) is thrown as ServiceException', async () => {
    const { client } = edition(1);
    const error = await client
      .createExpense({
        description: 'Unbalanced',
        cost: '10',
        users: [
          { user_id: ann.user.id, paid_share: '10', owed_share: '1' },
          { user_id: bob.user.id, paid_share: '0', owed_share: '1' },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceException);
    expect((error as ServiceException).errors?.base?.length).toBeGreaterThan(0);
  });

  it('still reads currencies (as plain currency_code/unit records) and runs what it has', async () => {
    const { client } = edition(1);
    expect(await client.getCurrencies()).toContainEqual({ currency_code: 'EUR', unit: '€' });
    const created = await client.createExpense({
      description: 'Old style',
      cost: '2',
      group_id: groupId,
    });
    expect(created.errors).toEqual({});
    expect(created.expense?.description).toBe('Old style');
  });
});

describe('edition 2', () => {
  it('lacks getNotifications only', async () => {
    const { rec, client } = edition(2);
    await expect(client.getNotifications()).rejects.toThrow(
      'getNotifications is not available in edition 2 of the service interface',
    );
    expect(rec.calls).toHaveLength(0);
    expect((await client.getComments(expenseId)).length).toBe(1);
    expect((await client.updateExpense({ id: expenseId, details: 'e2' })).errors).toEqual({});
  });

  it('has the visible filter, friend_id, and returns refusals as errors', async () => {
    const { rec, client } = edition(2);
    await client.getExpenses({ friend_id: bob.user.id, visible: true });
    expect([...rec.last().url.searchParams.entries()]).toEqual([
      ['friend_id', String(bob.user.id)],
      ['visible', 'true'],
    ]);
    const refused = await client.deleteExpense(987654321).catch((e: unknown) => e);
    // Unknown id: either a 404 or the 200 + success:false convention; never a silent success.
    if (refused instanceof Error) expect(refused).toMatchObject({ http_status: 404 });
    else expect(refused).toMatchObject({ success: false });
  });

  it('accepts an API key', async () => {
    const client = clientFor(emu.url, { apiKey: ann.api_key, edition: 2 });
    expect((await client.getCurrentUser()).id).toBe(ann.user.id);
  });
});

describe('edition 3', () => {
  it('is the default and has everything', async () => {
    const { client } = edition(3);
    expect(clientFor(emu.url).edition).toBe(3);
    expect(Array.isArray(await client.getNotifications())).toBe(true);
  });
});
