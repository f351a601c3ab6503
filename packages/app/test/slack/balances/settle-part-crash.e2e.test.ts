/**
 * "Pay part…" is kept once Slack has its ack: the app is killed with SIGKILL (before the job ran,
 * or while its create_expense was at the service) and started again on the same store; the
 * payment is recorded exactly once, read back from the emulator, and the person is told once,
 * even when the same form is submitted again to the restarted app.
 */
import { randomBytes } from 'node:crypto';
import { call, control, type Loose } from '@split/service-emulator/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CRASH_OPTIONS,
  crashSuite,
  SLOW_CREATE_MS,
  slowNextCreate,
} from '../../support/crash-suite.js';
import { type AppChild, type CrashWorld, eventually } from '../../support/crash-support.js';
import { SIGNING_SECRET } from '../../support/harness.js';
import { send, viewSubmission } from '../../support/slack-requests.js';

const suite = crashSuite();
const start = suite.start;
let world: CrashWorld;
beforeAll(() => {
  world = suite.world();
});

/** The debt the forms show: Bob owes Ann, as `/split 60 dinner @bob` left it. */
let debt: { bob: number; currency: string };

beforeAll(async () => {
  const app = await start();
  const sent = await world.command(app, '60 crash dinner <@U0BOB>');
  await eventually(() => world.answers(sent).length > 0, 10_000, 'the dinner to be booked');
  const dinner = (await annExpenses()).find((e) => e.description === 'crash dinner');
  if (!dinner) throw new Error('the dinner was not booked');
  const bob = (dinner.users as Loose[]).find((u) => Number(u.paid_share) === 0);
  debt = { bob: bob?.user_id, currency: dinner.currency_code };
  await app.stop();
}, 60_000);

async function annExpenses(): Promise<Loose[]> {
  const body = (await call(world.emu.url, world.annKey, 'GET', 'get_expenses', { limit: 0 })).body;
  return (body.expenses as Loose[]).filter((e) => !e.deleted_at);
}

async function paymentsOf(minor: number): Promise<Loose[]> {
  return (await annExpenses()).filter(
    (e) => e.payment === true && Math.round(Number(e.cost) * 100) === minor,
  );
}

interface PartSent {
  viewId: string;
  answerId: string;
  meta: string;
  status: number;
  body: string;
}

/** Submits the Pay part form for Bob's debt as Ann (given `again`: the same form once more). */
async function submitPart(
  app: AppChild,
  amount: string,
  again?: PartSent,
  owed = 3000,
): Promise<PartSent> {
  const viewId = again?.viewId ?? `V${randomBytes(6).toString('hex').toUpperCase()}`;
  const answerId = again?.answerId ?? randomBytes(8).toString('hex');
  const ref = { k: 'f', id: debt.bob, c: debt.currency, a: owed, p: 0, v: 'a', n: 'Bob' };
  const meta =
    again?.meta ??
    world.offers.make(
      'pay-part',
      { team_id: 'T0001', user_id: 'U0ANN' },
      JSON.stringify({ r: ref, u: world.slack.responseUrl({ id: answerId }) }),
    );
  const response = await send(
    app.eventsUrl,
    SIGNING_SECRET,
    viewSubmission({
      id: viewId,
      user_id: 'U0ANN',
      callback_id: 'settle_part_form',
      private_metadata: meta,
      values: {
        settle_part_amount: { settle_part_amount: { type: 'plain_text_input', value: amount } },
      },
    }),
  );
  return { viewId, answerId, meta, status: response.status, body: await response.text() };
}

/** What Bob owes Ann now, in minor units. */
async function bobOwes(): Promise<number> {
  const friend = (await call(world.emu.url, world.annKey, 'GET', `get_friend/${debt.bob}`)).body
    .friend as Loose;
  return (friend.balance as Loose[])
    .filter((b) => b.currency_code === debt.currency)
    .reduce((sum, b) => sum + Math.round(Number(b.amount) * 100), 0);
}

const answersTo = (sent: PartSent) =>
  world.slack.responses.filter((p) => p.id === sent.answerId).map((p) => (p.body as Loose).text);

describe('Pay part… across a crash', () => {
  it('is carried out by the restarted app when the first was killed before the job ran', async () => {
    // One job at a time, and a slow /split ahead of it: the payment waits in the queue.
    const first = await start({ work: { maxRunning: 1 } });
    await control(world.emu.url, 'POST', 'faults', {
      path: '/api/v3.0/create_expense',
      latency_ms: SLOW_CREATE_MS,
      times: 1,
    });
    const blocker = await world.command(first, '12 crash blocker <@U0BOB>');
    expect(blocker.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = await submitPart(first, '5');
    expect(sent).toMatchObject({ status: 200, body: '' });
    await first.kill();
    // Killed before the job ran (else this test would prove nothing).
    expect(answersTo(sent)).toEqual([]);
    expect(await paymentsOf(500)).toEqual([]);

    await start();
    await eventually(() => answersTo(sent).length > 0, 30_000, 'the payment to be answered');
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect(await paymentsOf(500)).toHaveLength(1);
    expect(answersTo(sent)).toHaveLength(1);
    expect(answersTo(sent)[0]).toMatch(/^✅ Recorded: Bob paid you \S+5\.00\. Bob still owes you/);
  }, 90_000);

  it('is recorded once when killed with its create at the service, and a resubmit adds nothing', async () => {
    const first = await start();
    // The create reaches the service, which applies it two seconds later; the app dies meanwhile.
    const killWhenSent = await slowNextCreate(world);
    const sent = await submitPart(first, '7');
    expect(sent).toMatchObject({ status: 200, body: '' });
    await killWhenSent(first);
    expect(answersTo(sent)).toEqual([]);

    const second = await start();
    expect(await submitPart(second, '7', sent)).toMatchObject({ status: 200, body: '' });
    await eventually(() => answersTo(sent).length > 0, 30_000, 'the payment to be answered');
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect(await paymentsOf(700)).toHaveLength(1);
    expect(answersTo(sent)).toHaveLength(1);
    expect(answersTo(sent)[0]).toMatch(/^✅ Recorded: Bob paid you \S+7\.00\. Bob still owes you/);
  }, 90_000);

  it('settles the whole debt once when killed with its payment at the service', async () => {
    const owed = await bobOwes();
    expect(owed).toBeGreaterThan(0);
    const first = await start();
    const killWhenSent = await slowNextCreate(world);
    const sent = await submitPart(first, (owed / 100).toFixed(2), undefined, owed);
    expect(sent).toMatchObject({ status: 200, body: '' });
    await killWhenSent(first);
    expect(answersTo(sent)).toEqual([]);

    await start();
    await eventually(() => answersTo(sent).length > 0, 30_000, 'the settling to be answered');
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect(await paymentsOf(owed)).toHaveLength(1);
    expect(await bobOwes()).toBe(0);
    expect(answersTo(sent)).toEqual([
      expect.stringMatching(
        new RegExp(`^✅ Recorded: Bob paid you \\S+${(owed / 100).toFixed(2)}\\.$`),
      ),
    ]);
  }, 90_000);
});
