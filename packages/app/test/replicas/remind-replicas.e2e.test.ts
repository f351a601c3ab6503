/**
 * Reminders and partial payments on two replicas: two `/split remind @bob` (different
 * invocations) reaching both replicas at the same moment send Bob one DM, and one `/split paid`
 * delivered to both records one payment. On two unshared SQLite files (the control) each replica
 * acts on its own, so both checks can fail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand } from '../support/slack-requests.js';
import { REDIS_URL } from '../support/stores.js';
import { type ScratchStore, scratchRedis } from './stores.js';
import {
  CHANNEL,
  eventually,
  type Person,
  type ReplicaWorld,
  settled,
  startReplicaWorld,
} from './world.js';

const id = () => randomBytes(6).toString('hex');

interface Observed {
  /** Reminder DMs Bob got. */
  dms: number;
  /** Answers telling Ann it was already sent today. */
  refused: number;
  /** Payments recorded for one `/split paid` delivered to both. */
  payments: number;
}

async function observe(world: ReplicaWorld, ann: Person, bob: Person): Promise<Observed> {
  const [a, b] = world.replicas;
  // Bob owes Ann €20.
  const booked = await call(world.emu.url, ann.apiKey, 'POST', 'create_expense', {
    cost: '40',
    description: 'dinner',
    currency_code: 'EUR',
    users__0__user_id: ann.serviceId,
    users__0__paid_share: '40',
    users__0__owed_share: '20',
    users__1__email: bob.email,
    users__1__first_name: 'Bob',
    users__1__paid_share: '0',
    users__1__owed_share: '20',
  });
  expect((booked.body as Loose).errors ?? {}).toEqual({});

  const dmChannel = world.slack.dmChannel(bob.slackId);
  const reminders = () =>
    world.slack.messages(dmChannel).filter((m) => String(m.text).includes('sent you a reminder'));
  const ids = [id(), id()];
  const remind = (answerId: string) =>
    slashCommand({
      text: `remind <@${bob.slackId}>`,
      user_id: ann.slackId,
      channel_id: CHANNEL,
      trigger_id: world.slack.issueTrigger(),
      response_url: world.responseUrl(answerId),
    });
  expect(
    await Promise.all([world.deliver(a, remind(ids[0]!)), world.deliver(b, remind(ids[1]!))]),
  ).toEqual([200, 200]);
  await eventually(
    () => ids.every((answerId) => world.answers(answerId).length > 0),
    10_000,
    'both reminders answered',
  );
  await settled(world);
  const texts = ids.map((answerId) => String((world.answers(answerId)[0]!.body as Loose).text));

  const paid = slashCommand({
    text: `paid 1 to <@${ann.slackId}>`,
    user_id: bob.slackId,
    channel_id: CHANNEL,
    trigger_id: world.slack.issueTrigger(),
    response_url: world.responseUrl(id()),
  });
  expect(await Promise.all([world.deliver(a, paid), world.deliver(b, paid)])).toEqual([200, 200]);
  await settled(world);
  await eventually(
    async () => (await world.expenses(ann)).some((e) => e.payment),
    10_000,
    'the payment recorded',
  );
  await settled(world);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    dms: reminders().length,
    refused: texts.filter((t) => t.includes('already reminded')).length,
    payments: (await world.expenses(ann)).filter((e) => e.payment).length,
  };
}

describe.skipIf(!REDIS_URL)('two replicas on one Redis store', () => {
  let store: ScratchStore | undefined;
  let world: ReplicaWorld | undefined;
  let ann: Person;
  let bob: Person;
  beforeAll(async () => {
    store = await scratchRedis();
    world = await startReplicaWorld([store.url, store.url]);
    ann = await world.link('U0ANN', 'Ann');
    bob = await world.link('U0BOB', 'Bob');
  });
  afterAll(async () => {
    await world?.close();
    await store?.drop();
  });

  it('send one reminder a day and record one payment', async () => {
    expect(await observe(world!, ann, bob)).toEqual({ dms: 1, refused: 1, payments: 1 });
  }, 60_000);
});

describe('two replicas on separate SQLite files (no shared store): the control', () => {
  let dir: string | undefined;
  let world: ReplicaWorld | undefined;
  let ann: Person;
  let bob: Person;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-remind-control-'));
    world = await startReplicaWorld([`sqlite://${dir}/a.sqlite`, `sqlite://${dir}/b.sqlite`]);
    ann = await world.link('U0ANN', 'Ann');
    bob = await world.link('U0BOB', 'Bob');
  });
  afterAll(async () => {
    await world?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('acts twice, so each check above can fail', async () => {
    expect(await observe(world!, ann, bob)).toEqual({ dms: 2, refused: 0, payments: 2 });
  }, 60_000);
});
