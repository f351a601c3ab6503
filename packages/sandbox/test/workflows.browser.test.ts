// Workflows in the sandbox, as a workspace admin makes them in the page's Workflows panel: a
// "Friday lunch form" whose Book an expense step books once from what the form asks and answers
// in the channel; a scheduled Post balances that posts them when its time comes; a bad amount that
// fails the step with the app's message and books nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  EmulatorReader,
  type Flows,
  lastMessage,
  link,
  open,
  PEOPLE,
  startFlows,
} from './harness.js';
import { createWorkflow, endedRun, openPanel, runState, startWorkflow } from './workflow-steps.js';

const chromiumPath = inject('chromiumPath');

let flows: Flows;
let emulator: EmulatorReader;

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  emulator = await EmulatorReader.connect(flows.sandbox.emulatorUrl);
  await link(flows, 'Ada');
  await open(flows.page, '#general');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

/** A local date-time a minute ago, as a datetime-local field takes it: due at once. */
function aMinuteAgo(): string {
  const at = new Date(Date.now() - 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

describe.skipIf(!chromiumPath)('workflows', () => {
  it('books once from a form, shows the summary, and answers in the channel', async () => {
    const { page } = flows;
    await createWorkflow(page, {
      name: 'Friday lunch form',
      step: 'Book an expense',
      inputs: {
        Payer: { from: 'runner' },
        Amount: { from: 'form' },
        Description: { from: 'form' },
        'People who share it': { from: 'form' },
        Channel: { from: 'value', pick: '#general' },
      },
    });
    await startWorkflow(page, 'Friday lunch form', {
      Amount: '42.50',
      Description: 'Team lunch',
      'People who share it': ['Grace'],
    });
    const run = await endedRun(page, 'Friday lunch form');
    expect(await runState(run)).toBe('completed');
    expect(await run.innerText()).toMatch(
      /summary\s*\S+ paid .*42\.50 for Team lunch, shared by 2 people/,
    );
    const id = (
      await run.locator('dt', { hasText: 'expense_id' }).locator('+ dd').innerText()
    ).trim();
    const expense = await emulator.expense(PEOPLE.Ada, id);
    expect(expense.description).toBe('Team lunch');
    expect(expense.shares.get(PEOPLE.Grace)?.owed).toBe('21.25');
    await lastMessage(page, 'Team lunch').waitFor();
    const all = await emulator.get<{ expenses: { description: string; deleted_at: unknown }[] }>(
      PEOPLE.Ada,
      'get_expenses?limit=0',
    );
    expect(
      all.expenses.filter((e) => e.description === 'Team lunch' && !e.deleted_at),
    ).toHaveLength(1);
  });

  it('fails a bad amount with a clear message and books nothing', async () => {
    const { page } = flows;
    await startWorkflow(page, 'Friday lunch form', {
      Amount: '0',
      Description: 'Nothing lunch',
      'People who share it': ['Grace'],
    });
    const run = await endedRun(page, 'Friday lunch form');
    expect(await run.locator('.wf-error').innerText()).toBe(
      'The amount must be a number above zero, such as 40 or 12.50. Nothing was booked.',
    );
    const all = await emulator.get<{ expenses: { description: string }[] }>(
      PEOPLE.Ada,
      'get_expenses?limit=0',
    );
    expect(all.expenses.filter((e) => e.description === 'Nothing lunch')).toEqual([]);
  });

  it('speaks the acting person’s language', async () => {
    const { page } = flows;
    await actAs(page, 'Alan');
    const wf = await openPanel(page);
    await wf.getByRole('heading', { name: 'Neuer Workflow' }).waitFor();
    expect(await wf.getByRole('button', { name: 'Workflow erstellen' }).count()).toBe(1);
    await actAs(page, 'Ada');
    await wf.getByRole('heading', { name: 'New workflow' }).waitFor();
  });

  it('posts balances on a schedule', async () => {
    const { page } = flows;
    await createWorkflow(page, {
      name: 'Friday balances',
      step: 'Post balances',
      schedule: aMinuteAgo(),
      inputs: {
        Person: { from: 'value', pick: 'Ada' },
        Channel: { from: 'value', pick: '#general' },
      },
    });
    const run = await endedRun(page, 'Friday balances');
    expect(await runState(run)).toBe('completed');
    expect(await run.innerText()).toContain('Started by its schedule');
    const posted = lastMessage(page, 'posted by a workflow');
    await posted.waitFor();
    expect(await posted.innerText()).toContain('Grace');
    expect(await posted.getByRole('button', { name: 'Settle up' }).count()).toBeGreaterThan(0);
  });
});
