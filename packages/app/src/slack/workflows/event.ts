/**
 * function_executed: a workflow ran one of the app's steps. The run is written to the durable job
 * queue, keyed by its function_execution_id, before Slack gets its ack: a redelivery (Slack
 * retries an event it did not see acknowledged), another replica's delivery, or a restart finds
 * the same job and adds nothing, so that a run books at most once. Its token is kept sealed.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { STEPS } from '../ids.js';
import { personOf, type StepJob } from './run.js';

export const STEP_JOB = 'workflow-step';

/** The input naming whose work a run is (removed with that person's data). */
const PERSON_INPUT: ReadonlyMap<string, string> = new Map([
  [STEPS.bookExpense, 'payer'],
  [STEPS.postBalances, 'user'],
]);

/** Slack's ids are short; anything longer is not one of its runs. */
const EXECUTION_ID = /^[A-Za-z0-9]{1,40}$/;

export function functionExecuted(deps: SlackDeps) {
  return async (
    args: SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs,
  ): Promise<void> => {
    const { event, body, logger, context } = args;
    // Bolt hands function_executed the ack (a step may ack later); the run is kept before it.
    const ack = (args as unknown as { ack?: () => Promise<void> }).ack ?? (async () => undefined);
    const callback = event.function?.callback_id;
    const person = PERSON_INPUT.get(callback);
    const team_id = body.team_id ?? context.teamId;
    const execution = event.function_execution_id;
    if (!person || !team_id || !EXECUTION_ID.test(execution ?? '') || !event.bot_access_token) {
      await ack();
      return;
    }
    const id = `workflow:${team_id}:${execution}`;
    const job: StepJob = {
      team_id,
      callback_id: callback,
      function_execution_id: execution,
      inputs: event.inputs ?? {},
      token: deps.sealer.seal(id, event.bot_access_token),
    };
    // A store that cannot take it throws here, unacknowledged: Slack delivers the event again.
    const added = await deps.durable.submit(id, STEP_JOB, job, personOf(job, person));
    await ack();
    if (!added) {
      logger.info({
        msg: '{callback}: repeated delivery of run {execution} ignored',
        callback,
        execution,
      });
    }
  };
}
