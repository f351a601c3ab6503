import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { input, modal, type Rig, startRig } from './support.js';

const seen: Array<{ kind: string; body: Record<string, unknown> }> = [];
const lastSeen = (kind: string) => [...seen].reverse().find((s) => s.kind === kind)?.body;

let rig: Rig;

beforeAll(async () => {
  rig = await startRig((app) => {
    app.command('/split', async ({ ack, command, respond, client }) => {
      seen.push({ kind: 'command', body: command as unknown as Record<string, unknown> });
      if (command.text === 'form') {
        await ack();
        await client.views.open({
          trigger_id: command.trigger_id,
          view: modal('form', [input('amount')]),
        });
      } else if (command.text === 'public') {
        await ack({ response_type: 'in_channel', text: 'for everyone' });
      } else {
        await ack(`got ${command.text}`);
        await respond({ text: 'booked', response_type: 'ephemeral' });
      }
    });
    app.view('form', async ({ ack, view }) => {
      const amount = view.state.values.amount?.value?.value;
      seen.push({ kind: 'view', body: view as unknown as Record<string, unknown> });
      if (amount === 'bad')
        await ack({ response_action: 'errors', errors: { amount: 'Not an amount' } });
      else if (amount === 'more')
        await ack({ response_action: 'push', view: modal('second', [input('note')]) });
      else if (amount === 'swap')
        await ack({
          response_action: 'update',
          view: modal('form', [input('amount'), input('note')]),
        });
      else if (amount === 'all') await ack({ response_action: 'clear' });
      else await ack();
    });
    app.view('second', async ({ ack }) => {
      await ack();
    });
    app.view({ callback_id: 'closing', type: 'view_closed' }, async ({ ack, body }) => {
      await ack();
      seen.push({ kind: 'closed', body: body as unknown as Record<string, unknown> });
    });
    app.action('pick', async ({ ack, body, respond }) => {
      await ack();
      seen.push({ kind: 'action', body: body as unknown as Record<string, unknown> });
      await respond({ replace_original: true, text: 'picked' });
    });
    app.options('group', async ({ ack, body }) => {
      await ack({
        options: [{ text: { type: 'plain_text', text: `Trip ${body.value}` }, value: '7' }],
      });
    });
    app.shortcut('split_message', async ({ ack, shortcut, client }) => {
      await ack();
      seen.push({ kind: 'shortcut', body: shortcut as unknown as Record<string, unknown> });
      await client.views.open({
        trigger_id: shortcut.trigger_id,
        view: modal('closing', [], { notify_on_close: true }),
      });
    });
    app.event('app_home_opened', async ({ event, client }) => {
      seen.push({ kind: 'home', body: event as unknown as Record<string, unknown> });
      await client.views.publish({
        user_id: event.user,
        view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }] },
      });
    });
    app.message(async ({ message }) => {
      seen.push({ kind: 'message', body: message as unknown as Record<string, unknown> });
    });
  });
});

afterAll(async () => {
  await rig?.close();
});

describe('delivery to the app', () => {
  it('sends a command with a response_url and trigger_id; its ack text becomes a private message', async () => {
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split 40 lunch <@U0BOB|bob>' });
    expect(lastSeen('command')).toMatchObject({
      command: '/split',
      text: '40 lunch <@U0BOB|bob>',
      user_id: 'U0ANN',
      channel_id: 'C0001',
      channel_name: 'general',
    });
    await ws.waitForResponse((r) => r.body.text === 'booked');
    const texts = ws.messages('C0001').map((m) => [m.text, m.ephemeralFor]);
    expect(texts).toEqual([
      ['got 40 lunch <@U0BOB|bob>', 'U0ANN'],
      ['booked', 'U0ANN'],
    ]);
  });

  it('shows an in_channel ack to everyone', async () => {
    const { ws } = rig;
    await ws.act.message({ as: 'U0BOB', channel: 'C0001', text: '/split public' });
    const last = ws.messages('C0001').at(-1);
    expect(last).toMatchObject({ text: 'for everyone', user: ws.team.botUserId });
    expect(last?.ephemeralFor).toBeUndefined();
  });

  it('opens a modal for the person whose trigger it was, and closes it on a plain ack', async () => {
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split form' });
    await ws.waitForCall('views.open', (c) => c.response.ok === true);
    const [open] = ws.modals('U0ANN');
    expect(open?.callback_id).toBe('form');
    expect(ws.modals('U0BOB')).toEqual([]);
    const answer = await ws.act.submitView({
      as: 'U0ANN',
      view_id: open!.id,
      values: { amount: { value: { type: 'plain_text_input', value: '12' } } },
    });
    expect(answer).toEqual({});
    expect(lastSeen('view')).toMatchObject({ id: open!.id, callback_id: 'form' });
    expect(ws.modals('U0ANN')).toEqual([]);
  });

  it('honours response_action errors, update, push and clear on the modal stack', async () => {
    const { ws } = rig;
    ws.clearCalls();
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split form' });
    await ws.waitForCall('views.open', (c) => c.response.ok === true);
    const root = ws.modals('U0ANN')[0]!;
    const submit = (value: string, id = root.id) =>
      ws.act.submitView({
        as: 'U0ANN',
        view_id: id,
        values: { amount: { value: { type: 'plain_text_input', value } } },
      });

    expect(await submit('bad')).toEqual({ errors: { amount: 'Not an amount' } });
    expect(ws.view(root.id)?.errors).toEqual({ amount: 'Not an amount' });

    const hash = ws.view(root.id)!.hash;
    await submit('swap');
    const updated = ws.modals('U0ANN');
    expect(updated.map((v) => v.id)).toEqual([root.id]);
    expect((updated[0]!.view.blocks as unknown[]).length).toBe(2);
    expect(updated[0]!.errors).toBeUndefined();
    expect(updated[0]!.hash).not.toBe(hash);

    await submit('more');
    expect(ws.modals('U0ANN').map((v) => v.callback_id)).toEqual(['form', 'second']);
    await submit('all');
    expect(ws.modals('U0ANN')).toEqual([]);
  });

  it('sends block_actions for a message with a response_url that replaces the original', async () => {
    const { ws } = rig;
    const posted = await fetch(`${ws.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.team.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C0001',
        text: 'choose',
        blocks: [
          {
            type: 'actions',
            block_id: 'b',
            elements: [
              {
                type: 'button',
                action_id: 'pick',
                text: { type: 'plain_text', text: 'Pick' },
                value: '1',
              },
            ],
          },
        ],
      }),
    }).then((r) => r.json() as Promise<{ ts: string }>);
    await ws.act.action({
      as: 'U0BOB',
      container: { type: 'message', channel: 'C0001', ts: posted.ts },
      action: { type: 'button', action_id: 'pick', block_id: 'b', value: '1' },
    });
    expect(lastSeen('action')).toMatchObject({
      type: 'block_actions',
      user: { id: 'U0BOB' },
      container: { type: 'message', message_ts: posted.ts, channel_id: 'C0001' },
      actions: [{ action_id: 'pick', value: '1' }],
    });
    await ws.waitForResponse((r) => r.body.text === 'picked');
    const message = ws.messages('C0001').find((m) => m.ts === posted.ts);
    expect(message).toMatchObject({ text: 'picked', edited: true });
  });

  it('answers a block_suggestion with the app options', async () => {
    const answer = await rig.ws.act.options({
      as: 'U0ANN',
      container: { type: 'message', channel: 'C0001', ts: '1.000001' },
      action_id: 'group',
      block_id: 'g',
      value: 'Lis',
    });
    expect(answer).toEqual({
      options: [{ text: { type: 'plain_text', text: 'Trip Lis' }, value: '7' }],
    });
  });

  it('sends a message shortcut, and view_closed when a notify_on_close modal is closed', async () => {
    const { ws } = rig;
    ws.clearCalls();
    const mine = await ws.act.message({ as: 'U0BOB', channel: 'C0001', text: 'taxi 30' });
    expect(mine).toBeUndefined();
    const source = ws.messages('C0001').at(-1)!;
    await ws.act.shortcut({
      as: 'U0ANN',
      callback_id: 'split_message',
      channel: 'C0001',
      ts: source.ts,
    });
    expect(lastSeen('shortcut')).toMatchObject({
      type: 'message_action',
      message_ts: source.ts,
      message: { text: 'taxi 30', user: 'U0BOB' },
      channel: { id: 'C0001' },
    });
    await ws.waitForCall('views.open', (c) => c.response.ok === true);
    const [open] = ws.modals('U0ANN');
    await ws.act.closeView({ as: 'U0ANN', view_id: open!.id });
    expect(ws.modals('U0ANN')).toEqual([]);
    expect(lastSeen('closed')).toMatchObject({ type: 'view_closed', view: { id: open!.id } });
  });

  it('sends app_home_opened with the DM channel; the published Home is the person’s', async () => {
    const { ws } = rig;
    await ws.act.homeOpened({ as: 'U0BOB', tab: 'home' });
    expect(lastSeen('home')).toMatchObject({
      type: 'app_home_opened',
      user: 'U0BOB',
      tab: 'home',
      channel: 'D0BOB',
    });
    await ws.waitForCall('views.publish');
    expect(ws.homeView('U0BOB')?.type).toBe('home');
    await ws.act.homeOpened({ as: 'U0BOB', tab: 'messages' });
    expect(lastSeen('home')).toMatchObject({
      tab: 'messages',
      view: { id: ws.homeView('U0BOB')!.id },
    });
  });

  it('sends message events for messages people post where the bot is', async () => {
    await rig.ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: 'hello app' });
    expect(lastSeen('message')).toMatchObject({
      channel: 'D0ANN',
      channel_type: 'im',
      user: 'U0ANN',
      text: 'hello app',
    });
    const kinds = rig.ws.deliveries.map((d) => [d.kind, d.status]);
    expect(kinds).toContainEqual(['event', 200]);
  });
});
