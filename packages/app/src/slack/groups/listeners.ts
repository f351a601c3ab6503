import type { SlackDeps } from '../deps.js';
import { LEDGER_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { groupDeleteClicked } from './delete-clicked.js';

export function groupListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(LEDGER_ACTIONS.groupDelete, groupDeleteClicked(deps));
}
