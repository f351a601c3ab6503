/**
 * Two replicas of the app on one store behave as one app: whichever replica a delivery reaches,
 * a /split is booked once, a button acts once, the daily DM goes out once per person per day, and
 * a settle-up is recorded once. Each is read where it lands: the emulator's expenses and request
 * log, and the calls the simulated workspace recorded.
 *
 * The same scenarios run on two replicas with separate SQLite files, which share nothing: there
 * every one of them acts twice, which shows the checks above can fail and that it is the shared
 * store that keeps them from it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTime } from '../../src/slack/digest/index.js';
import { TEAM } from '../support/harness.js';
import { blockActions, slashCommand } from '../support/slack-requests.js';
import { POSTGRES_URL, REDIS_URL } from '../support/stores.js';
import { type ScratchStore, scratchPostgres, scratchRedis } from './stores.js';
import {
  CHANNEL,
  eventually,
  type Person,
  type ReplicaWorld,
  settled,
  startReplicaWorld,
} from './world.js';

const id = () => randomBytes(6).toString('hex');

interface Button {
  action_id: string;
  value?: string;
}

function buttonIn(blocks: unknown, action_id: string): Button {
  const found: Button[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.action_id === action_id) found.push(record as unknown as Button);
      for (const v of Object.values(record)) walk(v);
    }
  };
  walk(blocks);
  if (!found[0])
    throw new Error(`no ${action_id} button in ${JSON.stringify(blocks).slice(0, 300)}`);
  return found[0];
}

/** `/split <text>` as Ann through replica 0; resolves with the channel message its answer made. */
async function ask(world: ReplicaWorld, text: string) {
  const answerId = id();
  const before = world.slack.messages(CHANNEL).length;
  const status = await world.deliver(
    world.replicas[0],
    slashCommand({
      text,
      user_id: 'U0ANN',
      channel_id: CHANNEL,
      response_url: world.responseUrl(answerId),
    }),
  );
  expect(status).toBe(200);
  await eventually(() => world.answers(answerId).length > 0, 5_000, `an answer to "${text}"`);
  const post = world.answers(answerId)[0]!;
  const message = world.slack
    .messages(CHANNEL)
    .slice(before)
    .find((m) => m.text === (post.body as Loose).text);
  if (!message) throw new Error(`"${text}" made no message in the channel`);
  return message;
}

/**
 * The same click, delivered to both replicas at the same moment, or (`late`) to the second only
 * once the first has answered it: a double click whose second click was slower on its way.
 */
async function clickOnBoth(
  world: ReplicaWorld,
  message: { ts: string; text?: string | undefined; blocks?: unknown[] | undefined },
  button: Button,
  late = false,
): Promise<string> {
  const answerId = id();
  const request = blockActions({
    user_id: 'U0ANN',
    channel_id: CHANNEL,
    actions: { action_id: button.action_id, ...(button.value ? { value: button.value } : {}) },
    message: { ts: message.ts, text: message.text ?? '', blocks: message.blocks ?? [] },
    response_url: world.responseUrl(answerId, { ts: message.ts }),
  });
  const ignored = () =>
    world.replicas.flatMap((r) => r.logger.lines).filter((l) => l.includes('click ignored')).length;
  const ignoredBefore = ignored();
  const [a, b] = world.replicas;
  if (late) {
    expect(await world.deliver(a, request)).toBe(200);
    await eventually(() => world.answers(answerId).length > 0, 10_000, 'the first click answered');
    await settled(world);
    expect(await world.deliver(b, request)).toBe(200);
  } else {
    expect(await Promise.all([world.deliver(a, request), world.deliver(b, request)])).toEqual([
      200, 200,
    ]);
  }
  // Each replica either answers the click or says in its log that it left it to the other.
  await eventually(
    () => world.answers(answerId).length + ignored() - ignoredBefore >= 2,
    10_000,
    `both replicas done with ${button.action_id}`,
  );
  await settled(world);
  return answerId;
}

const described = (expenses: Loose[], description: string) =>
  expenses.filter((e) => e.description === description);

interface Observed {
  /** Expenses booked for one /split delivered to A, then again (a retry) to B once answered. */
  retried: number;
  /** Expenses booked for one /split delivered to A and B at the same moment. */
  duplicated: number;
  /** delete_expense requests the service got for one Delete clicked on both at once. */
  deletes: number;
  /** The same, the second click reaching the other replica after the first was answered. */
  lateDeletes: number;
  /** Daily DMs Ann and Bob each got when both replicas ran the digest at the same moment. */
  dms: [number, number];
  /** Payments recorded for one Settle up confirmed on both. */
  payments: number;
  /** Messages in the channel telling the retried and the duplicated /split booked. */
  told: [number, number];
  /** Answers the workspace got to the Settle up confirmed on both. */
  settleAnswers: number;
}

async function observe(world: ReplicaWorld, ann: Person, bob: Person): Promise<Observed> {
  const [a, b] = world.replicas;

  // A Slack retry: the same delivery (same trigger id and response_url), signed anew, reaching
  // the other replica after the first one answered.
  const retry = slashCommand({
    text: `12 retried taxi <@${bob.slackId}>`,
    user_id: ann.slackId,
    channel_id: CHANNEL,
    trigger_id: world.slack.issueTrigger(),
    response_url: world.responseUrl(id()),
  });
  expect(await world.deliver(a, retry)).toBe(200);
  await settled(world);
  expect(await world.deliver(b, retry)).toBe(200);
  await settled(world);

  // A duplicate delivery reaching both at once.
  const duplicate = slashCommand({
    text: `14 duplicated taxi <@${bob.slackId}>`,
    user_id: ann.slackId,
    channel_id: CHANNEL,
    trigger_id: world.slack.issueTrigger(),
    response_url: world.responseUrl(id()),
  });
  expect(await Promise.all([world.deliver(a, duplicate), world.deliver(b, duplicate)])).toEqual([
    200, 200,
  ]);
  await settled(world);

  // A double click on Delete, each click reaching a different replica. The expense is read
  // slowly, and deleted slowly, so that without a shared claim both replicas find it not yet
  // deleted: on a busy machine one replica's read can reach the service tens of milliseconds
  // after the other's, which is after the other's delete unless the delete takes longer still.
  const deleteCalls = async () =>
    (await world.serviceCounts())['POST /api/v3.0/delete_expense'] ?? 0;
  const deletesOnClick = async (late: boolean) => {
    const booked = await ask(world, `9 clicked lunch <@${bob.slackId}>`);
    const before = await deleteCalls();
    const slow = late
      ? []
      : [
          await control(world.emu.url, 'POST', 'faults', {
            path: '/api/v3.0/get_expense/*',
            latency_ms: 3_000,
            times: 4,
          }),
          await control(world.emu.url, 'POST', 'faults', {
            path: '/api/v3.0/delete_expense/*',
            latency_ms: 3_000,
            times: 2,
          }),
        ];
    await clickOnBoth(world, booked, buttonIn(booked.blocks, 'expense_delete'), late);
    // What a shared claim left unused would slow every later scenario.
    for (const fault of slow) await control(world.emu.url, 'DELETE', `faults/${fault.body.id}`);
    return (await deleteCalls()) - before;
  };
  const deletes = await deletesOnClick(false);
  const lateDeletes = await deletesOnClick(true);

  // The daily DM, both replicas running it at the same moment.
  const now = new Date();
  for (const person of [ann, bob]) {
    for (const replica of world.replicas) {
      await replica.app.deps.digest.enable(
        { team_id: TEAM, user_id: person.slackId },
        { tz: 'Europe/Paris', hour: localTime(now, 'Europe/Paris').hour, always: true },
      );
    }
  }
  const dmsBefore = [ann, bob].map((p) => world.slack.messages(p.slackId).length);
  await Promise.all(world.replicas.map((r) => r.app.digest.runner.runDue(now)));
  const dms = [ann, bob].map((p, i) => world.slack.messages(p.slackId).length - dmsBefore[i]!);

  // Settle up, confirmed on both. The first payment is applied 3 s late (the emulator handles a
  // slow request late, not just answers it late), so that without a shared claim the other
  // replica reads the balance before any payment is applied, however the two clicks are spread
  // on a busy machine. Slowing the balance reads instead raced: both reads were handled 3 s on,
  // and the later one could come after the first payment (the control then saw one). It stays
  // under the replicas' service timeout of 5 s.
  const balance = await ask(world, 'balance');
  await control(world.emu.url, 'POST', 'faults', {
    path: '/api/v3.0/create_expense',
    latency_ms: 3_000,
    times: 1,
  });
  const settleId = await clickOnBoth(world, balance, buttonIn(balance.blocks, 'balance_settle_up'));
  const payments = (await world.expenses(ann)).filter((e) => e.payment).length;
  const told = ['retried taxi', 'duplicated taxi'].map(
    (what) => world.slack.messages(CHANNEL).filter((m) => String(m.text).includes(what)).length,
  );

  const expenses = await world.expenses(ann);
  return {
    retried: described(expenses, 'retried taxi').length,
    duplicated: described(expenses, 'duplicated taxi').length,
    deletes,
    lateDeletes,
    dms: dms as [number, number],
    payments,
    told: told as [number, number],
    settleAnswers: world.answers(settleId).length,
  };
}

const backends: Array<[string, () => Promise<ScratchStore>, boolean]> = [
  ['Redis', scratchRedis, !REDIS_URL],
  ['PostgreSQL', scratchPostgres, !POSTGRES_URL],
];

for (const [name, scratch, missing] of backends)
  describe.skipIf(missing)(`two replicas on one ${name} store`, () => {
    let store: ScratchStore | undefined;
    let world: ReplicaWorld | undefined;
    let ann: Person;
    let bob: Person;
    beforeAll(async () => {
      store = await scratch();
      world = await startReplicaWorld([store.url, store.url]);
      ann = await world.link('U0ANN', 'Ann');
      bob = await world.link('U0BOB', 'Bob');
    });
    afterAll(async () => {
      await world?.close();
      await store?.drop();
    });

    it('act as one app: each delivery, click, daily DM and settle-up happens once', async () => {
      const seen = await observe(world!, ann, bob);
      expect(seen).toEqual({
        retried: 1,
        duplicated: 1,
        deletes: 1,
        lateDeletes: 1,
        dms: [1, 1],
        payments: 1,
        told: [1, 1],
        settleAnswers: 1,
      });
      // Both replicas took part: each acknowledged every delivery above and answered Slack.
      for (const replica of world!.replicas) {
        expect(replica.logger.lines.filter((l) => l.startsWith('error'))).toEqual([]);
      }
    }, 60_000);
  });

describe('two replicas on separate SQLite files (no shared store): the control', () => {
  let dir: string | undefined;
  let world: ReplicaWorld | undefined;
  let ann: Person;
  let bob: Person;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-replicas-control-'));
    world = await startReplicaWorld([`sqlite://${dir}/a.sqlite`, `sqlite://${dir}/b.sqlite`]);
    ann = await world.link('U0ANN', 'Ann');
    bob = await world.link('U0BOB', 'Bob');
  });
  afterAll(async () => {
    await world?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('acts twice in every scenario, so each check above can fail', async () => {
    expect(await observe(world!, ann, bob)).toEqual({
      retried: 2,
      duplicated: 2,
      deletes: 2,
      // The expense's own state stops a click that comes after the change, store or not.
      lateDeletes: 1,
      dms: [2, 2],
      payments: 2,
      told: [2, 2],
      settleAnswers: 2,
    });
  }, 60_000);
});
