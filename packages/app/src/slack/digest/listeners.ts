import type { SlackDeps } from '../deps.js';
import { LEDGER_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { digestPauseClicked } from './pause-clicked.js';
import { digestSettleUpClicked } from './settle-up-clicked.js';

export function digestListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(LEDGER_ACTIONS.digestSettleUp, digestSettleUpClicked(deps));
  table.action(LEDGER_ACTIONS.digestPause, digestPauseClicked(deps));
}
