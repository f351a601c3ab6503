import type { SlackDeps } from '../deps.js';
import { LEDGER_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../shared/listener-table.js';
import { settleCancelled, settleUpClicked } from './settle-up.js';

export function balanceListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(LEDGER_ACTIONS.settleUp, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleConfirm, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleCancel, settleCancelled);
}
