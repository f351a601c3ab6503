import type { SlackDeps } from '../deps.js';
import { EVENTS, STEPS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { balancesStep } from './balances-step.js';
import { bookStep } from './book-step.js';
import { functionExecuted, STEP_JOB } from './event.js';
import { type StepHandler, stepJob } from './run.js';

const STEP_HANDLERS: ReadonlyMap<string, StepHandler> = new Map([
  [STEPS.bookExpense, bookStep],
  [STEPS.postBalances, balancesStep],
]);

/** Workflow Builder's steps from this app: Book an expense and Post balances. */
export function workflowListeners(table: ListenerTable, deps: SlackDeps): void {
  table.event(EVENTS.functionExecuted, functionExecuted(deps));
  table.job(STEP_JOB, stepJob(deps, STEP_HANDLERS));
}
