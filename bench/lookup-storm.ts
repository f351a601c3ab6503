/**
 * A storm of Slack lookups beside an unrelated `/split`.
 *
 *   npx tsx bench/lookup-storm.ts     BENCH_ROUNDS=N rounds (5), BENCH_RETRY_AFTER=S the seconds
 *                                     Slack answers 429 for (5), BENCH_TIMEOUT=S the longest wait
 *                                     for an answer (60)
 *
 * The expense emulator, the simulated workspace (from manifest.yml) and the app run in this
 * process, the app with its production retries (three). Ann has five expenses at the service
 * with 200 people each, everyone also in the workspace. Each round, side by side:
 *
 * - quiet: a person the app has never looked up sends `/split 40 lunch`; the time from sending
 *   the command to its answer at the response_url;
 * - lookups: Ann posts one message with the five links, nothing rate-limited; Slack lookups that
 *   one link_shared event made, and the time to its chat.unfurl;
 * - storm, 429 on users.lookupByEmail: the workspace answers that method 429 for
 *   BENCH_RETRY_AFTER seconds, Ann posts the five links again, and once the first 429 is out
 *   another new person sends `/split 40 lunch`; its latency, and the lookups the event made;
 * - storm, 429 on users.info too: the same, with the person's own users.info answered 429.
 *
 * Each new person is someone the app has not looked up, as in the case that was measured before
 * the fix (an unrelated /split: 14.2 s against 0.16 s quiet). Rounds wait for the Retry-After to
 * pass, so each storm starts with Slack's limit fresh. Medians over the rounds are reported.
 */
import { readFileSync } from 'node:fs';
import { call } from '@split/service-emulator/testing';
import { readManifest, unfurlId } from '@split/slack-workspace';
import {
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../packages/app/test/support/harness.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RETRY_AFTER_S = Number(process.env.BENCH_RETRY_AFTER ?? 5);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT ?? 60) * 1_000;
const PEOPLE = 200;
const LINKS = 5;
const CHANNEL = 'C0001';
/** The whole run stops here whatever happens. */
const DEADLINE_MS = 900_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const lookupsAt = (h: Harness) =>
  h.slack.callsTo('users.info').length + h.slack.callsTo('users.lookupByEmail').length;

async function bigExpense(h: Harness, ann: LinkedPerson, n: number): Promise<number> {
  const params: Record<string, string | number> = {
    cost: `${PEOPLE}.00`,
    description: `Party ${n}`,
    currency_code: 'EUR',
    users__0__user_id: ann.serviceId,
    users__0__paid_share: `${PEOPLE}.00`,
    users__0__owed_share: '1.00',
  };
  for (let i = 1; i < PEOPLE; i++) {
    const email = `guest.${n}.${i}@example.com`;
    h.addSlackUser({ slackId: `U${n}G${String(i).padStart(3, '0')}`, first_name: `G${i}`, email });
    params[`users__${i}__email`] = email;
    params[`users__${i}__first_name`] = `G${i}`;
    params[`users__${i}__paid_share`] = '0.00';
    params[`users__${i}__owed_share`] = '1.00';
  }
  const reply = await call(h.emu.url, ann.apiKey, 'POST', 'create_expense', params);
  const id = reply.body.expenses?.[0]?.id;
  if (typeof id !== 'number') throw new Error(`create_expense: ${JSON.stringify(reply.body)}`);
  return id;
}

let people = 0;
const newcomer = () => `U0NEW${people}`;
/** `/split 40 lunch` from someone the app has never looked up; ms to the answer, or Infinity. */
async function quietSplit(h: Harness): Promise<number> {
  people += 1;
  const who = await h.link({ slackId: newcomer(), first_name: `New${people}` });
  const started = performance.now();
  try {
    await h.split('40 lunch', { user_id: who.slackId, timeoutMs: TIMEOUT_MS });
    return performance.now() - started;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Ann posts the five links; resolves with the message's ts. */
async function postLinks(h: Harness, urls: string[]): Promise<string> {
  await h.slack.act.message({
    as: 'U0ANN',
    channel: CHANNEL,
    text: urls.map((u) => `<${u}>`).join(' '),
  });
  return h.slack.messages(CHANNEL).at(-1)!.ts;
}

async function unfurlMs(h: Harness, ts: string, started: number): Promise<number> {
  try {
    await h.slack.waitForCall(
      'chat.unfurl',
      (c) => c.args.unfurl_id === unfurlId(CHANNEL, ts),
      TIMEOUT_MS,
    );
    return performance.now() - started;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

interface Storm {
  split: number;
  lookups: number;
  limited: number;
  unfurl: number;
}

async function storm(h: Harness, urls: string[], methods: string[]): Promise<Storm> {
  for (const m of methods) h.slack.rateLimitFor(m, RETRY_AFTER_S);
  const before = { calls: h.slack.calls.length };
  const started = performance.now();
  const ts = await postLinks(h, urls);
  // The /split is sent once Slack has refused the first lookup: while the storm is on.
  const deadline = Date.now() + TIMEOUT_MS;
  while (!h.slack.calls.slice(before.calls).some((c) => c.status === 429) && Date.now() < deadline)
    await sleep(5);
  const split = await quietSplit(h);
  const unfurl = await unfurlMs(h, ts, started);
  await h.app.deps.work.idle();
  // The event's lookups: the /split's own (the newcomer's profile) are not counted.
  const made = h.slack.calls
    .slice(before.calls)
    .filter((c) => c.method === 'users.info' || c.method === 'users.lookupByEmail')
    .filter((c) => c.args.user !== newcomer());
  // The next round starts once Slack's window, and the app's memory of it, have passed.
  await sleep(RETRY_AFTER_S * 1_000 + 500);
  return {
    split,
    lookups: made.length,
    limited: made.filter((c) => c.status === 429).length,
    unfurl,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : `> ${TIMEOUT_MS / 1000} s`);

async function main() {
  const deadline = setTimeout(() => {
    console.error(`benchmark exceeded ${DEADLINE_MS / 1000} s; stopping`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  // Production's Slack retries (three), not the tests' none.
  const h = await startHarness({ slackRetries: 3 });
  try {
    h.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
    h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
    const ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
    const rows = { quiet: [] as number[], lookups: [] as Storm[], email: [] as Storm[] };
    const both: Storm[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Fresh people each round: none of them in the directory's cache yet.
      const urls: string[] = [];
      for (let i = 0; i < LINKS; i++)
        urls.push(
          `https://secure.splitwise.com/expenses/${await bigExpense(h, ann, round * 10 + i)}`,
        );
      rows.quiet.push(await quietSplit(h));
      const quietBefore = lookupsAt(h);
      const started = performance.now();
      const ts = await postLinks(h, urls);
      const unfurl = await unfurlMs(h, ts, started);
      await h.app.deps.work.idle();
      rows.lookups.push({ split: 0, lookups: lookupsAt(h) - quietBefore, limited: 0, unfurl });
      // The same links again: the people the first event reached are cached, the rest are not.
      const fresh: string[] = [];
      for (let i = 0; i < LINKS; i++)
        fresh.push(
          `https://secure.splitwise.com/expenses/${await bigExpense(h, ann, round * 10 + 5 + i)}`,
        );
      rows.email.push(await storm(h, fresh, ['users.lookupByEmail']));
      both.push(await storm(h, urls.concat().reverse(), ['users.lookupByEmail', 'users.info']));
      console.error(`round ${round + 1}/${ROUNDS} done`);
    }
    const med = (xs: Storm[], key: keyof Storm) => median(xs.map((x) => x[key]));
    console.log(
      `Lookup storm: ${LINKS} links x ${PEOPLE} people, 429 for ${RETRY_AFTER_S} s, ${ROUNDS} rounds (median)`,
    );
    console.log('');
    console.log(
      '| case | /split answered in | lookups by the event | of them 429 | links unfolded in |',
    );
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| quiet /split | ${ms(median(rows.quiet))} | - | - | - |`);
    console.log(
      `| five links, no 429 | - | ${med(rows.lookups, 'lookups')} | 0 | ${ms(med(rows.lookups, 'unfurl'))} |`,
    );
    console.log(
      `| /split beside the links, 429 on users.lookupByEmail | ${ms(med(rows.email, 'split'))} | ${med(rows.email, 'lookups')} | ${med(rows.email, 'limited')} | ${ms(med(rows.email, 'unfurl'))} |`,
    );
    console.log(
      `| /split beside the links, 429 on users.lookupByEmail and users.info | ${ms(med(both, 'split'))} | ${med(both, 'lookups')} | ${med(both, 'limited')} | ${ms(med(both, 'unfurl'))} |`,
    );
    console.log('');
    console.log(
      `per round, /split under 429 (both): ${both.map((s) => ms(s.split)).join(', ')}; quiet: ${rows.quiet.map(ms).join(', ')}`,
    );
  } finally {
    await h.close();
  }
}

await main();
