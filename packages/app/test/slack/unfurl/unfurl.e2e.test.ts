/**
 * Links to the service unfolding in Slack, end to end: a person pastes a link in the simulated
 * workspace (started from manifest.yml, so with its unfurl domains, events and scopes), the
 * workspace sends the app link_shared, and the app reads the expense or the group at the emulator
 * with the sharer's own link and calls chat.unfurl. Someone not connected gets only Slack's
 * private prompt; someone who cannot see the expense gets nothing; an event Slack sends again is
 * carried out once, on this replica or another.
 */
import { readFileSync } from 'node:fs';
import { readManifest, unfurlId } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/compose.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  PUBLIC_URL,
  quietLogger,
  SIGNING_SECRET,
  startHarness,
  TEAM,
} from '../../support/harness.js';
import { expenseIdIn } from '../../support/modal-support.js';
import { slackSender } from '../../support/slack-requests.js';

const CHANNEL = 'C0001';
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;
let ann: LinkedPerson;
let expenseId: number;
let groupId: number;

beforeAll(async () => {
  // At info, so that the test reads which deliveries each replica left alone.
  h = await startHarness({ env: { LOG_LEVEL: 'info' } });
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob', locale: 'de-DE', tz: 'Europe/Berlin' });
  await h.link({ slackId: 'U0DAN', first_name: 'Dan' });
  h.addSlackUser({ slackId: 'U0EVE', first_name: 'Eve' });
  // As Slack sends what was typed: `&`, `<` and `>` escaped.
  const booked = await h.split('40 dinner &amp; &lt;b&gt;wine&lt;/b&gt; *late* <@U0BOB>');
  expenseId = expenseIdIn(booked.answer.body.blocks);
  const created = await h.split('group create Lisbon <@U0BOB>');
  expect(created.answer.body.text).toContain('Lisbon');
  const groups = await h.app.deps.service.forLink({ access_token: ann.accessToken }).getGroups();
  groupId = groups.find((g) => g.name === 'Lisbon')!.id;
  const tapas = await h.split('30 tapas <@U0BOB> in Lisbon');
  expect(tapas.answer.body.text).toContain('tapas');
}, 30_000);
afterAll(() => h?.close());

/** A person posts `text` in the channel; returns the message the workspace keeps. */
async function post(as: string, text: string) {
  await h.slack.act.message({ as, channel: CHANNEL, text });
  return h.slack.messages(CHANNEL).at(-1)!;
}

const unfurlsOf = (ts: string) =>
  h.slack.calls.filter(
    (c) =>
      c.method === 'chat.unfurl' &&
      (c.args.ts === ts || c.args.unfurl_id === unfurlId(CHANNEL, ts)),
  );

interface Unfurled {
  /** Keyed by URL, as the app sent them (the Web API client sends them as JSON text). */
  unfurls: Record<string, { blocks: unknown[] }>;
  args: Record<string, unknown>;
}

async function unfurled(ts: string): Promise<Unfurled> {
  const call = await h.slack.waitForCall(
    'chat.unfurl',
    (c) => c.args.unfurl_id === unfurlId(CHANNEL, ts),
    5_000,
  );
  expect(call.response).toMatchObject({ ok: true });
  const { unfurls, ...args } = call.args;
  return { unfurls: JSON.parse(String(unfurls)), args };
}

/** How many times the emulator was asked `op` (get_expense/<id> and the like). */
async function served(op: string): Promise<number> {
  const counts = await h.serviceCounts();
  return Object.entries(counts)
    .filter(([route]) => route.includes(`/${op}/`) || route.endsWith(`/${op}`))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Waits until the app has asked the emulator `op` `more` times more, then for its work. */
async function readAtService(op: string, before: number, more = 1) {
  await expect
    .poll(async () => (await served(op)) - before, { timeout: 5_000 })
    .toBeGreaterThanOrEqual(more);
  await h.app.deps.work.idle();
}

describe('a link pasted by a connected person', () => {
  it('unfolds an expense for everyone in the channel, in the sharer’s words', async () => {
    const url = `https://secure.splitwise.com/expenses/${expenseId}`;
    const message = await post('U0ANN', `Our dinner: <${url}>`);
    const call = await unfurled(message.ts);
    const blocks = call.unfurls[url]!.blocks;
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
    const text = blocksText(blocks).replace(/\u200b/g, '');
    expect(text).toContain('*dinner &amp; &lt;b&gt;wine&lt;/b&gt; *late** · €40.00');
    expect(text).toContain('*Paid by*\n<@U0ANN>');
    expect(text).toContain('• <@U0BOB> owes <@U0ANN> *€20.00*');
    expect(text).toContain(`Expense #${expenseId}`);
    expect(JSON.stringify(blocks)).not.toMatch(/<b>|<!/);

    // Bob sees it under Ann's message, with Open (to the link) and Details.
    const seen = h.slack.pageState('U0BOB').messages[CHANNEL]!.find((m) => m.ts === message.ts)!;
    expect(seen.unfurls).toEqual([{ url, blocks }]);
    const actions = blocks.at(-1) as { elements: Record<string, unknown>[] };
    expect(actions.elements).toMatchObject([
      { action_id: 'unfurl_open', url, text: { text: 'Open' } },
      { action_id: 'expense_details', value: JSON.stringify({ v: 1, e: expenseId }) },
    ]);
    expect(call.args).not.toHaveProperty('user_auth_required');
    expect(h.slack.messages(CHANNEL).filter((m) => m.ephemeralFor)).toEqual([]);
  });

  it('unfolds in German for a de-DE sharer, a group as well as an expense', async () => {
    const expense = `https://www.splitwise.com/expenses/${expenseId}`;
    const group = `https://secure.splitwise.com/#/groups/${groupId}`;
    const message = await post('U0BOB', `<${expense}> und <${group}>`);
    const { unfurls } = await unfurled(message.ts);
    expect(Object.keys(unfurls)).toEqual([expense, group]);
    const expenseText = blocksText(unfurls[expense]!.blocks).replace(/[\u00a0\u202f]/g, ' ');
    expect(expenseText).toContain('· 40,00 €');
    expect(expenseText).toContain('*Bezahlt von*\n<@U0ANN>');
    expect(expenseText).toContain('• <@U0BOB> schuldet <@U0ANN> *20,00 €*');
    const groupText = blocksText(unfurls[group]!.blocks);
    expect(groupText).toContain('*Lisbon* · 2 Mitglieder');
    expect(groupText.replace(/[\u00a0\u202f]/g, ' ')).toContain(
      '<@U0BOB> schuldet in dieser Gruppe 15,00 €',
    );
    expect(JSON.stringify(unfurls[group]!.blocks)).toContain('"text":"Öffnen"');
    expect(h.slack.pageState('U0ANN').messages[CHANNEL]!.at(-1)!.unfurls).toHaveLength(2);
  });

  it('shows Details privately to whoever clicks it, read with their own link', async () => {
    const url = `https://secure.splitwise.com/expenses/${expenseId}`;
    const message = await post('U0ANN', `<${url}>`);
    await unfurled(message.ts);
    const details = { action_id: 'expense_details', value: JSON.stringify({ v: 1, e: expenseId }) };
    const click = (as: string, action: Record<string, unknown>) =>
      h.slack.act.action({
        as,
        container: { type: 'message', channel: CHANNEL, ts: message.ts, unfurl_url: url },
        action: { type: 'button', ...action },
      });
    await click('U0BOB', details);
    await expect
      .poll(() => h.slack.messages(CHANNEL).filter((m) => m.ephemeralFor === 'U0BOB').length)
      .toBe(1);
    const shown = h.slack.messages(CHANNEL).find((m) => m.ephemeralFor === 'U0BOB')!;
    // In Bob's own language: Details is his, whoever shared the link.
    expect(blocksText(shown.blocks)).toContain('Bezahlt von');

    // Dan is connected but not on the expense: the service refuses him, and he is told so.
    await click('U0DAN', details);
    await expect
      .poll(() => h.slack.messages(CHANNEL).filter((m) => m.ephemeralFor === 'U0DAN').length)
      .toBe(1);
    const refused = h.slack.messages(CHANNEL).find((m) => m.ephemeralFor === 'U0DAN')!;
    expect(blocksText(refused.blocks)).not.toContain('dinner');

    // Open goes to the browser; its click is acked, so nobody is told the app failed.
    await click('U0EVE', { action_id: 'unfurl_open', url });
    expect(h.slack.notices('U0EVE')).toEqual([]);
  });
});

describe('a link pasted by someone who may not see it', () => {
  it('gives a person who is not connected only a private invitation to connect', async () => {
    const url = `https://secure.splitwise.com/expenses/${expenseId}`;
    const message = await post('U0EVE', `<${url}>`);
    const call = await unfurled(message.ts);
    expect(call.unfurls).toEqual({});
    expect(call.args).toMatchObject({
      user_auth_required: 'true',
      user_auth_url: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/`)),
    });
    const connect = call.args.user_auth_url as string;
    expect(call.args.user_auth_message).toBe(
      `Connect your Splitwise account so that links to your expenses show a preview in Slack: <${connect}|connect now>. The link works once, for 10 minutes, and only for you.`,
    );
    // Eve alone sees the prompt; the channel sees nothing of the expense.
    const prompt = h.slack.pageState('U0EVE').messages[CHANNEL]!.filter((m) => m.ephemeral);
    expect(prompt).toMatchObject([{ text: call.args.user_auth_message }]);
    for (const other of ['U0ANN', 'U0BOB']) {
      const seen = h.slack.pageState(other).messages[CHANNEL]!;
      expect(seen.find((m) => m.ts === message.ts)).not.toHaveProperty('unfurls');
      expect(JSON.stringify(seen)).not.toContain(connect);
    }
    // The link is a working Connect link, for Eve.
    const page = await fetch(h.local(connect), { redirect: 'manual' });
    expect(page.status).toBeLessThan(400);
  });

  it('unfolds nothing for a connected person who is not on the expense or in the group', async () => {
    const [expenses, groups] = [await served('get_expense'), await served('get_group')];
    const expense = `https://secure.splitwise.com/expenses/${expenseId}`;
    const group = `https://secure.splitwise.com/groups/${groupId}`;
    const missing = 'https://secure.splitwise.com/expenses/999999';
    const message = await post('U0DAN', `<${expense}> <${group}> <${missing}>`);
    await readAtService('get_group', groups);
    await readAtService('get_expense', expenses, 2);
    expect(unfurlsOf(message.ts)).toEqual([]);
    for (const person of ['U0ANN', 'U0DAN']) {
      const seen = h.slack.pageState(person).messages[CHANNEL]!;
      expect(seen.find((m) => m.ts === message.ts)).not.toHaveProperty('unfurls');
      expect(seen.filter((m) => m.ephemeral && m.ts > message.ts)).toEqual([]);
    }
  });

  it('asks someone whose link stopped working to connect again, and shows nothing', async () => {
    const cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
    await h.app.deps.tokens.set(
      { team_id: TEAM, user_id: cho.slackId },
      {
        access_token: 'revoked-token',
        token_type: 'bearer',
        service_user_id: cho.serviceId,
        name: cho.name,
        linked_at: new Date().toISOString(),
      },
    );
    const message = await post('U0CHO', `<https://secure.splitwise.com/#/groups/${groupId}>`);
    const call = await unfurled(message.ts);
    expect(call.unfurls).toEqual({});
    expect(call.args).toMatchObject({ user_auth_required: 'true' });
    expect(call.args.user_auth_message).toMatch(/^Your connection to Splitwise stopped/);
    expect(await h.app.deps.tokens.get({ team_id: TEAM, user_id: cho.slackId })).toBeUndefined();
  });
});

describe('an event Slack sends again', () => {
  it('unfolds once, whichever replica gets the retry', async () => {
    const url = `https://secure.splitwise.com/expenses/${expenseId}`;
    // Posted while the app hears no link_shared, so that only the deliveries below reach it.
    h.slack.setApp({ ...manifest, events: manifest.events!.filter((e) => e !== 'link_shared') });
    const message = await post('U0ANN', `<${url}>`);
    h.slack.setApp(manifest);
    const event = {
      type: 'link_shared',
      channel: CHANNEL,
      is_bot_user_member: true,
      user: 'U0ANN',
      message_ts: message.ts,
      unfurl_id: unfurlId(CHANNEL, message.ts),
      source: 'conversations_history',
      links: [{ domain: 'splitwise.com', url }],
      event_ts: message.ts,
    };
    const otherLogger = quietLogger();
    const other: RunningApp = await startApp({
      config: h.config,
      logger: otherLogger,
      slackRetries: 0,
      serviceTimeoutMs: 1_500,
      serviceRetries: 0,
      digest: { scheduler: false },
    });
    try {
      const toOther = slackSender({
        appUrl: `${other.url}/slack/events`,
        signingSecret: SIGNING_SECRET,
        fake: h.slack,
      });
      const once = { event_id: 'Ev0UNFURL1' };
      const retry = (num: number) => ({
        headers: { 'x-slack-retry-num': String(num), 'x-slack-retry-reason': 'http_timeout' },
      });
      const sent = await Promise.all([
        h.sender.event(event, once),
        h.sender.event(event, once, retry(1)),
        toOther.event(event, once, retry(2)),
      ]);
      // The last retry, once the first delivery was carried out.
      await unfurled(message.ts);
      sent.push(await toOther.event(event, once, retry(3)));
      expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const ignored = () =>
        [...h.logger.lines, ...otherLogger.lines].filter((line) =>
          line.includes('link_shared Ev0UNFURL1: already carried out'),
        ).length;
      await expect.poll(ignored, { timeout: 5_000 }).toBe(3);
      await Promise.all([h.app.deps.work.idle(), other.deps.work.idle()]);
      expect(unfurlsOf(message.ts)).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });
});
