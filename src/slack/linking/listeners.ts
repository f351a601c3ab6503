import type { SlackDeps } from '../deps.js';
import { ACTIONS } from '../ids.js';
import type { ListenerTable } from '../shared/listener-table.js';
import { connectClicked } from './connect-clicked.js';

export function linkingListeners(table: ListenerTable, _deps: SlackDeps): void {
  table.action(ACTIONS.connect, connectClicked);
}
