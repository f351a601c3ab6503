import { ErrorCode, LogLevel, WebClient, WebClientEvent } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';

let slack: FakeSlack;
let client: WebClient;

// The client logs every platform error it receives; these tests provoke them on purpose.
const quiet = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};

function clientFor(token: string, options: ConstructorParameters<typeof WebClient>[1] = {}) {
  return new WebClient(token, {
    slackApiUrl: slack.url,
    retryConfig: { retries: 0 },
    logger: quiet,
    ...options,
  });
}

beforeEach(async () => {
  slack = await startFakeSlack();
  slack.addUser({
    id: 'U0ANN',
    name: 'ann',
    real_name: 'Ann Example',
    email: 'ann@example.com',
    tz: 'Europe/Paris',
  });
  client = clientFor(slack.team.botToken);
});
afterEach(async () => {
  await slack.close();
});

describe('fake Slack Web API', () => {
  it('answers auth.test for the bot token and records the call', async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({
      ok: true,
      team_id: 'T0001',
      user_id: 'U0BOT0001',
      bot_id: 'B0BOT0001',
    });
    expect(slack.calls).toHaveLength(1);
    expect(slack.calls[0]).toMatchObject({ method: 'auth.test', token: 'xoxb-fake-bot-token' });
  });

  it('rejects a wrong token with HTTP 200 ok:false invalid_auth', async () => {
    const error = await clientFor('xoxb-wrong')
      .auth.test()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.PlatformError, data: { error: 'invalid_auth' } });
    expect(slack.calls[0]!.status).toBe(200);
  });

  it('decodes the JSON-stringified form fields that the client sends', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Lunch* 40.00' } }];
    const result = await client.chat.postMessage({ channel: 'C0001', text: 'Lunch', blocks });
    expect(result.ts).toMatch(/^\d+\.\d{6}$/);
    expect(result.channel).toBe('C0001');
    const call = await slack.waitForCall('chat.postMessage');
    expect(call.contentType).toBe('application/x-www-form-urlencoded');
    expect(call.args).toMatchObject({ channel: 'C0001', text: 'Lunch', blocks });
    expect(slack.messages('C0001')).toMatchObject([{ text: 'Lunch', blocks }]);
  });

  it('accepts JSON bodies as well', async () => {
    const response = await fetch(`${slack.url}chat.postMessage`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${slack.team.botToken}`,
        'content-type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({ channel: 'C0001', text: 'hello' }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: 'C0001' });
  });

  it('gives strictly increasing message timestamps', async () => {
    const ts: string[] = [];
    for (let i = 0; i < 5; i++) {
      ts.push((await client.chat.postMessage({ channel: 'C0001', text: `m${i}` })).ts!);
    }
    const sorted = [...ts].sort((a, b) => Number(a) - Number(b));
    expect(new Set(ts).size).toBe(5);
    expect(ts).toEqual(sorted);
  });

  it('reports Slack errors for unknown channels, missing text and oversized blocks', async () => {
    const codes = await Promise.all([
      client.chat.postMessage({ channel: 'C9999', text: 'x' }).catch((e) => e.data.error),
      client.chat.postMessage({ channel: 'C0001', text: '' }).catch((e) => e.data.error),
      client.chat
        .postMessage({
          channel: 'C0001',
          text: 'x',
          blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })),
        })
        .catch((e) => e.data.error),
      client.chat
        .postMessage({
          channel: 'C0001',
          text: 'x',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'a'.repeat(3001) } }],
        })
        .catch((e) => e.data.error),
    ]);
    expect(codes).toEqual(['channel_not_found', 'no_text', 'invalid_blocks', 'invalid_blocks']);
  });

  it('refuses channels the bot is not in', async () => {
    slack.addChannel({ id: 'C0PRIV', name: 'secret', botIsMember: false });
    const error = await client.chat.postMessage({ channel: 'C0PRIV', text: 'x' }).catch((e) => e);
    expect(error.data.error).toBe('not_in_channel');
  });

  it('posts ephemerals, updates and deletes bot messages', async () => {
    const eph = await client.chat.postEphemeral({ channel: 'C0001', user: 'U0ANN', text: 'psst' });
    expect(eph.message_ts).toMatch(/^\d+\.\d{6}$/);
    const missing = await client.chat
      .postEphemeral({ channel: 'C0001', user: 'U0NOBODY', text: 'x' })
      .catch((e) => e.data.error);
    expect(missing).toBe('user_not_found');
    const posted = await client.chat.postMessage({ channel: 'C0001', text: 'v1' });
    const updated = await client.chat.update({ channel: 'C0001', ts: posted.ts!, text: 'v2' });
    expect(updated).toMatchObject({ ok: true, ts: posted.ts, text: 'v2' });
    expect(slack.messages('C0001').find((m) => m.ts === posted.ts)?.text).toBe('v2');
    await client.chat.delete({ channel: 'C0001', ts: posted.ts! });
    const gone = await client.chat
      .update({ channel: 'C0001', ts: posted.ts!, text: 'v3' })
      .catch((e) => e.data.error);
    expect(gone).toBe('message_not_found');
  });

  it('returns users with time zone, offset and e-mail, and finds them by e-mail', async () => {
    const { user } = await client.users.info({ user: 'U0ANN' });
    expect(user).toMatchObject({
      id: 'U0ANN',
      team_id: 'T0001',
      name: 'ann',
      real_name: 'Ann Example',
      tz: 'Europe/Paris',
      profile: { email: 'ann@example.com', real_name: 'Ann Example' },
    });
    expect([3600, 7200]).toContain(user?.tz_offset);
    const found = await client.users.lookupByEmail({ email: 'ANN@example.com' });
    expect(found.user?.id).toBe('U0ANN');
    const errors = await Promise.all([
      client.users.info({ user: 'U0NOBODY' }).catch((e) => e.data.error),
      client.users.lookupByEmail({ email: 'x@example.com' }).catch((e) => e.data.error),
    ]);
    expect(errors).toEqual(['user_not_found', 'users_not_found']);
  });

  it('hides e-mails and refuses lookups without users:read.email', async () => {
    const team = slack.addTeam({ id: 'T0002', scopes: ['users:read', 'chat:write'] });
    slack.addUser({ id: 'U0BOB', team_id: 'T0002', name: 'bob', email: 'bob@example.com' });
    const other = clientFor(team.botToken);
    const { user } = await other.users.info({ user: 'U0BOB' });
    expect(user?.profile?.email).toBeUndefined();
    const error = await other.users.lookupByEmail({ email: 'bob@example.com' }).catch((e) => e);
    expect(error.data).toMatchObject({ error: 'missing_scope', needed: 'users:read.email' });
  });

  it('opens one DM channel per user, and posts to a user id land there', async () => {
    const first = await client.conversations.open({ users: 'U0ANN' });
    const second = await client.conversations.open({ users: 'U0ANN' });
    expect(first.channel?.id).toMatch(/^D/);
    expect(second).toMatchObject({ channel: { id: first.channel?.id }, already_open: true });
    await client.chat.postMessage({ channel: 'U0ANN', text: 'Connected as Ann' });
    expect(slack.messages(first.channel!.id!)).toMatchObject([{ text: 'Connected as Ann' }]);
    expect(slack.messages('U0ANN')).toHaveLength(1);
  });

  it('accepts posts to the DM id that app_home_opened carries, before conversations.open', async () => {
    const result = await client.chat.postMessage({ channel: 'D0ANN', text: 'Welcome' });
    expect(result.channel).toBe('D0ANN');
    expect((await client.conversations.open({ users: 'U0ANN' })).channel?.id).toBe('D0ANN');
  });

  it('opens, pushes, updates and publishes views with ids and changing hashes', async () => {
    const modal = {
      type: 'modal' as const,
      callback_id: 'split_modal',
      title: { type: 'plain_text' as const, text: 'Split an expense' },
      submit: { type: 'plain_text' as const, text: 'Save' },
      private_metadata: '{"c":"C0001"}',
      blocks: [
        {
          type: 'input',
          block_id: 'amount',
          label: { type: 'plain_text' as const, text: 'Amount' },
          element: { type: 'plain_text_input', action_id: 'value' },
        },
      ],
    };
    const opened = await client.views.open({ trigger_id: slack.issueTrigger(), view: modal });
    expect(opened.view).toMatchObject({
      id: expect.stringMatching(/^V/),
      callback_id: 'split_modal',
      private_metadata: '{"c":"C0001"}',
      hash: expect.any(String),
    });
    const id = opened.view!.id!;
    const updated = await client.views.update({
      view_id: id,
      hash: opened.view!.hash!,
      view: modal,
    });
    expect(updated.view?.hash).not.toBe(opened.view?.hash);
    const stale = await client.views
      .update({ view_id: id, hash: opened.view!.hash!, view: modal })
      .catch((e) => e.data.error);
    expect(stale).toBe('hash_conflict');
    await client.views.push({ trigger_id: slack.issueTrigger(), view: modal });
    await client.views.push({ trigger_id: slack.issueTrigger(), view: modal });
    const limit = await client.views
      .push({ trigger_id: slack.issueTrigger(), view: modal })
      .catch((e) => e.data.error);
    expect(limit).toBe('push_limit_reached');

    const home = {
      type: 'home' as const,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }],
    };
    const published = await client.views.publish({ user_id: 'U0ANN', view: home });
    expect(published.view?.type).toBe('home');
    expect(slack.homeView('U0ANN')?.view).toEqual(home);
  });

  it('makes trigger ids single-use and expire after 3 seconds', async () => {
    const modal = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'T' },
      blocks: [],
    };
    const trigger = slack.issueTrigger();
    await client.views.open({ trigger_id: trigger, view: modal });
    const reuse = await client.views
      .open({ trigger_id: trigger, view: modal })
      .catch((e) => e.data.error);
    expect(reuse).toBe('exchanged_trigger_id');
    const late = slack.issueTrigger();
    slack.advance(3_001);
    const expired = await client.views
      .open({ trigger_id: late, view: modal })
      .catch((e) => e.data.error);
    expect(expired).toBe('expired_trigger_id');
    const invalid = await client.views
      .open({ trigger_id: 'nope', view: modal })
      .catch((e) => e.data.error);
    expect(invalid).toBe('invalid_trigger_id');
  });

  it('refuses views that break Block Kit limits', async () => {
    const error = await client.views
      .open({
        trigger_id: slack.issueTrigger(),
        view: {
          type: 'modal',
          title: { type: 'plain_text', text: 'A title that is far too long' },
          blocks: [],
        },
      })
      .catch((e) => e.data);
    expect(error.error).toBe('invalid_arguments');
    expect(error.response_metadata.messages[0]).toContain('/view/title/text');
  });

  it('answers 429 with Retry-After on demand and the client retries after it', async () => {
    slack.rateLimit('chat.postMessage', { retryAfter: 0, times: 1 });
    const retrying = clientFor(slack.team.botToken, {
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });
    const limited: number[] = [];
    retrying.on(WebClientEvent.RATE_LIMITED, (seconds: number) => limited.push(seconds));
    const result = await retrying.chat.postMessage({ channel: 'C0001', text: 'after a pause' });
    expect(result.ok).toBe(true);
    expect(limited).toEqual([0]);
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('rejects at once with the rate-limit error when asked to', async () => {
    slack.rateLimit('users.info', { retryAfter: 7 });
    const strict = clientFor(slack.team.botToken, { rejectRateLimitedCalls: true });
    const error = await strict.users.info({ user: 'U0ANN' }).catch((e) => e);
    expect(error).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });
  });

  it('fails a method with a chosen error a chosen number of times', async () => {
    slack.fail('chat.postMessage', 'is_archived', 2);
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        await client.chat
          .postMessage({ channel: 'C0001', text: 'x' })
          .then(() => 'ok')
          .catch((e) => e.data.error),
      );
    }
    expect(outcomes).toEqual(['is_archived', 'is_archived', 'ok']);
  });

  it('answers HTTP errors on demand', async () => {
    slack.httpError('auth.test', 503);
    const error = await client.auth.test().catch((e) => e);
    expect(error).toMatchObject({ code: ErrorCode.HTTPError, statusCode: 503 });
  });

  it('records response_url posts, limits them to 5 and applies replace/delete_original', async () => {
    const posted = await client.chat.postMessage({ channel: 'C0001', text: 'original' });
    const url = slack.responseUrl({ channel: 'C0001', ts: posted.ts! });
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ text: 'only you', response_type: 'ephemeral' })).status).toBe(200);
    await post({ text: 'replaced', replace_original: true });
    expect(slack.messages('C0001').find((m) => m.ts === posted.ts)?.text).toBe('replaced');
    await post({ delete_original: true });
    expect(slack.messages('C0001').find((m) => m.ts === posted.ts)).toBeUndefined();
    await post({ text: '4' });
    await post({ text: '5' });
    const sixth = await post({ text: '6' });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toMatchObject({ ok: false, error: 'used_url' });
    const first = await slack.waitForResponse((r) => r.body.text === 'only you');
    expect(first.body.response_type).toBe('ephemeral');
    expect(slack.responses).toHaveLength(6);
  });

  it('shows response_url replies in the channel: ephemeral for the user unless in_channel', async () => {
    const url = slack.responseUrl({ channel: 'C0001', user: 'U0ANN' });
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post({ text: 'Connect your account first' });
    await post({ text: 'Ann paid 40.00', response_type: 'in_channel' });
    expect(slack.messages('C0001')).toMatchObject([
      { text: 'Connect your account first', ephemeralFor: 'U0ANN' },
      { text: 'Ann paid 40.00' },
    ]);
    expect(slack.messages('C0001')[1]!.ephemeralFor).toBeUndefined();
  });

  it('expires a response_url after 30 minutes', async () => {
    const url = slack.responseUrl();
    slack.advance(30 * 60_000 + 1);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'late' }),
    });
    expect(response.status).toBe(404);
  });

  it('serves file metadata and the file itself only with the bot token', async () => {
    slack.addFile({
      id: 'F0RECEIPT',
      name: 'receipt.png',
      mimetype: 'image/png',
      content: 'PNGDATA',
      user: 'U0ANN',
    });
    const { file } = await client.files.info({ file: 'F0RECEIPT' });
    expect(file).toMatchObject({
      id: 'F0RECEIPT',
      name: 'receipt.png',
      mimetype: 'image/png',
      size: 7,
    });
    const withToken = await fetch(file!.url_private_download!, {
      headers: { authorization: `Bearer ${slack.team.botToken}` },
    });
    expect(withToken.headers.get('content-type')).toBe('image/png');
    expect(await withToken.text()).toBe('PNGDATA');
    const withoutToken = await fetch(file!.url_private_download!);
    expect(withoutToken.headers.get('content-type')).toContain('text/html');
  });

  it('schedules messages within 120 days and refuses the past', async () => {
    const postAt = Math.floor(slack.now() / 1000) + 3600;
    const result = await client.chat.scheduleMessage({
      channel: 'U0ANN',
      post_at: postAt,
      text: 'daily',
    });
    expect(result.scheduled_message_id).toMatch(/^Q/);
    expect(slack.scheduled()).toHaveLength(1);
    const past = await client.chat
      .scheduleMessage({ channel: 'U0ANN', post_at: postAt - 7200, text: 'x' })
      .catch((e) => e.data.error);
    expect(past).toBe('time_in_past');
  });

  it('waits for a call that has not happened yet', async () => {
    const waiting = slack.waitForCall('chat.postMessage', (c) => c.args.text === 'later', 1_000);
    setTimeout(() => {
      void client.chat.postMessage({ channel: 'C0001', text: 'later' });
    }, 20);
    expect((await waiting).args.channel).toBe('C0001');
    await expect(slack.waitForCall('views.open', undefined, 50)).rejects.toThrow(/timed out/);
  });

  it('answers unknown methods like Slack does', async () => {
    const error = await client.apiCall('nope.nothing').catch((e) => e);
    expect(error.data.error).toBe('unknown_method');
  });
});
