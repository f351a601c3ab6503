import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageState } from '../src/index.js';
import { input, modal, type Rig, startRig } from './support.js';

let rig: Rig;
const controlled: string[] = [];
let pageDir: string;

const APP = {
  name: 'Split',
  commands: [{ command: '/split', description: 'Split an expense', usage_hint: '40 lunch @ann' }],
  shortcuts: [{ callback_id: 'split_message', name: 'Split this', type: 'message' as const }],
  scopes: ['commands', 'chat:write', 'users:read', 'users:read.email', 'im:write'],
};

beforeAll(async () => {
  pageDir = await mkdtemp(join(tmpdir(), 'workspace-page-'));
  rig = await startRig(
    (app) => {
      app.command('/split', async ({ ack, command, client }) => {
        if (command.text === 'form') {
          await ack();
          await client.views.open({
            trigger_id: command.trigger_id,
            view: modal('form', [input('amount')], { notify_on_close: true }),
          });
        } else {
          await ack({ text: `Booked ${command.text}` });
          await client.chat.postMessage({
            channel: command.channel_id,
            text: 'Expense',
            blocks: [
              {
                type: 'actions',
                block_id: 'exp',
                elements: [
                  {
                    type: 'button',
                    action_id: 'delete',
                    text: { type: 'plain_text', text: 'Delete' },
                  },
                ],
              },
            ],
          });
        }
      });
      app.view('form', async ({ ack }) => {
        await ack({ response_action: 'errors', errors: { amount: 'Not an amount' } });
      });
      app.view({ callback_id: 'form', type: 'view_closed' }, async ({ ack }) => {
        await ack();
      });
      app.action('delete', async ({ ack, body, client }) => {
        await ack();
        const b = body as { channel: { id: string }; message: { ts: string } };
        await client.chat.delete({ channel: b.channel.id, ts: b.message.ts });
      });
      app.options('group', async ({ ack }) => {
        await ack({ options: [{ text: { type: 'plain_text', text: 'Lisbon trip' }, value: '1' }] });
      });
      app.shortcut('split_message', async ({ ack, shortcut, client }) => {
        await ack();
        await client.views.open({
          trigger_id: shortcut.trigger_id,
          view: modal('form', [input('amount')]),
        });
      });
      app.event('app_home_opened', async ({ event, client }) => {
        await client.views.publish({
          user_id: event.user,
          view: {
            type: 'home',
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Balances' } }],
          },
        });
      });
    },
    {
      app: APP,
      pageDir,
      controls: {
        digest: async () => {
          controlled.push('digest');
          return 2;
        },
      },
    },
  );
});

afterAll(async () => {
  await rig?.close();
  await rm(pageDir, { recursive: true, force: true });
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${rig.ws.url}/workspace-api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function state(as: string): Promise<PageState & { ok: boolean }> {
  const response = await fetch(`${rig.ws.url}/workspace-api/state?as=${as}`);
  return (await response.json()) as PageState & { ok: boolean };
}

describe('page API', () => {
  it('answers the state seen by a person: people, channels, the app and the controls', async () => {
    const seen = await state('U0ANN');
    expect(seen.ok).toBe(true);
    expect(seen.acting).toBe('U0ANN');
    expect(seen.team).toEqual({ id: 'T0001', name: 'Acme' });
    expect(seen.app).toEqual({
      name: 'Split',
      bot_user_id: 'U0BOT0001',
      commands: APP.commands,
      shortcuts: APP.shortcuts,
    });
    expect(seen.people.map((p) => [p.id, p.email, p.is_bot])).toEqual([
      ['U0ANN', 'ann@example.com', false],
      ['U0BOB', 'bob@example.com', false],
    ]);
    expect(seen.channels).toEqual([
      { id: 'C0001', name: 'general', kind: 'channel' },
      { id: 'D0ANN', name: 'Split', kind: 'app' },
    ]);
    expect(seen.controls).toEqual({ digest: true, reset: false });
    expect(seen.home).toBeNull();
    expect(seen.modals).toEqual([]);

    const unknown = await fetch(`${rig.ws.url}/workspace-api/state?as=U0NOBODY`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      ok: false,
      error: 'There is no person "U0NOBODY" in this workspace.',
    });
  });

  it('streams a new version when something changes', async () => {
    const controller = new AbortController();
    const response = await fetch(`${rig.ws.url}/workspace-api/events`, {
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const versions: number[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async () => {
      while (true) {
        const match = /data: (\{[^\n]*\})\n\n/.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          return (JSON.parse(match[1]!) as { version: number }).version;
        }
        const { value } = await reader.read();
        buffer += decoder.decode(value);
      }
    };
    versions.push(await next());
    await post('message', { as: 'U0BOB', channel: 'C0001', text: 'anyone for lunch?' });
    versions.push(await next());
    controller.abort();
    expect(versions[1]).toBeGreaterThan(versions[0]!);
  });

  it('runs a command: the ack is private to its author and the app message is for all', async () => {
    expect(
      await post('message', { as: 'U0ANN', channel: 'C0001', text: '/split 40 lunch' }),
    ).toEqual({
      status: 200,
      body: { ok: true },
    });
    await rig.ws.waitForCall('chat.postMessage');
    const ann = (await state('U0ANN')).messages.C0001!;
    const bob = (await state('U0BOB')).messages.C0001!;
    expect(ann.filter((m) => m.ephemeral).map((m) => m.text)).toEqual(['Booked 40 lunch']);
    expect(bob.filter((m) => m.ephemeral)).toEqual([]);
    const expense = bob.find((m) => m.text === 'Expense')!;
    expect(expense.sender).toEqual({ id: 'U0BOT0001', name: 'Split', is_bot: true });

    expect(
      await post('action', {
        as: 'U0BOB',
        container: { type: 'message', channel: 'C0001', ts: expense.ts },
        action: { type: 'button', action_id: 'delete', block_id: 'exp' },
      }),
    ).toEqual({ status: 200, body: { ok: true } });
    await rig.ws.waitForCall('chat.delete');
    expect((await state('U0BOB')).messages.C0001!.some((m) => m.ts === expense.ts)).toBe(false);
  });

  it('shows a modal, errors from its submission, and closes it', async () => {
    await post('message', { as: 'U0ANN', channel: 'C0001', text: '/split form' });
    await rig.ws.waitForCall('views.open', (c) => c.response.ok === true);
    const [open] = (await state('U0ANN')).modals;
    expect(open).toMatchObject({
      type: 'modal',
      callback_id: 'form',
      title: { type: 'plain_text', text: 'Split' },
    });
    expect((await state('U0BOB')).modals).toEqual([]);

    const submitted = await post('view-submit', {
      as: 'U0ANN',
      view_id: open!.id,
      values: { amount: { value: { type: 'plain_text_input', value: 'x' } } },
    });
    expect(submitted.body).toEqual({ ok: true, errors: { amount: 'Not an amount' } });
    expect((await state('U0ANN')).modals[0]?.errors).toEqual({ amount: 'Not an amount' });

    expect((await post('view-close', { as: 'U0ANN', view_id: open!.id })).body).toEqual({
      ok: true,
    });
    expect((await state('U0ANN')).modals).toEqual([]);
    expect(rig.ws.deliveries.at(-1)).toMatchObject({ kind: 'view_closed', status: 200 });
  });

  it('answers options, sends shortcuts and app_home_opened', async () => {
    const options = await post('options', {
      as: 'U0ANN',
      container: { type: 'message', channel: 'C0001', ts: '1.000001' },
      action_id: 'group',
      block_id: 'g',
      value: 'Lis',
    });
    expect(options.body).toEqual({
      ok: true,
      options: [{ text: { type: 'plain_text', text: 'Lisbon trip' }, value: '1' }],
    });

    await post('message', { as: 'U0BOB', channel: 'C0001', text: 'taxi 30' });
    const source = (await state('U0BOB')).messages.C0001!.at(-1)!;
    rig.ws.clearCalls();
    await post('shortcut', {
      as: 'U0BOB',
      callback_id: 'split_message',
      channel: 'C0001',
      ts: source.ts,
    });
    await rig.ws.waitForCall('views.open', (c) => c.response.ok === true);
    expect((await state('U0BOB')).modals).toHaveLength(1);

    await post('home-opened', { as: 'U0ANN', tab: 'home' });
    await rig.ws.waitForCall('views.publish');
    expect((await state('U0ANN')).home).toMatchObject({
      type: 'home',
      blocks: [{ type: 'section' }],
    });
  });

  it('tells the person about an unknown command and refuses bad requests with a sentence', async () => {
    await post('message', { as: 'U0ANN', channel: 'C0001', text: '/nope' });
    expect((await state('U0ANN')).notices.at(-1)).toMatchObject({
      tone: 'info',
      text: expect.stringMatching(/^\/nope is not a valid command/),
    });
    expect(await post('message', { as: 'U0ANN', text: 'hi' })).toEqual({
      status: 400,
      body: { ok: false, error: '"channel" is required.' },
    });
    expect((await post('view-submit', { as: 'U0ANN', view_id: 'V0NONE' })).body).toEqual({
      ok: false,
      error: 'That view is no longer open.',
    });
  });

  it('calls the controls it was given and answers 404 for the others', async () => {
    expect(await post('control/digest', {})).toEqual({ status: 200, body: { ok: true, sent: 2 } });
    expect(controlled).toEqual(['digest']);
    expect((await post('control/reset', {})).status).toBe(404);
  });

  it('serves the built page, and 503 with a sentence while it is missing', async () => {
    const missing = await fetch(`${rig.ws.url}/`);
    expect(missing.status).toBe(503);
    expect(await missing.text()).toMatch(/not built/);
    await writeFile(join(pageDir, 'index.html'), '<!doctype html><title>Workspace</title>');
    await mkdir(join(pageDir, 'assets'));
    await writeFile(join(pageDir, 'assets', 'app.js'), 'console.log(1)');
    const page = await fetch(`${rig.ws.url}/`);
    expect([page.status, await page.text()]).toEqual([
      200,
      '<!doctype html><title>Workspace</title>',
    ]);
    const script = await fetch(`${rig.ws.url}/assets/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${rig.ws.url}/assets/..%2Findex.html`)).status).toBe(404);
  });
});
