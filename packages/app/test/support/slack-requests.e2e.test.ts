import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import {
  blockActions,
  FORM,
  type SlackSender,
  send,
  signature,
  signedPost,
  slackSender,
  slashCommand,
  urlVerification,
  viewPayload,
} from './slack-requests.js';

const SIGNING_SECRET = 'test-signing-secret';

let slack: FakeSlack;
let app: App;
let appUrl: string;
let sender: SlackSender;
const seen: Array<{ kind: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  // The fake must be up before the App: its constructor calls auth.test at once.
  slack = await startFakeSlack();
  slack.addUser({ id: 'U0ANN', name: 'ann', real_name: 'Ann Example', email: 'ann@example.com' });
  app = new App({
    token: slack.team.botToken,
    signingSecret: SIGNING_SECRET,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.url, retryConfig: { retries: 0 } },
    // Unacknowledged requests answer 404 after this; short so a broken test fails fast.
    unhandledRequestTimeoutMillis: 500,
  } as ConstructorParameters<typeof App>[0]);

  app.command('/split', async ({ ack, command, respond }) => {
    await ack();
    seen.push({ kind: 'command', body: command as unknown as Record<string, unknown> });
    await respond({ text: `you said ${command.text}`, response_type: 'ephemeral' });
  });
  app.action('undo', async ({ ack, body }) => {
    await ack();
    seen.push({ kind: 'action', body: body as unknown as Record<string, unknown> });
  });
  app.view('split_modal', async ({ ack, view, body }) => {
    const amount = view.state.values.amount?.value?.value;
    if (amount === 'bad') {
      await ack({ response_action: 'errors', errors: { amount: 'Not an amount' } });
    } else {
      await ack();
    }
    seen.push({ kind: 'view', body: body as unknown as Record<string, unknown> });
  });
  app.view({ callback_id: 'split_modal', type: 'view_closed' }, async ({ ack, body }) => {
    await ack();
    seen.push({ kind: 'view_closed', body: body as unknown as Record<string, unknown> });
  });
  app.shortcut('split_message', async ({ ack, shortcut, client }) => {
    await ack();
    seen.push({ kind: 'shortcut', body: shortcut as unknown as Record<string, unknown> });
    await client.views.open({
      trigger_id: shortcut.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'split_modal',
        title: { type: 'plain_text', text: 'Split this' },
        blocks: [],
      },
    });
  });
  app.options('group', async ({ ack, body }) => {
    seen.push({ kind: 'options', body: body as unknown as Record<string, unknown> });
    await ack({
      options: [{ text: { type: 'plain_text', text: `Trip ${body.value}` }, value: '7' }],
    });
  });
  app.event('app_home_opened', async ({ event }) => {
    seen.push({ kind: 'home', body: event as unknown as Record<string, unknown> });
  });

  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as { address(): AddressInfo };
  appUrl = `http://127.0.0.1:${server.address().port}/slack/events`;
  sender = slackSender({ appUrl, signingSecret: SIGNING_SECRET, fake: slack });
});

afterAll(async () => {
  await app?.stop();
  await slack?.close();
});

function lastSeen(kind: string) {
  return [...seen].reverse().find((s) => s.kind === kind)?.body;
}

describe('signed requests into a real Bolt app', () => {
  it('delivers a slash command whose respond() reaches the fake response_url', async () => {
    const response = await sender.command({ text: '40 lunch <@U0BOB|bob>' });
    expect(response.status).toBe(200);
    expect(lastSeen('command')).toMatchObject({
      command: '/split',
      text: '40 lunch <@U0BOB|bob>',
      team_id: 'T0001',
      user_id: 'U0ANN',
      channel_id: 'C0001',
      trigger_id: expect.stringMatching(/^\d+\.\d+\.[0-9a-f]+$/),
    });
    const reply = await slack.waitForResponse(
      (r) => r.body.text === 'you said 40 lunch <@U0BOB|bob>',
    );
    expect(reply.body.response_type).toBe('ephemeral');
    expect(reply.contentType).toContain('application/json');
    expect(slack.messages('C0001').at(-1)).toMatchObject({
      text: 'you said 40 lunch <@U0BOB|bob>',
      ephemeralFor: 'U0ANN',
    });
  });

  it('delivers a button click on a message', async () => {
    const response = await sender.blockActions({
      actions: { action_id: 'undo', value: '{"e":123}' },
      message: { ts: '1700000000.000100', text: 'Lunch 40.00' },
    });
    expect(response.status).toBe(200);
    expect(lastSeen('action')).toMatchObject({
      type: 'block_actions',
      actions: [{ action_id: 'undo', value: '{"e":123}', type: 'button' }],
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0001' },
      channel: { id: 'C0001' },
      response_url: expect.stringContaining(slack.origin),
    });
  });

  it('delivers a view submission with state values and private metadata', async () => {
    const response = await sender.viewSubmission({
      callback_id: 'split_modal',
      private_metadata: '{"channel":"C0001"}',
      values: {
        amount: { value: { type: 'plain_text_input', value: '40' } },
        date: { pick: { type: 'datepicker', selected_date: '2026-11-20' } },
      },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const body = lastSeen('view') as {
      view: { state: { values: Record<string, unknown> }; private_metadata: string };
    };
    expect(body.view.private_metadata).toBe('{"channel":"C0001"}');
    expect(body.view.state.values).toEqual({
      amount: { value: { type: 'plain_text_input', value: '40' } },
      date: { pick: { type: 'datepicker', selected_date: '2026-11-20' } },
    });
  });

  it('returns a view submission ack with errors as the JSON response', async () => {
    const response = await sender.viewSubmission({
      callback_id: 'split_modal',
      values: { amount: { value: { type: 'plain_text_input', value: 'bad' } } },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      response_action: 'errors',
      errors: { amount: 'Not an amount' },
    });
  });

  it('delivers view_closed', async () => {
    const response = await sender.viewClosed({ callback_id: 'split_modal', is_cleared: true });
    expect(response.status).toBe(200);
    expect(lastSeen('view_closed')).toMatchObject({ type: 'view_closed', is_cleared: true });
  });

  it('delivers a message shortcut whose trigger id opens a modal on the fake', async () => {
    const response = await sender.messageShortcut({
      message: { ts: '1700000000.000200', text: 'Taxi 23,50 €', user: 'U0BOB' },
    });
    expect(response.status).toBe(200);
    expect(lastSeen('shortcut')).toMatchObject({
      type: 'message_action',
      callback_id: 'split_message',
      message: { text: 'Taxi 23,50 €', ts: '1700000000.000200', user: 'U0BOB' },
      channel: { id: 'C0001' },
    });
    const open = await slack.waitForCall('views.open');
    expect(open.response.ok).toBe(true);
    expect(open.args.team_id).toBe('T0001');
  });

  it('answers an options request with the listener options', async () => {
    const response = await sender.blockSuggestion({
      action_id: 'group',
      value: 'Lis',
      view: viewPayload({ callback_id: 'split_modal' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      options: [{ text: { type: 'plain_text', text: 'Trip Lis' }, value: '7' }],
    });
    expect(lastSeen('options')).toMatchObject({ type: 'block_suggestion', value: 'Lis' });
  });

  it('delivers app_home_opened events', async () => {
    const response = await sender.appHomeOpened({ user: 'U0ANN' });
    expect(response.status).toBe(200);
    await expect
      .poll(() => lastSeen('home'))
      .toMatchObject({ type: 'app_home_opened', user: 'U0ANN', tab: 'home' });
  });

  it('echoes a signed url_verification challenge', async () => {
    const response = await sender.urlVerification('abc123');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: 'abc123' });
  });

  it('is refused with 401 when the signature is wrong, the body tampered or headers missing', async () => {
    const request = slashCommand({ text: 'sneaky' });
    const before = seen.length;
    const wrongSecret = await send(appUrl, 'another-secret', request);
    const tampered = await signedPost(appUrl, SIGNING_SECRET, request.body, FORM, {
      signature: signature(SIGNING_SECRET, Math.floor(Date.now() / 1000), `${request.body}x`),
    });
    const unsigned = await send(appUrl, SIGNING_SECRET, request, { unsigned: true });
    const unsignedChallenge = await send(appUrl, SIGNING_SECRET, urlVerification('x'), {
      unsigned: true,
    });
    expect([
      wrongSecret.status,
      tampered.status,
      unsigned.status,
      unsignedChallenge.status,
    ]).toEqual([401, 401, 401, 401]);
    expect(seen.length).toBe(before);
  });

  it('is refused with 401 when the timestamp is more than 5 minutes old', async () => {
    const stale = await send(appUrl, SIGNING_SECRET, slashCommand(), {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(stale.status).toBe(401);
  });

  it('is refused with 400 when the form carries a charset suffix', async () => {
    const request = blockActions({ actions: { action_id: 'undo' } });
    const response = await signedPost(
      appUrl,
      SIGNING_SECRET,
      request.body,
      `${FORM}; charset=utf-8`,
    );
    expect(response.status).toBe(400);
  });
});
