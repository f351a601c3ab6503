import type { SlackDeps } from '../deps.js';
import { ACTIONS, EXPENSE_ACTIONS, EXPENSE_CALLBACKS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { commentClicked } from './comment-clicked.js';
import { commentSubmitted } from './comment-submitted.js';
import { deleteClicked, restoreClicked } from './delete-restore.js';
import { detailsClicked } from './details.js';
import { undoClicked } from './undo.js';

export function expenseActionListeners(table: ListenerTable, deps: SlackDeps): void {
  table.action(ACTIONS.undo, undoClicked(deps));
  table.action(EXPENSE_ACTIONS.delete, deleteClicked(deps));
  table.action(EXPENSE_ACTIONS.restore, restoreClicked(deps));
  table.action(EXPENSE_ACTIONS.comment, commentClicked(deps));
  table.view(EXPENSE_CALLBACKS.comment, commentSubmitted(deps));
  table.action(EXPENSE_ACTIONS.details, detailsClicked(deps));
}
