/**
 * Workflow Builder's steps end to end: the simulated workspace (started from manifest.yml, so with
 * its functions) runs workflows made of Book an expense and Post balances, sends the app signed
 * function_executed events with a token for that run alone, and the app books at the emulator
 * through the /split path and completes the step. A run books once however often Slack delivers
 * it, on this replica or another; a bad amount, an unconnected payer, a payer who is not the
 * person running the workflow and a schedule fail the step with a clear message and book nothing.
 */
import { readFileSync } from 'node:fs';
import { call, type Loose } from '@split/service-emulator/testing';
import { readManifest, type WorkflowStep } from '@split/slack-workspace';
import { send } from '@split/slack-workspace/requests';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/compose.js';
import {
  type Harness,
  type LinkedPerson,
  quietLogger,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

const CHANNEL = 'C0001';
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let second: RunningApp;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', locale: 'de-DE', tz: 'Europe/Berlin' });
  h.addSlackUser({ slackId: 'U0EVE', first_name: 'Eve', email: 'eve@example.com' });
  // No e-mail in Slack and no link: Splitwise has no way to reach Nomi.
  h.addSlackUser({ slackId: 'U0NOMI', first_name: 'Nomi' });
  // A second replica of the same deployment: the same store and key, its own process state.
  second = await startApp({
    config: h.config,
    logger: quietLogger(),
    slackRetries: 0,
    serviceTimeoutMs: 1_500,
    serviceRetries: 0,
    reconcileDelayMs: 0,
    serviceSettleMs: 1_500,
    digest: { scheduler: false },
  });
}, 30_000);
afterAll(async () => {
  await second?.stop();
  await h?.close();
});

async function expensesOf(person: LinkedPerson, description: string): Promise<Loose[]> {
  const all = (await call(h.emu.url, person.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
    .expenses as Loose[];
  return all.filter((e) => e.description === description && !e.deleted_at);
}

/** Ann's payments at the service (what Settle up records). */
async function payments(): Promise<Loose[]> {
  const all = (await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
    .expenses as Loose[];
  return all.filter((e) => e.payment === true && !e.deleted_at);
}

const bookFromForm: WorkflowStep = {
  callback_id: 'book_expense',
  inputs: {
    payer: { from: 'runner' },
    amount: { from: 'form' },
    description: { from: 'form' },
    people: { from: 'form' },
    channel: { from: 'value', value: CHANNEL },
  },
};

function lunchForm(name = 'Friday lunch form') {
  return h.slack.workflows.create({
    name,
    channel: CHANNEL,
    createdBy: 'U0ANN',
    trigger: { kind: 'link' },
    steps: [bookFromForm],
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('Book an expense', () => {
  it('books once from a form under retried deliveries to two replicas, answers in the channel, and completes with the expense', async () => {
    const workflow = lunchForm();
    const startedAt = h.slack.calls.length;
    const run = h.slack.workflows.start(workflow.id, {
      user: 'U0ANN',
      form: { amount: 36, description: 'Friday lunch', people: ['U0BOB'] },
    });
    const execution = run.steps[0]!;
    // Slack sends it again (it did not see the ack in time), and a load balancer hands one of
    // those deliveries to the other replica.
    await Promise.all([
      h.slack.workflows.redeliver(execution.function_execution_id, 1),
      send(`${second.url}/slack/events`, SIGNING_SECRET, execution.request).then((r) => r.text()),
    ]);
    const done = await h.slack.workflows.waitForRun(run.id, 20_000);
    expect(done.steps[0]?.error).toBeUndefined();
    expect(done.state).toBe('completed');
    const booked = await expensesOf(ann, 'Friday lunch');
    expect(booked).toHaveLength(1);
    const expense = booked[0]!;
    expect(expense.cost).toBe('36.0');
    expect(expense.currency_code).toBe('EUR');
    expect(String(expense.details)).toContain('Booked from Slack, ref ');
    const outputs = done.steps[0]!.outputs as Record<string, string>;
    expect(outputs.expense_id).toBe(String(expense.id));
    expect(outputs.expense_url).toBe(`https://secure.splitwise.com/expenses/${expense.id}`);
    expect(outputs.summary).toMatch(/paid €36\.00 for Friday lunch, shared by 2 people/);
    // The answer /split gives, in the channel.
    const answer = h.slack.messages(CHANNEL).filter((m) => m.text?.includes('Friday lunch'));
    expect(answer).toHaveLength(1);
    // Every call the run made carried the run's own token, never the installation's.
    const during = h.slack.calls.slice(startedAt);
    const made = during.filter((c) => c.token !== undefined && c.method !== 'auth.test');
    expect(made.map((c) => c.method)).toEqual(
      expect.arrayContaining(['chat.postMessage', 'functions.completeSuccess']),
    );
    for (const c of made) expect(c.token).toBe(execution.token);
    // Later retries find the run done: nothing more is booked or completed.
    await h.slack.workflows.redeliver(execution.function_execution_id, 2);
    await send(`${second.url}/slack/events`, SIGNING_SECRET, execution.request).then((r) =>
      r.text(),
    );
    await settle();
    expect(await expensesOf(ann, 'Friday lunch')).toHaveLength(1);
    expect(
      h.slack
        .callsTo('functions.completeSuccess')
        .filter((c) => c.args.function_execution_id === execution.function_execution_id),
    ).toHaveLength(1);
  });

  it('keeps what people wrote from reading as markup in the summary later steps may post', async () => {
    const workflow = lunchForm('Hostile');
    const run = h.slack.workflows.start(workflow.id, {
      user: 'U0ANN',
      form: { amount: 8, description: '<!channel> lunch', people: ['U0BOB'] },
    });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    const summary = (done.steps[0]!.outputs as { summary: string }).summary;
    expect(summary).toContain('&lt;!channel&gt; lunch');
    expect(summary).not.toContain('<!channel>');
  });

  it('fails an amount of zero or no number with a clear message, and books nothing', async () => {
    const workflow = lunchForm('Bad amounts');
    for (const amount of [0, -5, 'twelve']) {
      const run = h.slack.workflows.start(workflow.id, {
        user: 'U0ANN',
        form: { amount, description: `Bad amount ${String(amount)}`, people: ['U0BOB'] },
      });
      const done = await h.slack.workflows.waitForRun(run.id, 10_000);
      expect(done.state).toBe('failed');
      expect(done.steps[0]?.error).toBe(
        'The amount must be a number above zero, such as 40 or 12.50. Nothing was booked.',
      );
      expect(await expensesOf(ann, `Bad amount ${String(amount)}`)).toEqual([]);
    }
  });

  it('fails for a payer who has not connected, who gets the Connect button by DM, and books nothing', async () => {
    const workflow = lunchForm('Eve lunch');
    const run = h.slack.workflows.start(workflow.id, {
      user: 'U0EVE',
      form: { amount: 20, description: 'Eve lunch', people: ['U0ANN'] },
    });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.state).toBe('failed');
    expect(done.steps[0]?.error).toMatch(
      /^\S+ has not connected Splitwise yet, so nothing was booked\. They got a message with a Connect button\.$/,
    );
    const dm = h.slack.messages('U0EVE').at(-1);
    const actions = (dm?.blocks as Loose[] | undefined)?.find((b) => b.type === 'actions');
    const button = (actions?.elements as Loose[] | undefined)?.[0];
    expect(button?.url).toMatch(/^https?:\/\//);
    expect(await expensesOf(ann, 'Eve lunch')).toEqual([]);
  });

  it('fails for a person Splitwise cannot reach, naming them, and books nothing', async () => {
    const workflow = lunchForm('Unreachable');
    const run = h.slack.workflows.start(workflow.id, {
      user: 'U0ANN',
      form: { amount: 30, description: 'Unreachable lunch', people: ['U0BOB', 'U0NOMI'] },
    });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.state).toBe('failed');
    expect(done.steps[0]?.error).toMatch(/^I can't see nomi's e-mail address in Slack/i);
    expect(done.steps[0]?.error).not.toContain('U0NOMI');
    expect(await expensesOf(ann, 'Unreachable lunch')).toEqual([]);
  });

  it('answers in the payer’s language', async () => {
    const workflow = h.slack.workflows.create({
      name: 'Bob lunch',
      channel: CHANNEL,
      createdBy: 'U0BOB',
      trigger: { kind: 'link' },
      steps: [bookFromForm],
    });
    const run = h.slack.workflows.start(workflow.id, {
      user: 'U0BOB',
      form: { amount: 0, description: 'Nichts', people: ['U0ANN'] },
    });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.steps[0]?.error).toBe(
      'Der Betrag muss eine Zahl über null sein, etwa 40 oder 12.50. Es wurde nichts gebucht.',
    );
  });

  it('books only for the person who runs the workflow: a fixed payer or a schedule books nothing', async () => {
    const onBob = h.slack.workflows.create({
      name: 'On Bob',
      channel: CHANNEL,
      createdBy: 'U0ANN',
      trigger: { kind: 'link' },
      steps: [
        {
          callback_id: 'book_expense',
          inputs: {
            payer: { from: 'value', value: 'U0BOB' },
            amount: { from: 'value', value: 500 },
            description: { from: 'value', value: 'On Bob' },
            people: { from: 'value', value: ['U0ANN'] },
          },
        },
      ],
    });
    const run = h.slack.workflows.start(onBob.id, { user: 'U0ANN' });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.steps[0]?.error).toMatch(/^Die zahlende Person muss die sein/);
    expect(await expensesOf(bob, 'On Bob')).toEqual([]);

    const rent = h.slack.workflows.create({
      name: 'Monthly rent',
      channel: CHANNEL,
      createdBy: 'U0ANN',
      trigger: { kind: 'schedule', at: h.slack.now() + 1_000 },
      steps: [
        {
          callback_id: 'book_expense',
          inputs: {
            payer: { from: 'value', value: 'U0ANN' },
            amount: { from: 'value', value: 1200 },
            description: { from: 'value', value: 'Rent' },
            people: { from: 'value', value: ['U0BOB'] },
          },
        },
      ],
    });
    h.slack.advance(2_000);
    h.slack.workflows.tick();
    const scheduled = h.slack.workflows.runs().find((r) => r.workflow_id === rent.id)!;
    const ended = await h.slack.workflows.waitForRun(scheduled.id, 10_000);
    expect(ended.steps[0]?.error).toMatch(/only for the person who runs the workflow/);
    expect(await expensesOf(ann, 'Rent')).toEqual([]);
  });
});

describe('Post balances', () => {
  it('posts a person’s balances with Settle up buttons on a schedule, and tells them by DM', async () => {
    const workflow = h.slack.workflows.create({
      name: 'Friday balances',
      channel: CHANNEL,
      createdBy: 'U0ANN',
      trigger: { kind: 'schedule', at: h.slack.now() + 1_000, repeat: 'weekly' },
      steps: [
        {
          callback_id: 'post_balances',
          inputs: {
            user: { from: 'value', value: 'U0ANN' },
            channel: { from: 'value', value: CHANNEL },
          },
        },
      ],
    });
    h.slack.advance(2_000);
    h.slack.workflows.tick();
    const run = h.slack.workflows.runs().find((r) => r.workflow_id === workflow.id)!;
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.steps[0]?.error).toBeUndefined();
    expect(done.state).toBe('completed');
    const ts = (done.steps[0]!.outputs as { message_ts: string }).message_ts;
    const posted = h.slack.messages(CHANNEL).find((m) => m.ts === ts)!;
    expect(JSON.stringify(posted.blocks)).toContain('Balances of <@U0ANN>, posted by a workflow');
    expect(posted.text).toMatch(/you are owed €\d+\.\d\d/);
    const buttons = (posted.blocks as Loose[])
      .flatMap((b) => (b.accessory ? [b.accessory as Loose] : ((b.elements as Loose[]) ?? [])))
      .filter((e) => e.type === 'button');
    const settle = buttons.find((b) => b.action_id === 'balance_settle_up')!;
    expect(settle).toBeDefined();
    expect(h.slack.messages('U0ANN').at(-1)?.text).toContain('A workflow posted your balances in');
    // Its Settle up works as the app's others do: Ann records what Bob paid her, with her token.
    expect(await payments()).toEqual([]);
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'message', channel: CHANNEL, ts },
      action: settle,
    });
    await expect.poll(async () => (await payments()).length, { timeout: 10_000 }).toBe(1);
  });

  it('refuses to post someone else’s balances from a workflow another person runs', async () => {
    const workflow = h.slack.workflows.create({
      name: 'Peek',
      channel: CHANNEL,
      createdBy: 'U0EVE',
      trigger: { kind: 'link' },
      steps: [
        {
          callback_id: 'post_balances',
          inputs: {
            user: { from: 'value', value: 'U0ANN' },
            channel: { from: 'value', value: CHANNEL },
          },
        },
      ],
    });
    const before = h.slack.messages(CHANNEL).length;
    const run = h.slack.workflows.start(workflow.id, { user: 'U0EVE' });
    const done = await h.slack.workflows.waitForRun(run.id, 10_000);
    expect(done.steps[0]?.error).toBe(
      "A workflow someone runs posts only that person's own balances. Nothing was posted.",
    );
    expect(h.slack.messages(CHANNEL)).toHaveLength(before);
  });
});
