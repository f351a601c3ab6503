/**
 * What one request may cost Slack, and what Slack's refusals may cost everyone else, end to end
 * (the app, the emulator and the simulated workspace started from manifest.yml). Expenses made at
 * the service can hold hundreds of people; one message with five links to such expenses once made
 * a thousand users.lookupByEmail calls, and while Slack answered them with 429 another person's
 * /split waited for their Retry-After. Lookups are counted where Slack would count them: at the
 * workspace.
 */
import { readFileSync } from 'node:fs';
import { call } from '@split/service-emulator/testing';
import { readManifest, unfurlId } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUPS_PER_REQUEST } from '../../../src/accounts/lookups.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';
import { voices } from '../../support/voice-support.js';

const CHANNEL = 'C0001';
const PEOPLE_PER_EXPENSE = 200;
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;

beforeAll(async () => {
  // The expenses are large: their reads get the time a busy machine may need.
  h = await startHarness({ serviceTimeoutMs: 10_000 });
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
}, 30_000);
afterAll(() => h?.close());

const lookups = () =>
  h.slack.callsTo('users.info').length + h.slack.callsTo('users.lookupByEmail').length;

let made = 0;
/** A linked person of their own for each test, so that no test reads another's friends. */
async function someone(name: string): Promise<LinkedPerson> {
  made += 1;
  return h.link({ slackId: `U0${name.toUpperCase()}${made}`, first_name: name });
}

/**
 * An expense `booker` paid at the service, with 200 people (`also` among them when given), each
 * also a person in the workspace with the same e-mail, none of whom the app has looked up yet.
 */
async function bigExpense(booker: LinkedPerson, also?: LinkedPerson): Promise<number> {
  made += 1;
  const params: Record<string, string | number> = {
    cost: `${PEOPLE_PER_EXPENSE}.00`,
    description: `Party ${made}`,
    currency_code: 'EUR',
    users__0__user_id: booker.serviceId,
    users__0__paid_share: `${PEOPLE_PER_EXPENSE}.00`,
    users__0__owed_share: '1.00',
  };
  const people = [
    ...(also ? [{ email: also.email, name: also.name }] : []),
    ...Array.from({ length: PEOPLE_PER_EXPENSE - 1 - (also ? 1 : 0) }, (_, i) => {
      const name = `Guest${made}x${i}`;
      const email = `guest.${made}.${i}@example.com`;
      h.addSlackUser({
        slackId: `U${made}P${String(i).padStart(3, '0')}`,
        first_name: name,
        email,
      });
      return { email, name };
    }),
  ];
  people.forEach(({ email, name }, i) => {
    params[`users__${i + 1}__email`] = email;
    params[`users__${i + 1}__first_name`] = name;
    params[`users__${i + 1}__paid_share`] = '0.00';
    params[`users__${i + 1}__owed_share`] = '1.00';
  });
  const reply = await call(h.emu.url, booker.apiKey, 'POST', 'create_expense', params);
  expect(reply.body.errors ?? {}).toEqual({});
  return reply.body.expenses[0].id as number;
}

/** Links to five 200-person expenses of `sharer`'s. */
async function fiveLinks(sharer: LinkedPerson): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < 5; i++)
    urls.push(`https://secure.splitwise.com/expenses/${await bigExpense(sharer)}`);
  return urls;
}

/** `sharer` posts the links in one message. */
async function postLinks(
  sharer: LinkedPerson,
  urls: string[],
): Promise<{ ts: string; urls: string[] }> {
  await h.slack.act.message({
    as: sharer.slackId,
    channel: CHANNEL,
    text: `Last week: ${urls.map((u) => `<${u}>`).join(' ')}`,
  });
  return { ts: h.slack.messages(CHANNEL).at(-1)!.ts, urls };
}

async function unfurledBlocks(ts: string): Promise<Record<string, { blocks: unknown[] }>> {
  const unfurl = await h.slack.waitForCall(
    'chat.unfurl',
    (c) => c.args.unfurl_id === unfurlId(CHANNEL, ts),
    20_000,
  );
  expect(unfurl.response).toMatchObject({ ok: true });
  return JSON.parse(String(unfurl.args.unfurls));
}

describe('one message with five links to expenses of 200 people', () => {
  it('makes at most 50 Slack lookups and a bounded number of service calls, and still unfolds every link', async () => {
    const total = (counts: Record<string, number>) =>
      Object.values(counts).reduce((a, b) => a + b, 0);
    const ann = await someone('Ann');
    const links = await fiveLinks(ann);
    const before = { lookups: lookups(), service: total(await h.serviceCounts()) };
    const { ts, urls } = await postLinks(ann, links);
    const unfurls = await unfurledBlocks(ts);
    await h.app.deps.work.idle();
    expect(Object.keys(unfurls)).toEqual(urls);
    expect(lookups() - before.lookups).toBeLessThanOrEqual(LOOKUPS_PER_REQUEST);
    // A read per link, and the sharer's friends and groups: nothing per person.
    expect(total(await h.serviceCounts()) - before.service).toBeLessThanOrEqual(5 + 2 * 3);
    // People the lookups reached are mentioned; past them, the service's own names show.
    const text = urls.map((u) => blocksText(unfurls[u]!.blocks)).join('\n');
    expect(text).toMatch(/<@U\dP\d{3}>/);
    expect(text).toMatch(/Guest\dx\d+/);
    expect(text).toContain('…and 190 more people');
  });
});

describe('while Slack answers lookups with 429', () => {
  it('answers another person’s /split within 3 s, in their own words, beside a burst of rate-limited lookups', async () => {
    const sharer = await someone('Ann');
    const cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho', locale: 'de-DE' });
    h.slack.rateLimitFor('users.lookupByEmail', 60);
    try {
      const before = h.slack.callsTo('users.lookupByEmail').length;
      const { ts, urls } = await postLinks(sharer, await fiveLinks(sharer));
      await expect
        .poll(() => h.slack.callsTo('users.lookupByEmail').length - before, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const started = performance.now();
      const out = await h.split('40 lunch', { user_id: cho.slackId, timeoutMs: 10_000 });
      expect(performance.now() - started).toBeLessThan(3_000);
      // users.info is under its own limit: Cho's profile was read, and the answer is in German.
      expect(out.answer.body.text).toContain(voices.de.t('parse.who_shared'));
      // The links still unfold, with the service's names for the people not looked up.
      const unfurls = await unfurledBlocks(ts);
      expect(Object.keys(unfurls)).toHaveLength(5);
      await h.app.deps.work.idle();
      const limited = h.slack.callsTo('users.lookupByEmail').slice(before);
      expect(limited.every((c) => c.status === 429)).toBe(true);
      expect(limited.length).toBeLessThanOrEqual(LOOKUPS_PER_REQUEST);
      // Slack's Retry-After is honoured: the same links shared again unfold without calling
      // users.lookupByEmail until it has passed.
      const again = urls.map((u) => `<${u}>`).join(' ');
      await h.slack.act.message({ as: sharer.slackId, channel: CHANNEL, text: again });
      const second = h.slack.messages(CHANNEL).at(-1)!.ts;
      expect(Object.keys(await unfurledBlocks(second))).toHaveLength(5);
      expect(h.slack.callsTo('users.lookupByEmail').length - before).toBe(limited.length);
    } finally {
      h.slack.rateLimitFor('users.lookupByEmail', 0);
    }
  });

  it('answers a /split within 3 s when users.info is rate-limited too', async () => {
    const sharer = await someone('Ann');
    const dee = await h.link({ slackId: 'U0DEE', first_name: 'Dee' });
    h.slack.rateLimitFor('users.lookupByEmail', 60);
    h.slack.rateLimitFor('users.info', 60);
    try {
      const before = h.slack.callsTo('users.info').length;
      const { ts } = await postLinks(sharer, await fiveLinks(sharer));
      const started = performance.now();
      const out = await h.split('40 lunch', { user_id: dee.slackId, timeoutMs: 10_000 });
      expect(performance.now() - started).toBeLessThan(3_000);
      // Slack could not say which language Dee reads: the answer is in English.
      expect(out.answer.body.text).toContain(voices.en.t('parse.who_shared'));
      expect(
        h.slack
          .callsTo('users.info')
          .slice(before)
          .map((c) => c.status),
      ).toContain(429);
      expect(Object.keys(await unfurledBlocks(ts))).toHaveLength(5);
    } finally {
      h.slack.rateLimitFor('users.lookupByEmail', 0);
      h.slack.rateLimitFor('users.info', 0);
    }
  });
});

describe('the buttons on a 200-person expense', () => {
  const click = async (action_id: string, expenseId: number, user_id: string) => {
    const id = `${action_id}-${expenseId}-${Math.random()}`;
    const since = h.slack.now();
    const response = await h.sender.blockActions({
      user_id,
      actions: {
        action_id,
        block_id: 'expense_actions',
        value: JSON.stringify({ v: 1, e: expenseId }),
      },
      message: { ts: '1700000200.000100', blocks: [], text: 'expense' },
      response_url: h.slack.responseUrl({ id }),
    });
    expect(response.status).toBe(200);
    return { since, answer: () => h.slack.waitForResponse((p) => p.id === id, 15_000) };
  };

  it('Details looks up at most 50 people', async () => {
    const ann = await someone('Ann');
    const expenseId = await bigExpense(ann);
    const before = lookups();
    const answer = await (await click('expense_details', expenseId, ann.slackId)).answer();
    expect(blocksText(answer.body.blocks)).toContain(`Party ${made}`);
    expect(lookups() - before).toBeLessThanOrEqual(LOOKUPS_PER_REQUEST);
  });

  it('Delete of an expense someone else booked looks up at most 50 people', async () => {
    const ann = await someone('Ann');
    const expenseId = await bigExpense(await someone('Bob'), ann);
    const before = lookups();
    const answer = await (await click('expense_delete', expenseId, ann.slackId)).answer();
    expect(answer.body.replace_original).toBe(true);
    await h.app.deps.work.idle();
    expect(lookups() - before).toBeLessThanOrEqual(LOOKUPS_PER_REQUEST);
  });

  it('Edit fills its form with at most 50 lookups', async () => {
    const ann = await someone('Ann');
    const expenseId = await bigExpense(ann);
    const before = lookups();
    const { since } = await click('expense_edit', expenseId, ann.slackId);
    const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since, 10_000);
    const viewId = (opened.response as { view: { id: string } }).view.id;
    const filled = await h.slack.waitForCall(
      'views.update',
      (c) => c.args.view_id === viewId,
      15_000,
    );
    expect((filled.args.view as { title: { text: string } }).title.text).toBe('Edit expense');
    expect(lookups() - before).toBeLessThanOrEqual(LOOKUPS_PER_REQUEST);
  });
});
