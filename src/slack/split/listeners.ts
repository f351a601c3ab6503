import type { SlackDeps } from '../deps.js';
import { COMMAND } from '../ids.js';
import type { ListenerTable } from '../shared/listener-table.js';
import { splitCommand } from './command.js';

export function splitListeners(table: ListenerTable, deps: SlackDeps): void {
  table.command(COMMAND, splitCommand(deps));
}
