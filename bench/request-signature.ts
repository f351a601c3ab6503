/**
 * What checking one Slack request's signature costs: Bolt's own check (`verifySlackRequest`,
 * which the app used until it checked requests itself) beside the app's (`signatureCheck` in
 * src/slack/request-signature.ts), on whichever Node runs it.
 *
 *   npx tsx bench/request-signature.ts     BENCH_ROUNDS=N (7), BENCH_OPS=N per check a round (20000)
 *
 * Both check the same genuinely signed `/split` body, as the benchmark of `/split` sends it, with
 * the same headers. Each round runs each check BENCH_OPS times, alternating which goes first, after
 * a warm-up round; the table gives the medians of the rounds in µs per request and their ratio.
 */
import { verifySlackRequest } from '@slack/bolt';
import { signatureCheck } from '../packages/app/src/slack/request-signature.js';
import { SIGNING_SECRET } from '../packages/app/test/support/harness.js';
import { signature, slashCommand } from '../packages/app/test/support/slack-requests.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const OPS = Number(process.env.BENCH_OPS ?? 20_000);

const { body } = slashCommand({ text: '12 coffee <@U0BOB>' });
const bytes = Buffer.from(body);
const timestamp = Math.floor(Date.now() / 1000);
const headers = {
  'x-slack-request-timestamp': String(timestamp),
  'x-slack-signature': signature(SIGNING_SECRET, timestamp, body),
};
const ours = signatureCheck(SIGNING_SECRET);

const checks: Array<{ name: string; run: () => void }> = [
  {
    name: "Bolt's",
    run: () =>
      verifySlackRequest({
        signingSecret: SIGNING_SECRET,
        body,
        headers: {
          'x-slack-signature': headers['x-slack-signature'],
          'x-slack-request-timestamp': timestamp,
        },
      }),
  },
  {
    name: "the app's",
    run: () => {
      if (ours(headers, bytes, Date.now()) !== undefined) throw new Error('refused a signed body');
    },
  },
];

const times = new Map<string, number[]>(checks.map((check) => [check.name, []]));
for (let round = 0; round <= ROUNDS; round++) {
  const order = round % 2 === 0 ? checks : [...checks].reverse();
  for (const { name, run } of order) {
    const started = performance.now();
    for (let i = 0; i < OPS; i++) run();
    const us = ((performance.now() - started) * 1000) / OPS;
    // Round 0 warms up.
    if (round > 0) times.get(name)!.push(us);
  }
}

const bolt = median(times.get("Bolt's")!);
const app = median(times.get("the app's")!);
console.log(`Node ${process.version}, ${ROUNDS} rounds of ${OPS} per check, medians`);
console.log(`| Bolt's check | the app's | ratio |`);
console.log('|---:|---:|---:|');
console.log(`| ${bolt.toFixed(2)} µs | ${app.toFixed(2)} µs | ${(bolt / app).toFixed(1)}× |`);
