import type { SlackDeps } from '../deps.js';
import { ACTIONS, LINKING_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { connectClicked } from './connect-clicked.js';
import { unlinkClicked } from './unlink.js';

export function linkingListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(ACTIONS.connect, connectClicked(deps));
  table.action(LINKING_ACTIONS.unlink, unlinkClicked(deps));
}
