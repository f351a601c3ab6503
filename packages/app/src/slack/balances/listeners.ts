import type { SlackDeps } from '../deps.js';
import { LEDGER_ACTIONS, SETTLE_FORM } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { remindClicked, reminderOffClicked } from './remind.js';
import { settlePartClicked, settlePartSubmitted } from './settle-part.js';
import { SETTLE_PART_JOB, settlePartJob } from './settle-part-job.js';
import { settleCancelled, settleUpClicked } from './settle-up.js';

export function balanceListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(LEDGER_ACTIONS.settleUp, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleConfirm, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleCancel, settleCancelled);
  table.action(LEDGER_ACTIONS.remind, remindClicked(deps));
  table.action(LEDGER_ACTIONS.reminderOff, reminderOffClicked(deps));
  table.action(LEDGER_ACTIONS.settlePart, settlePartClicked(deps));
  table.view(SETTLE_FORM.callback, settlePartSubmitted(deps));
  table.job(SETTLE_PART_JOB, settlePartJob(deps));
}
