import type { SlackDeps } from '../deps.js';
import { CALLBACKS, EXPENSE_ACTIONS, EXPENSE_CALLBACKS, FORM } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { categorySuggestions } from './category-options.js';
import { currencySuggestions } from './currency-options.js';
import { duplicateClicked } from './duplicate.js';
import { editClicked } from './edit-clicked.js';
import { expenseFormSubmitted } from './form-submitted.js';
import { groupPicked } from './group-picked.js';
import { expenseItemiseSubmitted, itemisePreviewClicked } from './itemise-submitted.js';
import { fieldChanged, READ_JOB, readJob } from './receipt/receipt-reading.js';
import { splitMessageShortcut } from './split-message.js';
import { expenseSplitSubmitted } from './split-submitted.js';
import { FORM_JOB, formJob } from './submit.js';

/**
 * The form opens from an empty /split (split/ is handed openNewForm by slack/app.ts), "Split
 * this", Edit and Duplicate; a submitted form is carried out as a durable job.
 */
export function expenseFormListeners(table: ListenerTable, deps: SlackDeps): void {
  table.shortcut(CALLBACKS.splitMessage, splitMessageShortcut(deps));
  table.action(EXPENSE_ACTIONS.edit, editClicked(deps));
  table.action(EXPENSE_ACTIONS.duplicate, duplicateClicked(deps));
  table.view(EXPENSE_CALLBACKS.form, expenseFormSubmitted(deps));
  table.job(FORM_JOB, formJob(deps));
  table.view(EXPENSE_CALLBACKS.splitStep, expenseSplitSubmitted(deps));
  table.view(EXPENSE_CALLBACKS.itemiseStep, expenseItemiseSubmitted(deps));
  table.action(FORM.itemPreview, itemisePreviewClicked(deps));
  table.action(FORM.group, groupPicked(deps));
  // While a photo is read into the form, the fields it fills report each change.
  for (const field of [FORM.amount, FORM.currency, FORM.description, FORM.date]) {
    table.action(field, fieldChanged(deps));
  }
  table.job(READ_JOB, readJob(deps));
  table.options(FORM.currency, currencySuggestions(deps));
  table.options(FORM.category, categorySuggestions(deps));
}
