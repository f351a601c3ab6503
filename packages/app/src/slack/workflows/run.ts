/**
 * One run of a workflow step, as its durable job carries it out: the run's own Web API client
 * (the event's bot_access_token, kept sealed in the job), and its completion, sent once. Slack
 * refuses a second completion; a run taken over after a crash that had already completed stops
 * there (its progress says so).
 */
import type { Logger, webApi } from '@slack/bolt';
import type { Sealed, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { JobHandler } from '../runtime/durable.js';
import { JobMovedError } from '../runtime/durable.js';
import { withStepClient } from '../runtime/step-client.js';
import { defaultVoice } from '../shared/voice.js';

/** What the job keeps of a function_executed event. */
export interface StepJob {
  team_id: string;
  callback_id: string;
  function_execution_id: string;
  /** As the workflow handed them over; read by the step (inputs.ts). */
  inputs: unknown;
  /** The run's bot_access_token, sealed with the job's id as its context. */
  token: Sealed;
}

export interface StepProgress {
  /** When the booking's create_expense was sent (the marker's companion, see shared/marker.ts). */
  sentAt?: number;
  /** The run was completed (success or error): nothing more is sent for it. */
  completed?: boolean;
}

export interface StepRun {
  job: StepJob;
  /** The run's own client: every call made for the step goes through it. */
  client: webApi.WebClient;
  /** The job's id: the booking's marker is derived from it. */
  id: string;
  progress: StepProgress;
  save(progress: StepProgress): Promise<void>;
  /** functions.completeSuccess with these outputs. */
  succeed(outputs: Record<string, string>): Promise<void>;
  /** functions.completeError with a message for people (plain text, in the payer's language). */
  fail(message: string): Promise<void>;
  logger: Logger;
}

export type StepHandler = (deps: SlackDeps, run: StepRun) => Promise<void>;

/** Slack shows a step's error as plain text; a long one is cut where Slack would. */
const MAX_ERROR_CHARS = 1_000;

/** Whose the run's work is, for removal with their data: the person it acts for. */
export function personOf(job: Pick<StepJob, 'team_id' | 'inputs'>, field: string): SlackUserKey {
  const inputs = job.inputs as Record<string, unknown> | null;
  const value =
    typeof inputs === 'object' && inputs !== null && Object.hasOwn(inputs, field)
      ? inputs[field]
      : undefined;
  return { team_id: job.team_id, user_id: typeof value === 'string' ? value.slice(0, 32) : '' };
}

export function stepJob(deps: SlackDeps, handlers: ReadonlyMap<string, StepHandler>): JobHandler {
  return async (payload, job, logger) => {
    const step = payload as StepJob;
    const handler = handlers.get(step.callback_id);
    let progress = (job.progress ?? {}) as StepProgress;
    if (!handler || progress.completed) return;
    let token: string;
    try {
      token = deps.sealer.open(job.id, step.token);
    } catch {
      // Without its token the run can neither act nor complete: Slack times the step out.
      logger.error({
        msg: 'workflow step {execution}: its token does not open',
        execution: step.function_execution_id,
      });
      return;
    }
    const client = deps.webClient(token);
    const save = async (next: StepProgress) => {
      progress = { ...progress, ...next };
      await job.save(progress);
    };
    const completed = async (send: () => Promise<unknown>, what: string) => {
      if (progress.completed) return;
      try {
        await send();
      } catch (error) {
        // Slack refused (the run timed out, or was completed already): nothing more can be said.
        logger.warn(
          `workflow step ${step.function_execution_id}: ${what} refused: ${(error as Error).message}`,
        );
      }
      await save({ completed: true });
    };
    const run: StepRun = {
      job: step,
      client,
      id: job.id,
      progress,
      save,
      logger,
      succeed: (outputs) =>
        completed(
          () =>
            client.functions.completeSuccess({
              function_execution_id: step.function_execution_id,
              outputs,
            }),
          'completeSuccess',
        ),
      fail: (message) =>
        completed(
          () =>
            client.functions.completeError({
              function_execution_id: step.function_execution_id,
              error: message.slice(0, MAX_ERROR_CHARS),
            }),
          'completeError',
        ),
    };
    try {
      await withStepClient(step.team_id, client, () => handler(deps, run));
    } catch (error) {
      if (error instanceof JobMovedError) throw error;
      logger.error({
        msg: 'workflow step failed: {error}',
        error: (error as Error).stack ?? String(error),
      });
      // Whatever the fault, the workflow hears the step ended; the payer's language is not known
      // here, so it is said in the default one.
      const voice = await defaultVoice();
      await run.fail(voice.t('workflows.failed'));
    }
  };
}
