/**
 * What the client puts on the wire is what the service accepts:
 * form encoding, users__N__ flattening, booleans as true/false, no parameter the operation does not
 * know, and updates that send only what changed. Every request still goes to the emulator, which
 * refuses unknown parameters with a 400, so each test also proves the service took it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceInputException, USER_AGENT } from '../../src/service/index.js';
import {
  type CreatedUser,
  clientFor,
  emulator,
  type Recorder,
  type RunningEmulator,
  recorder,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let groupId: number;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
  const setup = clientFor(emu.url, { apiKey: ann.api_key });
  // The service adds people to a group by user_id only once they are acquainted.
  await setup.createFriend({ email: bob.user.email });
  groupId = (await setup.createGroup({ name: 'Wire', users: [{ user_id: bob.user.id }] })).group!
    .id;
});

afterAll(async () => {
  await emu?.close();
});

function recorded(): { rec: Recorder; client: ReturnType<typeof clientFor> } {
  const rec = recorder();
  return { rec, client: clientFor(emu.url, { apiKey: ann.api_key, fetch: rec.fetch }) };
}

describe('request bodies', () => {
  it('createExpense by shares: form-encoded, people flattened as users__N__*, in order', async () => {
    const { rec, client } = recorded();
    const result = await client.createExpense({
      description: 'Dinner & drinks',
      cost: '20.00',
      currency_code: 'USD',
      payment: false,
      users: [
        { user_id: ann.user.id, paid_share: '20.00', owed_share: '2.0' },
        {
          email: 'zoe@example.com',
          first_name: 'Zoe',
          last_name: 'Li',
          paid_share: '0',
          owed_share: '18',
        },
      ],
    });
    expect(result.errors).toEqual({});
    const call = rec.last();
    expect(call.method).toBe('POST');
    expect(call.url.pathname).toBe('/api/v3.0/create_expense');
    expect(call.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(rec.form()).toEqual([
      ['description', 'Dinner & drinks'],
      ['cost', '20.00'],
      ['currency_code', 'USD'],
      ['payment', 'false'],
      ['users__0__user_id', String(ann.user.id)],
      ['users__0__paid_share', '20.00'],
      ['users__0__owed_share', '2.0'],
      ['users__1__email', 'zoe@example.com'],
      ['users__1__first_name', 'Zoe'],
      ['users__1__last_name', 'Li'],
      ['users__1__paid_share', '0'],
      ['users__1__owed_share', '18'],
    ]);
    // RFC 3986 style: spaces as %20, & inside a value escaped.
    expect(call.body).toContain('description=Dinner%20%26%20drinks');
  });

  it('createExpense equal split sends split_equally=true and group_id, nothing else', async () => {
    const { rec, client } = recorded();
    const result = await client.createExpense({
      description: 'Pizza',
      cost: '9',
      group_id: groupId,
    });
    expect(result.errors).toEqual({});
    expect(rec.form()).toEqual([
      ['description', 'Pizza'],
      ['cost', '9'],
      ['group_id', String(groupId)],
      ['split_equally', 'true'],
    ]);
  });

  it('booleans go as lowercase true/false', async () => {
    const { rec, client } = recorded();
    await client.createGroup({ name: 'Flags', simplify_by_default: false });
    expect(rec.form()).toContainEqual(['simplify_by_default', 'false']);
    await client.createExpense({
      description: 'Settle up',
      cost: '5',
      payment: true,
      users: [
        { user_id: ann.user.id, paid_share: '5', owed_share: '0' },
        { user_id: bob.user.id, paid_share: '0', owed_share: '5' },
      ],
    });
    expect(rec.form()).toContainEqual(['payment', 'true']);
    await client.getExpenses({ visible: true, limit: 1 });
    expect(rec.last().url.searchParams.get('visible')).toBe('true');
  });

  it('updateExpense sends only the fields it is given, never split_equally', async () => {
    const { rec, client } = recorded();
    const created = await client.createExpense({
      description: 'Tea',
      cost: '3',
      group_id: groupId,
    });
    const id = created.expense!.id;
    const result = await client.updateExpense({ id, details: 'green tea' });
    expect(result.errors).toEqual({});
    expect(rec.last().url.pathname).toBe(`/api/v3.0/update_expense/${id}`);
    expect(rec.form()).toEqual([['details', 'green tea']]);
  });

  it('updateUser sends the id in the path and only the changed fields in the body', async () => {
    const { rec, client } = recorded();
    const result = await client.updateUser({ id: ann.user.id, default_currency: 'EUR' });
    expect(result.errors).toEqual({});
    expect(rec.last().url.pathname).toBe(`/api/v3.0/update_user/${ann.user.id}`);
    expect(rec.form()).toEqual([['default_currency', 'EUR']]);
  });

  it('createGroup flattens members; addUserToGroup and createFriend use their own field names', async () => {
    const { rec, client } = recorded();
    const created = await client.createGroup({
      name: 'Members',
      group_type: 'other',
      users: [{ user_id: bob.user.id }, { email: 'yan@example.com', first_name: 'Yan' }],
    });
    expect(created.errors).toEqual({});
    expect(rec.form()).toEqual([
      ['name', 'Members'],
      ['group_type', 'other'],
      ['users__0__user_id', String(bob.user.id)],
      ['users__1__email', 'yan@example.com'],
      ['users__1__first_name', 'Yan'],
    ]);
    await client.addUserToGroup(
      { email: 'xia@example.com', first_name: 'Xia', last_name: 'Wu' },
      created.group!.id,
    );
    expect(rec.form()).toEqual([
      ['group_id', String(created.group!.id)],
      ['first_name', 'Xia'],
      ['last_name', 'Wu'],
      ['email', 'xia@example.com'],
    ]);
    await client.createFriend({ email: 'wes@example.com', first_name: 'Wes' });
    expect(rec.form()).toEqual([
      ['user_email', 'wes@example.com'],
      ['user_first_name', 'Wes'],
    ]);
  });

  it('a receipt turns the request into multipart with a file part named receipt', async () => {
    const { rec, client } = recorded();
    const dir = mkdtempSync(join(tmpdir(), 'receipt-'));
    const path = join(dir, 'ticket.jpg');
    writeFileSync(path, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    const result = await client.createExpense({
      description: 'Bus',
      cost: '2',
      group_id: groupId,
      receipt: path,
    });
    expect(result.errors).toEqual({});
    const body = rec.last().body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('description')).toBe('Bus');
    expect(form.get('split_equally')).toBe('true');
    const file = form.get('receipt') as File;
    expect(file.name).toBe('ticket.jpg');
    expect(file.type).toBe('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(readFileSync(path));
  });
});

describe('queries and headers', () => {
  it('getExpenses sends only the filters given, dates as ISO 8601', async () => {
    const { rec, client } = recorded();
    await client.getExpenses({
      group_id: groupId,
      offset: 0,
      limit: 5,
      dated_after: new Date('2026-01-01T00:00:00Z'),
      updated_before: '2026-12-31',
    });
    const url = rec.last().url;
    expect(url.pathname).toBe('/api/v3.0/get_expenses');
    expect([...url.searchParams.entries()]).toEqual([
      ['offset', '0'],
      ['limit', '5'],
      ['group_id', String(groupId)],
      ['dated_after', '2026-01-01T00:00:00.000Z'],
      ['updated_before', '2026-12-31'],
    ]);
  });

  it('getNotifications sends updated_after and limit (0 by default)', async () => {
    const { rec, client } = recorded();
    await client.getNotifications();
    expect(rec.last().url.search).toBe('?limit=0');
    await client.getNotifications('2026-01-01T00:00:00Z', 5);
    expect([...rec.last().url.searchParams.entries()]).toEqual([
      ['updated_after', '2026-01-01T00:00:00Z'],
      ['limit', '5'],
    ]);
  });

  it('getComments passes expense_id in the query; getGroup() asks for group 0', async () => {
    const { rec, client } = recorded();
    const created = await client.createExpense({
      description: 'Snack',
      cost: '1',
      group_id: groupId,
    });
    await client.getComments(created.expense!.id);
    expect(rec.last().url.search).toBe(`?expense_id=${created.expense!.id}`);
    await client.getGroup();
    expect(rec.last().url.pathname).toBe('/api/v3.0/get_group/0');
  });

  it('every request carries the User-Agent with the client version and asks for JSON', async () => {
    const { rec, client } = recorded();
    await client.getCurrentUser();
    expect(rec.last().headers.get('user-agent')).toBe(USER_AGENT);
    expect(rec.last().headers.get('accept')).toBe('application/json');
  });
});

describe('input the wire cannot carry fails before sending', () => {
  const cases: Array<[string, (c: ReturnType<typeof clientFor>) => Promise<unknown>, RegExp]> = [
    [
      'split_equally without group_id',
      (c) => c.createExpense({ description: 'x', cost: '1' }),
      /split_equally needs a group_id/,
    ],
    [
      'split_equally with group 0',
      (c) => c.createExpense({ description: 'x', cost: '1', group_id: 0 }),
      /split_equally needs a group_id/,
    ],
    [
      'split_equally together with users',
      (c) =>
        c.createExpense({
          description: 'x',
          cost: '1',
          split_equally: true,
          users: [{ user_id: 1, paid_share: '1', owed_share: '1' }],
        }),
      /cannot be combined with users/,
    ],
    [
      'split_equally false without users',
      (c) => c.createExpense({ description: 'x', cost: '1', group_id: 5, split_equally: false }),
      /give users/,
    ],
    [
      'a comma decimal',
      (c) => c.createExpense({ description: 'x', cost: '1,34', group_id: 5 }),
      /cost.*decimal/,
    ],
    [
      'three decimals in a share',
      (c) =>
        c.createExpense({
          description: 'x',
          cost: '1',
          users: [{ user_id: 1, paid_share: '1', owed_share: '0.333' }],
        }),
      /owed_share.*2 decimal/,
    ],
    [
      'a person with neither user_id nor e-mail',
      (c) =>
        c.createExpense({
          description: 'x',
          cost: '1',
          users: [{ first_name: 'Nobody', paid_share: '1', owed_share: '1' } as never],
        }),
      /user_id, or an email/,
    ],
    [
      'an empty users list',
      (c) => c.createExpense({ description: 'x', cost: '1', users: [] }),
      /users is empty/,
    ],
    [
      'split_equally on update',
      (c) => c.updateExpense({ id: 1, split_equally: true } as never),
      /does not accept split_equally/,
    ],
    ['an update with nothing in it', (c) => c.updateExpense({ id: 1 }), /nothing to change/],
    ['a non-integer id', (c) => c.getExpense(1.5), /must be an integer/],
    [
      'a missing receipt file',
      (c) =>
        c.createExpense({
          description: 'x',
          cost: '1',
          group_id: 5,
          receipt: '/nonexistent/r.png',
        }),
      /cannot read the receipt/,
    ],
  ];

  for (const [name, run, message] of cases) {
    it(`refuses ${name}`, async () => {
      const { rec, client } = recorded();
      const error = await run(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceInputException);
      expect((error as Error).message).toMatch(message);
      expect(rec.calls).toHaveLength(0);
    });
  }
});
