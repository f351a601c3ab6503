/**
 * A workflow's Book an expense survives a crash: the app is killed with SIGKILL while the run's
 * create is at the service, not yet applied; the app started again on the same store takes the
 * run's job over (its token kept sealed in it), finds the expense by its marker instead of sending
 * it again, and completes the step once, even when Slack delivers the event again meanwhile.
 */
import { readFileSync } from 'node:fs';
import { readManifest } from '@split/slack-workspace';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRASH_OPTIONS, crashSuite, slowNextCreate } from '../../support/crash-suite.js';
import type { CrashWorld } from '../../support/crash-support.js';
import { SIGNING_SECRET } from '../../support/harness.js';

const suite = crashSuite();
let world: CrashWorld;
beforeAll(() => {
  world = suite.world();
  world.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
});

describe('a crash during a workflow step', () => {
  it('books once and completes once after a restart, with a redelivery on the way', async () => {
    const first = await suite.start();
    world.slack.connectApp({ appUrl: first.eventsUrl, signingSecret: SIGNING_SECRET });
    const killWhenSent = await slowNextCreate(world);
    const workflow = world.slack.workflows.create({
      name: 'Crash lunch',
      channel: 'C0001',
      createdBy: 'U0ANN',
      trigger: { kind: 'link' },
      steps: [
        {
          callback_id: 'book_expense',
          inputs: {
            payer: { from: 'runner' },
            amount: { from: 'value', value: 27 },
            description: { from: 'value', value: 'crash workflow lunch' },
            people: { from: 'value', value: ['U0BOB'] },
            channel: { from: 'value', value: 'C0001' },
          },
        },
      ],
    });
    const run = world.slack.workflows.start(workflow.id, { user: 'U0ANN' });
    const execution = run.steps[0]!;
    await killWhenSent(first);
    expect(world.slack.workflows.execution(execution.function_execution_id)?.state).toBe('running');

    const second = await suite.start();
    world.slack.connectApp({ appUrl: second.eventsUrl, signingSecret: SIGNING_SECRET });
    await world.slack.workflows.redeliver(execution.function_execution_id, 1);
    const done = await world.slack.workflows.waitForRun(run.id, 30_000);
    expect(done.steps[0]?.error).toBeUndefined();
    expect(done.state).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect((await world.expenses()).get('crash workflow lunch')).toBe(1);
    expect(
      world.slack
        .callsTo('functions.completeSuccess')
        .filter((c) => c.args.function_execution_id === execution.function_execution_id),
    ).toHaveLength(1);
  }, 90_000);
});
