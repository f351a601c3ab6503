/**
 * When things go wrong: forged or stale requests, people not connected, revoked tokens, a service
 * that fails, answers late or refuses, repeated deliveries, and Undo (pressed once or twice).
 */

import { request as httpRequest } from 'node:http';
import { call, control, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  connectButtonUrl,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';
import { signature, slashCommand } from '../../support/slack-requests.js';
import { voices } from '../../support/voice-support.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  // A short service timeout keeps the late-answer cases quick; the wait before reconciling is
  // kept, as in production, so that a write the service is still finishing can be found.
  h = await startHarness({ delayProxy: true, serviceTimeoutMs: 500, reconcileDelayMs: 300 });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

async function creates(): Promise<number> {
  return (await h.serviceCounts())['POST /api/v3.0/create_expense'] ?? 0;
}

async function annExpenses(): Promise<Loose[]> {
  return (await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0, visible: true }))
    .body.expenses;
}

async function fault(body: Record<string, unknown>) {
  const reply = await control(h.emu.url, 'POST', 'faults', body);
  expect(reply.status).toBe(201);
}

describe('requests that are not from Slack', () => {
  // Timestamps are taken when each test runs: taken when the table is read, a slow start of the
  // harness would leave "just over 5 minutes ahead" under 5 minutes by the time it is sent.
  const now = () => Math.floor(Date.now() / 1000);
  it.each([
    ['a wrong signature', () => ({ signature: `v0=${'0'.repeat(64)}` })],
    ['a stale timestamp', () => ({ timestamp: now() - 301 })],
    ['a timestamp 10 minutes ahead', () => ({ timestamp: now() + 600 })],
    ['a timestamp just over 5 minutes ahead', () => ({ timestamp: now() + 302 })],
    ['no signature at all', () => ({ unsigned: true })],
  ])('answers 401 to %s, with no effect', async (_name, signing) => {
    const signed = signing();
    const before = await creates();
    const responseUrl = h.slack.responseUrl({ id: `forged-${Math.random()}` });
    const request = slashCommand({ text: '40 lunch <@U0BOB>', response_url: responseUrl });
    const reply = await h.sender.send(request, signed);
    expect(reply.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await creates()).toBe(before);
    expect(h.slack.responses.filter((p) => responseUrl.endsWith(p.id))).toEqual([]);
  });

  it('signs with the right secret in the harness (control for the cases above)', async () => {
    const reply = await h.sender.send(
      slashCommand({ text: 'help', response_url: h.slack.responseUrl() }),
    );
    expect(reply.status).toBe(200);
    expect(SIGNING_SECRET).not.toBe('');
  });

  /**
   * Posts `body` with `headers` as they are, to `path` as written (fetch() would tidy a path
   * before sending it; Slack's requests are not the only ones), and answers the status.
   */
  const post = (headers: Record<string, string>, body: string | Buffer, path?: string) => {
    const app = new URL(h.eventsUrl);
    return new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: app.hostname, port: app.port, method: 'POST', path: path ?? app.pathname, headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };

  const rawPost = (target: string, timestamp: number, text: string) => {
    const built = slashCommand({ text, response_url: h.slack.responseUrl() });
    return post(
      {
        'content-type': built.contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature(SIGNING_SECRET, timestamp, built.body),
      },
      built.body,
      target,
    );
  };

  it.each([
    '/slack/%2e/events',
    '/slack/./events',
    '/slack/x/../events',
    '/slack/events#frag',
    '/slack\\events',
    `http://split.test/slack/events`,
  ])(
    'refuses a request dated a year ahead at %s, a path Bolt serves as its events',
    async (target) => {
      const now = Math.floor(Date.now() / 1000);
      // Bolt routes the path to its events: a request dated now is served there.
      expect(await rawPost(target, now, 'help')).toBe(200);
      const before = await creates();
      expect(await rawPost(target, now + 365 * 24 * 3600, '40 lunch <@U0BOB>')).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await creates()).toBe(before);
    },
  );

  it('takes a request dated four minutes ahead: clocks may differ by up to five', async () => {
    const reply = await h.sender.send(
      slashCommand({ text: 'help', response_url: h.slack.responseUrl() }),
      { timestamp: Math.floor(Date.now() / 1000) + 240 },
    );
    expect(reply.status).toBe(200);
  });

  it('answers 401 to a signed command whose body was changed after signing', async () => {
    const built = slashCommand({ text: '40 lunch <@U0BOB>', response_url: h.slack.responseUrl() });
    const timestamp = Math.floor(Date.now() / 1000);
    const before = await creates();
    const status = await post(
      {
        'content-type': built.contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature(SIGNING_SECRET, timestamp, built.body),
      },
      built.body.replace('text=40', 'text=400'),
    );
    expect(status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await creates()).toBe(before);
  });

  it('answers Slack’s unsigned certificate check, and runs nothing that rides along with it', async () => {
    const responseUrl = h.slack.responseUrl({ id: `ssl-${Math.random()}` });
    const built = slashCommand({ text: '40 lunch <@U0BOB>', response_url: responseUrl });
    const before = await creates();
    const status = await post(
      { 'content-type': 'application/x-www-form-urlencoded' },
      `ssl_check=1&${built.body}`,
    );
    expect(status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await creates()).toBe(before);
    expect(h.slack.responses.filter((p) => responseUrl.endsWith(p.id))).toEqual([]);
  });

  it('answers 413 to a body over 4 MB, declared or sent, before checking its signature', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 'a');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await post({ ...form, 'content-length': String(big.length) }, big)).toBe(413);
    // Sent in chunks with no length given: counted as it arrives.
    expect(await post({ ...form, 'transfer-encoding': 'chunked' }, big)).toBe(413);
  });
});

describe('every interaction is answered', () => {
  it('acks a click on the Connect link button at once', async () => {
    const started = Date.now();
    const reply = await h.sender.blockActions({
      actions: {
        action_id: 'account_connect',
        block_id: 'connect_actions',
        url: 'http://split.test/oauth/start?state=x',
      },
      is_ephemeral: true,
    });
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('opens the form for "Split this" at once, and asks an unconnected person to connect', async () => {
    h.addSlackUser({ slackId: 'U0STRANGER', first_name: 'Stranger' });
    const reply = await h.sender.messageShortcut({
      user_id: 'U0STRANGER',
      message: { text: 'Lunch was 40' },
    });
    expect(reply.status).toBe(200);
    const opened = await h.slack.waitForCall('views.open', (c) => c.status === 200);
    const viewId = (opened.response as Loose).view.id;
    const updated = await h.slack.waitForCall('views.update', (c) => c.args.view_id === viewId);
    expect(blocksText((updated.args.view as Loose).blocks)).toContain(
      'connect your Splitwise account',
    );
  });
});

describe('the person', () => {
  it('is asked to connect again when the service says the token is revoked (401)', async () => {
    const cy = await h.link({ slackId: 'U0CY', first_name: 'Cy' });
    await control(h.emu.url, 'POST', 'tokens/revoke', { access_token: cy.accessToken });
    const out = await h.split('40 lunch <@U0BOB>', { user_id: 'U0CY' });
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(blocksText(body.blocks)).toContain('stopped working');
    expect(connectButtonUrl(body.blocks)).toContain('/oauth/start?state=');
    expect(await h.app.deps.tokens.get({ team_id: 'T0001', user_id: 'U0CY' })).toBeUndefined();
  });

  it('gets a specific message when a mentioned person has no e-mail and no link', async () => {
    h.slack.addUser({ id: 'U0NOMAIL', name: 'ghost' });
    const out = await h.split('40 lunch <@U0NOMAIL>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain("I can't see <@U0NOMAIL>'s e-mail address in Slack");
  });
});

describe('an expense with only myself', () => {
  beforeAll(async () => {
    await h.link({ slackId: 'U0FRA', first_name: 'Fra', locale: 'fr-FR' });
  });

  it.each([
    ['U0ANN', '40 lunch <@U0ANN>'],
    ['U0ANN', '40 lunch @me'],
    ['U0FRA', '40 déjeuner @moi'],
    ['U0FRA', '40 déjeuner <@U0FRA> moi'],
  ])('%s: /split %s asks who shared it, privately, and books nothing', async (user, text) => {
    const before = await creates();
    const out = await h.split(text, { user_id: user });
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    const voice = user === 'U0FRA' ? voices.fr : voices.en;
    expect(body.text).toContain(voice.t('parse.who_shared'));
    await h.app.deps.work.idle();
    expect(await creates()).toBe(before);
  });
});

describe('a failing service', () => {
  it('says the service is having trouble (503) and that nothing was booked, after checking', async () => {
    const before = (await annExpenses()).length;
    await fault({ path: '/api/v3.0/create_expense', status: 503, times: 1 });
    const out = await h.split('40 lunch <@U0BOB>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toBe(
      'Splitwise failed while booking "lunch". I checked: it was not booked, so it\'s safe to try again.',
    );
    expect((await annExpenses()).length).toBe(before);
  });

  it('reconciles a create that timed out after the service applied it: one expense, answered', async () => {
    const before = (await annExpenses()).length;
    const createsBefore = await creates();
    h.proxy!.holdAnswer('/create_expense', 1_200);
    const out = await h.split('33 late dinner <@U0BOB>');
    const body = out.answer.body as Loose;
    expect(body.response_type).toBe('in_channel');
    expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
    expect(body.text).toContain('late dinner');
    const after = await annExpenses();
    expect(after.length).toBe(before + 1);
    expect(after.filter((e: Loose) => e.description === 'late dinner')).toHaveLength(1);
    expect((await creates()) - createsBefore).toBe(1);
    expect(h.logger.lines.some((l) => l.includes('reconciled: expense'))).toBe(true);
  });

  it('says a create whose connection broke before the service took it was not booked', async () => {
    const before = (await annExpenses()).length;
    await fault({ path: '/api/v3.0/create_expense', drop: true, times: 1 });
    const out = await h.split('12 lost lunch <@U0BOB>');
    expect((out.answer.body as Loose).text).toBe(
      'The connection to Splitwise broke while booking "lost lunch". I checked: it was not booked, so it\'s safe to try again.',
    );
    expect((await annExpenses()).length).toBe(before);
  });

  it('does not take an identical expense booked just before for the one that failed', async () => {
    const first = await h.split('7 juice <@U0BOB>');
    expect((first.answer.body as Loose).response_type).toBe('in_channel');
    await fault({ path: '/api/v3.0/create_expense', status: 503, times: 1 });
    const again = await h.split('7 juice <@U0BOB>');
    expect((again.answer.body as Loose).text).toContain('I checked: it was not booked');
    expect((await annExpenses()).filter((e: Loose) => e.description === 'juice')).toHaveLength(1);
  });

  it('says it could not check when every lookup after a failed create fails too', async () => {
    await fault({ path: '/api/v3.0/create_expense', status: 502, times: 1 });
    await fault({ path: '/api/v3.0/get_expenses', status: 503, times: 100 });
    const out = await h
      .split('9 tea <@U0BOB>')
      .finally(() => control(h.emu.url, 'DELETE', 'faults'));
    expect((out.answer.body as Loose).text).toBe(
      'Splitwise failed while booking "tea". I couldn\'t check whether it was booked: look at your recent expenses before trying again, so that it isn\'t booked twice.',
    );
  });

  it('relays a rate limit with the wait the service asked for', async () => {
    await fault({ path: '/api/v3.0/create_expense', status: 429, retry_after: 7, times: 1 });
    const out = await h.split('9 tea <@U0BOB>');
    expect((out.answer.body as Loose).text).toBe(
      'Splitwise asked me to slow down. Nothing was booked. Try again in 7 seconds.',
    );
  });

  it('posts in the channel when the response_url cannot be used', async () => {
    const before = h.slack.callsTo('chat.postMessage').length;
    const reply = await h.sender.command({
      text: '14 brunch <@U0BOB>',
      response_url: 'http://127.0.0.1:9/gone',
    });
    expect(reply.status).toBe(200);
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === 'C0001' && String(c.args.text).includes('brunch'),
      5_000,
    );
    expect(h.slack.callsTo('chat.postMessage').length).toBe(before + 1);
    expect(blockKitErrors(posted.args.blocks, 'message')).toEqual([]);
  });

  it('passes on a refusal in the service’s own words', async () => {
    await fault({
      path: '/api/v3.0/create_expense',
      status: 200,
      body: { expense: null, errors: { base: ['You cannot add an expense to this group'] } },
      times: 1,
    });
    const out = await h.split('40 lunch <@U0BOB>');
    expect((out.answer.body as Loose).text).toBe(
      'Splitwise refused: You cannot add an expense to this group. Nothing was booked.',
    );
  });

  it('says the service is down when it cannot even read the profile', async () => {
    await h.link({ slackId: 'U0DEE', first_name: 'Dee' });
    await fault({ path: '/api/v3.0/get_current_user', status: 503, times: 1 });
    const out = await h.split('40 lunch <@U0BOB>', { user_id: 'U0DEE' });
    expect((out.answer.body as Loose).text).toBe(
      'Splitwise is having trouble right now. Nothing was booked. Try again in a few minutes.',
    );
  });
});

describe('no double effect', () => {
  it('books a command delivered twice (same trigger_id) once', async () => {
    const before = (await annExpenses()).length;
    const id = 'twice';
    const request = slashCommand({
      text: '18 pizza <@U0BOB>',
      response_url: h.slack.responseUrl({ id }),
      trigger_id: h.slack.issueTrigger(),
    });
    const [a, b] = await Promise.all([h.sender.send(request), h.sender.send(request)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await h.slack.waitForResponse((p) => p.id === id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.slack.responses.filter((p) => p.id === id)).toHaveLength(1);
    expect((await annExpenses()).length).toBe(before + 1);
  });

  it('undoes an expense, replacing the message; a double click deletes once', async () => {
    const out = await h.split('25 cinema <@U0BOB>');
    const body = out.answer.body as Loose;
    const undo = body.blocks.find((b: Loose) => b.type === 'actions').elements[0];
    const expenseId = JSON.parse(undo.value).e as number;
    const deletesBefore = (await h.serviceCounts())['POST /api/v3.0/delete_expense/:id'] ?? 0;
    const message = { ts: '1700000000.000100', text: body.text, blocks: body.blocks };
    const click = (id: string) =>
      h.sender.blockActions({
        actions: { action_id: 'expense_undo', block_id: 'expense_actions', value: undo.value },
        message,
        response_url: h.slack.responseUrl({ id }),
      });
    const [first, second] = await Promise.all([click('undo-1'), click('undo-2')]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const replaced = await h.slack.waitForResponse((p) => p.id.startsWith('undo-'));
    expect(replaced.body.replace_original).toBe(true);
    expect(replaced.body.text).toContain('Undone by <@U0ANN>');
    expect(blockKitErrors(replaced.body.blocks, 'message')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.slack.responses.filter((p) => p.id.startsWith('undo-'))).toHaveLength(1);
    const counts = await h.serviceCounts();
    const deletes = Object.entries(counts)
      .filter(([route]) => route.startsWith('POST /api/v3.0/delete_expense'))
      .reduce((n, [, c]) => n + c, 0);
    expect(deletes - deletesBefore).toBe(1);
    const gone = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${expenseId}`);
    expect(gone.body.expense.deleted_at).not.toBeNull();
  });

  it('asks someone not connected who presses Undo to connect, and keeps the expense', async () => {
    const out = await h.split('11 soup <@U0BOB>');
    const body = out.answer.body as Loose;
    const undo = body.blocks.find((b: Loose) => b.type === 'actions').elements[0];
    h.addSlackUser({ slackId: 'U0EVE', first_name: 'Eve', email: 'eve.undo@example.com' });
    const reply = await h.sender.blockActions({
      user_id: 'U0EVE',
      actions: { action_id: 'expense_undo', block_id: 'expense_actions', value: undo.value },
      message: { ts: '1700000000.000200', text: body.text },
      response_url: h.slack.responseUrl({ id: 'undo-eve' }),
    });
    expect(reply.status).toBe(200);
    const answer = await h.slack.waitForResponse((p) => p.id === 'undo-eve');
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.replace_original).toBe(false);
    expect(connectButtonUrl(answer.body.blocks)).toContain('/oauth/start?state=');
    const still = await call(
      h.emu.url,
      ann.apiKey,
      'GET',
      `get_expense/${JSON.parse(undo.value).e}`,
    );
    expect(still.body.expense.deleted_at).toBeNull();
  });

  it('refuses an Undo whose value does not parse, changing nothing', async () => {
    const reply = await h.sender.blockActions({
      actions: { action_id: 'expense_undo', value: '12-34' },
      response_url: h.slack.responseUrl({ id: 'bad-undo' }),
    });
    expect(reply.status).toBe(200);
    const answer = await h.slack.waitForResponse((p) => p.id === 'bad-undo');
    expect(answer.body.text).toContain('This Undo button is damaged');
  });
});
