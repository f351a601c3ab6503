import type { SlackDeps } from '../deps.js';
import { COMMAND, LIST_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../shared/listener-table.js';
import { splitCommand } from './command.js';
import { listExportClicked, listPageClicked } from './list-buttons.js';

export function splitListeners(table: ListenerTable, deps: SlackDeps): void {
  table.command(COMMAND, splitCommand(deps));
  table.action(LIST_ACTIONS.previous, listPageClicked(deps));
  table.action(LIST_ACTIONS.next, listPageClicked(deps));
  table.action(LIST_ACTIONS.export, listExportClicked(deps));
}
