import { connect } from 'node:net';
import {
  type CreatedUser,
  call,
  callJson,
  control,
  createUser,
  raw,
} from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let groupId: number;

beforeAll(async () => {
  emu = await startEmulator();
  ann = await createUser(emu.url, { email: 'ann@example.com', first_name: 'Ann' });
  bob = await createUser(emu.url, { email: 'bob@example.com', first_name: 'Bob' });
  // Nested JSON: flattened to users__0__email and so on.
  const group = await callJson(emu.url, ann.api_key, 'create_group', {
    name: 'Body trip',
    group_type: 'trip',
    simplify_by_default: false,
    users: [{ email: 'bob@example.com', first_name: 'Bob' }],
  });
  expect(group.status).toBe(200);
  groupId = group.body.group.id;
  expect(group.body.group.members.map((m: { id: number }) => m.id).sort()).toEqual(
    [ann.user.id, bob.user.id].sort(),
  );
});
afterAll(() => emu.close());

async function expenseCount(): Promise<number> {
  const reply = await call(emu.url, ann.api_key, 'GET', 'get_expenses', { limit: 0 });
  expect(reply.status).toBe(200);
  return reply.body.expenses.length;
}

describe('request bodies', () => {
  it('accepts JSON with numbers, booleans and nested share lists', async () => {
    const reply = await callJson(emu.url, ann.api_key, 'create_expense', {
      cost: 30,
      description: 'JSON dinner',
      group_id: groupId,
      payment: false,
      users: [
        { user_id: ann.user.id, paid_share: 30, owed_share: 15 },
        { user_id: bob.user.id, paid_share: 0, owed_share: 15 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    const [expense] = reply.body.expenses;
    expect(expense.cost).toBe('30.0');
    expect(expense.payment).toBe(false);
    const owed = Object.fromEntries(
      expense.users.map((u: { user_id: number; owed_share: string }) => [u.user_id, u.owed_share]),
    );
    expect(owed).toEqual({ [ann.user.id]: '15.0', [bob.user.id]: '15.0' });
  });

  it('answers malformed JSON with a specific 400 and changes nothing', async () => {
    const before = await expenseCount();
    const reply = await callJson(emu.url, ann.api_key, 'create_expense', '{"cost": 10,');
    expect(reply.status).toBe(400);
    expect(reply.body.errors.base[0]).toMatch(/^Malformed JSON in request body: /);
    const notObject = await callJson(emu.url, ann.api_key, 'create_expense', '[1,2]');
    expect(notObject.status).toBe(400);
    expect(notObject.body.errors.base).toEqual([
      'Malformed JSON in request body: expected an object',
    ]);
    expect(await expenseCount()).toBe(before);
  });

  it('parses a POST without Content-Type as a form, as Rack does', async () => {
    const reply = await raw(emu.url, '/api/v3.0/create_group', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}` },
      body: new TextEncoder().encode('name=No+type+group&group_type=home'),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.group.name).toBe('No type group');
  });

  it('takes a multipart receipt and serves it back from the expense', async () => {
    const image = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const form = new FormData();
    form.set('cost', '12.50');
    form.set('description', 'Receipt lunch');
    form.set('group_id', String(groupId));
    form.set('split_equally', 'true');
    form.set('receipt', new Blob([image], { type: 'image/png' }), 'déjeuner.png');
    const reply = await raw(emu.url, '/api/v3.0/create_expense', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}` },
      body: form,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    const original: string = reply.body.expenses[0].receipt.original;
    expect(original.startsWith(`${emu.url}/`)).toBe(true);
    expect(decodeURIComponent(original)).toMatch(/\/déjeuner\.png$/);
    const served = await fetch(original, { headers: { authorization: `Bearer ${ann.api_key}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('refuses a 10 MB form body with 413 and leaves the state unchanged', async () => {
    const before = await expenseCount();
    const body = `cost=10&description=${'x'.repeat(10 * 1024 * 1024)}&group_id=${groupId}&split_equally=true`;
    const reply = await raw(emu.url, '/api/v3.0/create_expense', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ann.api_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body,
    });
    expect(reply.status).toBe(413);
    expect(reply.body.errors.base[0]).toMatch(/too large/);
    expect(await expenseCount()).toBe(before);
  });

  it('refuses a 10 MB streamed JSON body and a 10 MB receipt with 413', async () => {
    const before = await expenseCount();
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"description":"'));
        for (let i = 0; i < 10; i++) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const streamed = await raw(emu.url, '/api/v3.0/create_expense', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);

    const form = new FormData();
    form.set('cost', '1');
    form.set('group_id', String(groupId));
    form.set('split_equally', 'true');
    form.set('receipt', new Blob([new Uint8Array(10 * 1024 * 1024)]), 'huge.png');
    const upload = await raw(emu.url, '/api/v3.0/create_expense', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}` },
      body: form,
    });
    expect(upload.status).toBe(413);
    expect(await expenseCount()).toBe(before);
  });

  it('gives up on a body whose client vanished half-way, logging it and changing nothing', async () => {
    const before = await expenseCount();
    await control(emu.url, 'DELETE', 'requests');
    const { port } = new URL(emu.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /api/v3.0/create_expense HTTP/1.1\r\nHost: x\r\n' +
            `Authorization: Bearer ${ann.api_key}\r\n` +
            'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncost=10',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    let total = 0;
    for (let i = 0; i < 50 && total === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      total = (await control(emu.url, 'GET', 'requests')).body.total;
    }
    expect(total).toBe(1);
    expect(await expenseCount()).toBe(before);
  });

  it('refuses a body type the service does not take with 415', async () => {
    const reply = await raw(emu.url, '/api/v3.0/create_group', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}`, 'content-type': 'application/xml' },
      body: '<group><name>x</name></group>',
    });
    expect(reply.status).toBe(415);
    expect(reply.body.errors.base).toEqual(['Unsupported Content-Type: application/xml']);
  });

  it('treats __proto__ and constructor as parameters like any other: unknown, so refused', async () => {
    const form = await raw(emu.url, '/api/v3.0/create_group', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ann.api_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'name=Proto&__proto__=x',
    });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ errors: { base: ['Unrecognized parameter `__proto__`'] } });
    const json = await callJson(
      emu.url,
      ann.api_key,
      'create_group',
      '{"name":"Proto","__proto__":"x"}',
    );
    expect(json.body).toEqual({ errors: { base: ['Unrecognized parameter `__proto__`'] } });
    const query = await raw(emu.url, '/api/v3.0/create_group?constructor=x', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ann.api_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'name=Proto',
    });
    expect(query.body).toEqual({ errors: { base: ['Unrecognized parameter `constructor`'] } });
    const share = await call(emu.url, ann.api_key, 'POST', 'create_expense', {
      cost: '1',
      description: 'Proto',
      users__0__user_id: ann.user.id,
      users__0__paid_share: '1',
      users__0__owed_share: '1',
      users__0____proto__: 'x',
    });
    expect(share.body).toEqual({
      errors: { base: ['Unrecognized parameter `users__0____proto__`'] },
    });
  });

  it('hands unknown parameters to the ledger, which answers 400 for writes', async () => {
    const reply = await call(emu.url, ann.api_key, 'POST', 'create_group', {
      name: 'Stray',
      colour: 'red',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ errors: { base: ['Unrecognized parameter `colour`'] } });
  });
});
