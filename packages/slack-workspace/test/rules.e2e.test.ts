import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorkspace, type Workspace } from '../src/index.js';
import { callApi, type RawApp, startRawApp } from './raw-app.js';
import { PEOPLE } from './support.js';

const SECRET = 'rules-signing-secret';

let ws: Workspace;
let app: RawApp;
const api = (method: string, args: Record<string, unknown>, token = ws.team.botToken) =>
  callApi(ws.apiUrl, token, method, args);

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
  app = await startRawApp();
  ws.connectApp({ appUrl: app.url, signingSecret: SECRET });
});
afterEach(async () => {
  await ws.close();
  await app.close();
});

/** Runs /split as Ann; answers with what the raw app received. */
async function command(text = '') {
  await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: `/split ${text}`.trim() });
  return app.received.at(-1)!.payload as Record<string, string>;
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const modalView = (blocks: unknown[]) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'Split' },
  blocks,
});

describe('the 3-second ack', () => {
  it('shows Slack timeout notice when the app acks a command late, and nothing when on time', async () => {
    app.answer = () => ({ delayMs: 3_300, text: 'too late' });
    await command('40 lunch');
    // Where the command was typed: the page shows a notice in its own conversation.
    expect(ws.notices('U0ANN').map((n) => [n.text, n.tone, n.channel])).toEqual([
      ['/split failed with the error "operation_timeout"', 'error', 'C0001'],
    ]);
    expect(ws.messages('C0001')).toEqual([]);
    expect(ws.deliveries.at(-1)).toMatchObject({ kind: 'command', timedOut: true, status: 0 });

    app.answer = () => ({ delayMs: 100, text: 'on time' });
    await command('40 lunch');
    expect(ws.notices('U0ANN')).toHaveLength(1);
    expect(ws.messages('C0001').map((m) => m.text)).toEqual(['on time']);
  });

  it('shows dispatch_failed when the app answers with an error status', async () => {
    app.answer = () => ({ status: 500 });
    await command();
    expect(ws.notices('U0ANN').at(-1)?.text).toBe('/split failed with the error "dispatch_failed"');
  });
});

describe('trigger ids', () => {
  it('opens one modal per trigger id, within 3 seconds, and only ids the workspace issued', async () => {
    const first = (await command()).trigger_id!;
    expect(await api('views.open', { trigger_id: first, view: modalView([]) })).toMatchObject({
      ok: true,
    });
    expect(await api('views.open', { trigger_id: first, view: modalView([]) })).toEqual({
      ok: false,
      error: 'exchanged_trigger_id',
    });

    const second = (await command()).trigger_id!;
    ws.advance(3_001);
    expect(await api('views.open', { trigger_id: second, view: modalView([]) })).toEqual({
      ok: false,
      error: 'expired_trigger_id',
    });

    const invented = `${Math.floor(Date.now() / 1000)}.1.${'ab'.repeat(16)}`;
    expect(await api('views.open', { trigger_id: invented, view: modalView([]) })).toEqual({
      ok: false,
      error: 'invalid_trigger_id',
    });
  });
});

describe('response_url', () => {
  it('accepts 5 posts, then answers used_url', async () => {
    const url = (await command()).response_url!;
    const post = (text: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    for (let i = 1; i <= 5; i++) expect((await post(`reply ${i}`)).status).toBe(200);
    const sixth = await post('reply 6');
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: 'used_url' });
    expect(ws.messages('C0001').map((m) => m.text)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `reply ${i}`),
    );
  });

  it('expires after 30 minutes, and refuses URLs it never issued', async () => {
    const url = (await command()).response_url!;
    ws.advance(30 * 60_000 + 1);
    const late = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"x"}',
    });
    expect(await late.json()).toEqual({ ok: false, error: 'expired_url' });
    const made = await fetch(`${ws.url}/response/made-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"x"}',
    });
    expect(made.status).toBe(404);
  });
});

describe('Block Kit limits', () => {
  it('refuses 51 blocks in a message with Slack invalid_blocks shape, accepts 50', async () => {
    const blocks = Array.from({ length: 51 }, (_, i) => section(`line ${i}`));
    const refused = await api('chat.postMessage', { channel: 'C0001', text: 'x', blocks });
    expect(refused).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(refused.errors).toEqual([
      'blocks: no more than 50 items allowed [json-pointer:/blocks]',
    ]);
    expect(refused.response_metadata).toEqual({
      messages: ['[ERROR] blocks: no more than 50 items allowed [json-pointer:/blocks]'],
    });
    const accepted = await api('chat.postMessage', {
      channel: 'C0001',
      text: 'x',
      blocks: blocks.slice(1),
    });
    expect(accepted.ok).toBe(true);
  });

  it('allows 100 blocks in a Home tab and refuses 101 in a modal', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => section(`line ${i}`));
    expect(
      await api('views.publish', { user_id: 'U0ANN', view: { type: 'home', blocks: hundred } }),
    ).toMatchObject({
      ok: true,
    });
    const trigger = (await command()).trigger_id!;
    const refused = await api('views.open', {
      trigger_id: trigger,
      view: modalView([...hundred, section('one more')]),
    });
    expect(refused).toMatchObject({ ok: false, error: 'invalid_arguments' });
  });

  it('refuses long texts, duplicate action_ids in a block, and too many options or elements', async () => {
    const button = (action_id: string, text = 'Go') => ({
      type: 'button',
      action_id,
      text: { type: 'plain_text', text },
    });
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        text: { type: 'plain_text', text: `o${i}` },
        value: `${i}`,
      }));
    const cases: [string, unknown[]][] = [
      ['section text', [section('x'.repeat(3001))]],
      ['duplicate action_id', [{ type: 'actions', elements: [button('a'), button('a')] }]],
      ['button text', [{ type: 'actions', elements: [button('a', 'x'.repeat(76))] }]],
      [
        'static_select options',
        [
          {
            type: 'actions',
            elements: [{ type: 'static_select', action_id: 's', options: options(101) }],
          },
        ],
      ],
      [
        'overflow options',
        [
          {
            type: 'actions',
            elements: [{ type: 'overflow', action_id: 'o', options: options(6) }],
          },
        ],
      ],
      [
        'actions elements',
        [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button(`b${i}`)) }],
      ],
      [
        'context elements',
        [
          {
            type: 'context',
            elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'c' })),
          },
        ],
      ],
    ];
    for (const [what, blocks] of cases) {
      const answer = await api('chat.postMessage', { channel: 'C0001', text: what, blocks });
      expect([what, answer.ok, answer.error]).toEqual([what, false, 'invalid_blocks']);
    }
    const fine = [
      { type: 'actions', elements: [button('a'), button('b')] },
      { type: 'actions', elements: [button('a')] },
    ];
    expect((await api('chat.postMessage', { channel: 'C0001', text: 'ok', blocks: fine })).ok).toBe(
      true,
    );
  });
});

describe('channels and ownership', () => {
  it('refuses channels the bot is not in, unless chat:write.public and the channel is public', async () => {
    ws.addChannel({ id: 'C0OUT', name: 'outside', botIsMember: false });
    ws.addChannel({ id: 'G0SECRET', name: 'secret', botIsMember: false, is_private: true });
    expect(await api('chat.postMessage', { channel: 'C0OUT', text: 'hi' })).toEqual({
      ok: false,
      error: 'not_in_channel',
    });
    ws.team.scopes.push('chat:write.public');
    expect((await api('chat.postMessage', { channel: 'C0OUT', text: 'hi' })).ok).toBe(true);
    expect(await api('chat.postMessage', { channel: 'G0SECRET', text: 'hi' })).toEqual({
      ok: false,
      error: 'not_in_channel',
    });
  });

  it('updates and deletes only the bot’s own messages', async () => {
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'my own words' });
    const ts = ws.messages('C0001').at(-1)!.ts;
    expect(await api('chat.update', { channel: 'C0001', ts, text: 'changed' })).toEqual({
      ok: false,
      error: 'cant_update_message',
    });
    expect(await api('chat.delete', { channel: 'C0001', ts })).toEqual({
      ok: false,
      error: 'cant_delete_message',
    });
    expect(ws.messages('C0001').at(-1)?.text).toBe('my own words');
  });
});

describe('signing', () => {
  it('signs every request with v0 HMAC-SHA256 over the timestamp and exact body', async () => {
    app.answer = () => ({ json: {} });
    await command('40 lunch');
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'hello' });
    await ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    ws.addChannel({ id: 'C0TWO', name: 'two' });
    const posted = await api('chat.postMessage', {
      channel: 'C0TWO',
      text: 'x',
      blocks: [
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }],
        },
      ],
    });
    await ws.act.action({
      as: 'U0BOB',
      container: { type: 'message', channel: 'C0TWO', ts: posted.ts as string },
      action: { type: 'button', action_id: 'go', block_id: 'b' },
    });
    expect(app.received.map((r) => r.headers['content-type'])).toEqual([
      'application/x-www-form-urlencoded',
      'application/json',
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    for (const request of app.received) {
      const timestamp = String(request.headers['x-slack-request-timestamp']);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
      const expected = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${request.body}`).digest('hex')}`;
      expect(request.headers['x-slack-signature']).toBe(expected);
    }
  });
});
