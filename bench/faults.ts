/**
 * Faults: what is lost or booked twice when things go wrong.
 *
 *   npx tsx bench/faults.ts     FAULTS_COMMANDS=N commands under kills (60), FAULTS_KILLS=K (3),
 *                               FAULTS_TRIALS=T trials per slow latency (4),
 *                               FAULTS_DUPLICATES=D commands and forms delivered twice (10),
 *                               FAULTS_PARTS=kill,slow,dup,receipt,abuse: which parts below run
 *
 * The expense emulator and the fake Slack run here; the app runs in child processes on one SQLite
 * store (packages/app/test/support/crash-support.ts), killed with SIGKILL and started again as a restarted
 * deployment would be. Leases, the service timeout and the settle horizon are shortened through
 * the app's options so that a run takes a minute, not an afternoon; the rules are the same.
 *
 * 1. Kill -9 under load: N `/split` commands at concurrency 8, the app killed K times while they
 *    are in flight and started again at once. A command whose delivery failed (the app was down)
 *    is delivered again after the restart, as Slack retries. Then: acknowledged commands lost
 *    (never answered, or not booked), double bookings.
 * 2. A slow service: create_expense answers after 10 s and after 30 s. A simulated person books,
 *    and books again if told it is safe to. Double bookings, and answers that said "not booked".
 * 3. Duplicates across restarts: D commands and D form submissions, each delivered to an app that
 *    is killed, then delivered again (Slack's retry; a second click on Submit) to the restarted
 *    app. Bookings per command, and answers.
 * 4. Receipts an attacker chooses (bench/faults-abuse.ts): a 300 MB "jpg" served by the simulated
 *    workspace, with its size said and unsaid, a file host that trickles, and a download address
 *    on another port. The app's memory, the longest /healthz, where the bot token went.
 * 5. Texts and clicks from inside the workspace (bench/faults-abuse.ts): a command naming 400
 *    people, a 4,000-character hostile text, "Split this" on a 40,000-character message, Undo
 *    pressed by someone who did not book, then /split disconnect and app_uninstalled, and the
 *    rows of the store that still name the person or the workspace. Runs last: it uninstalls.
 */

import { control, type Loose } from '@split/service-emulator/testing';
import {
  type AppChild,
  type CrashWorld,
  eventually,
  type Sent,
  startCrashWorld,
} from '../packages/app/test/support/crash-support.js';
import { receiptAbuse, workspaceAbuse } from './faults-abuse.js';

const COMMANDS = Number(process.env.FAULTS_COMMANDS ?? 60);
const KILLS = Number(process.env.FAULTS_KILLS ?? 3);
const TRIALS = Number(process.env.FAULTS_TRIALS ?? 4);
const DUPLICATES = Number(process.env.FAULTS_DUPLICATES ?? 10);
const PARTS = new Set((process.env.FAULTS_PARTS ?? 'kill,slow,dup,receipt,abuse').split(','));

const OPTIONS = {
  serviceTimeoutMs: 2_000,
  reconcileDelayMs: 250,
  serviceSettleMs: 35_000,
  jobs: { leaseMs: 1_000, pollMs: 200 },
};
/** Under kills the service is fast: what a lost create needs is the horizon, kept short here. */
const FAST_OPTIONS = { ...OPTIONS, serviceSettleMs: 3_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const letters = (i: number) =>
  i
    .toString(26)
    .split('')
    .map((d) => String.fromCharCode(97 + Number.parseInt(d, 26)))
    .join('')
    .padStart(3, 'a');

function booked(world: CrashWorld, sent: Sent): number {
  return world.answers(sent).filter((p) => (p.body as Loose).response_type === 'in_channel').length;
}

async function killUnderLoad(world: CrashWorld): Promise<void> {
  let app: AppChild = await world.start(FAST_OPTIONS);
  await control(world.emu.url, 'POST', 'faults', {
    path: '/api/v3.0/create_expense',
    latency_ms: 150,
  });
  const texts = Array.from({ length: COMMANDS }, (_, i) => `9 kill lunch ${letters(i)} <@U0BOB>`);
  const acked: Sent[] = [];
  const undelivered: Sent[] = [];
  let next = 0;
  let restarting: Promise<void> | undefined;
  const killEvery = Math.max(1, Math.floor(COMMANDS / (KILLS + 1)));
  let kills = 0;
  const worker = async () => {
    while (next < texts.length) {
      const i = next++;
      if (i > 0 && i % killEvery === 0 && kills < KILLS) {
        kills += 1;
        const dead = app;
        restarting = (async () => {
          await dead.kill();
          app = await world.start(FAST_OPTIONS);
        })();
      }
      await restarting;
      const text = texts[i]!;
      try {
        const sent = await world.command(app, text);
        (sent.status === 200 ? acked : undelivered).push(sent);
      } catch {
        undelivered.push({ id: '', trigger_id: '', response_url: '', text, status: 0 });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await restarting;
  // Slack delivers again what was not acknowledged (a fresh delivery when it never arrived).
  for (const sent of undelivered) {
    const again = await world.command(app, sent.text, sent.id ? sent : undefined);
    if (again.status === 200) acked.push(again);
  }
  await eventually(() => acked.every((s) => booked(world, s) >= 1), 60_000, 'answers').catch(
    () => undefined,
  );
  await control(world.emu.url, 'DELETE', 'faults');
  await sleep(FAST_OPTIONS.serviceSettleMs);
  const expenses = await world.expenses();
  const description = (s: Sent) => s.text.replace(/^9 (.*) <@U0BOB>$/, '$1');
  const lost = acked.filter((s) => booked(world, s) === 0 || !expenses.get(description(s))).length;
  const doubles = texts
    .map((t) => expenses.get(t.replace(/^9 (.*) <@U0BOB>$/, '$1')) ?? 0)
    .filter((n) => n > 1).length;
  console.log(`kill -9 under load: ${COMMANDS} commands, ${kills} kills`);
  console.log(
    `  acknowledged: ${acked.length} (${undelivered.length} redelivered after a refusal)`,
  );
  console.log(`  acknowledged commands lost: ${lost}`);
  console.log(`  double bookings: ${doubles}`);
  await app.stop();
}

async function slowService(world: CrashWorld, latency: number): Promise<void> {
  const app = await world.start(OPTIONS);
  await control(world.emu.url, 'POST', 'faults', {
    path: '/api/v3.0/create_expense',
    latency_ms: latency,
    times: TRIALS,
  });
  const final = (s: Sent) =>
    world
      .answers(s)
      .find(
        (p) =>
          (p.body as Loose).response_type === 'in_channel' ||
          !String((p.body as Loose).text).includes("hasn't confirmed"),
      );
  let saidNotBooked = 0;
  let answered = 0;
  const started = Date.now();
  const name = latency === 10_000 ? 'ten' : latency === 30_000 ? 'thirty' : letters(latency);
  const descriptions = Array.from({ length: TRIALS }, (_, i) => `slow ${name} ${letters(i)}`);
  await Promise.all(
    descriptions.map(async (d) => {
      const sent = await world.command(app, `15 ${d} <@U0BOB>`);
      const waited = await eventually(
        () => final(sent) !== undefined,
        latency + 40_000,
        'an answer',
      )
        .then(() => true)
        .catch(() => false);
      if (!waited) return;
      answered += 1;
      if (/not booked|safe to try again/i.test(String((final(sent)!.body as Loose).text))) {
        saidNotBooked += 1;
        // The person does as told: books it again.
        await world.command(app, `15 ${d} <@U0BOB>`);
      }
    }),
  );
  await sleep(Math.max(0, started + latency + 2_000 - Date.now()));
  const expenses = await world.expenses();
  const doubles = descriptions.filter((d) => (expenses.get(d) ?? 0) > 1).length;
  const missing = descriptions.filter((d) => !expenses.get(d)).length;
  console.log(`create_expense answering after ${latency / 1000} s: ${TRIALS} trials`);
  console.log(
    `  told "not booked": ${saidNotBooked}; double bookings: ${doubles}; not booked: ${missing}; no answer: ${TRIALS - answered}`,
  );
  await app.stop();
}

async function duplicates(world: CrashWorld): Promise<void> {
  await control(world.emu.url, 'POST', 'faults', {
    path: '/api/v3.0/create_expense',
    latency_ms: 1_000,
  });
  let first = await world.start(FAST_OPTIONS);
  const commands: Sent[] = [];
  const forms: Awaited<ReturnType<CrashWorld['submitForm']>>[] = [];
  for (let i = 0; i < DUPLICATES; i += 1) {
    commands.push(await world.command(first, `7 twice tea ${letters(i)} <@U0BOB>`));
    forms.push(await world.submitForm(first, `twice taxi ${letters(i)}`));
  }
  await sleep(300);
  await first.kill();
  const second = await world.start(FAST_OPTIONS);
  for (const sent of commands) await world.command(second, sent.text, sent);
  for (const sent of forms) await world.submitForm(second, sent.description, sent);
  // A third delivery, after the second app has answered, to a third app.
  await eventually(
    () =>
      commands.every((s) => booked(world, s) >= 1) &&
      forms.every((f) => world.formAnswers(f.description) >= 1),
    60_000,
    'answers',
  ).catch(() => undefined);
  await second.kill();
  first = await world.start(FAST_OPTIONS);
  for (const sent of commands) await world.command(first, sent.text, sent);
  for (const sent of forms) await world.submitForm(first, sent.description, sent);
  await control(world.emu.url, 'DELETE', 'faults');
  await sleep(FAST_OPTIONS.serviceSettleMs);
  const expenses = await world.expenses();
  const descriptions = [
    ...commands.map((s) => s.text.replace(/^7 (.*) <@U0BOB>$/, '$1')),
    ...forms.map((f) => f.description),
  ];
  const doubles = descriptions.filter((d) => (expenses.get(d) ?? 0) > 1).length;
  const missing = descriptions.filter((d) => !expenses.get(d)).length;
  const unanswered =
    commands.filter((s) => booked(world, s) !== 1).length +
    forms.filter((f) => world.formAnswers(f.description) !== 1).length;
  console.log(
    `duplicates across restarts: ${DUPLICATES} commands and ${DUPLICATES} forms, each delivered 3 times to 3 processes`,
  );
  console.log(
    `  double bookings: ${doubles}; not booked: ${missing}; not answered exactly once: ${unanswered}`,
  );
  await first.stop();
}

const world = await startCrashWorld();
try {
  if (PARTS.has('kill')) await killUnderLoad(world);
  if (PARTS.has('slow')) {
    await slowService(world, 10_000);
    await slowService(world, 30_000);
  }
  if (PARTS.has('dup')) await duplicates(world);
  if (PARTS.has('receipt')) await receiptAbuse(world, OPTIONS);
  if (PARTS.has('abuse')) await workspaceAbuse(world, OPTIONS);
} finally {
  await world.close();
}
