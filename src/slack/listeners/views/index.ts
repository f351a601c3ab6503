import type { SlackDeps } from '../../deps.js';
import { EXPENSE_CALLBACKS } from '../../ids.js';
import type { ListenerTable } from '../table.js';
import { commentSubmitted } from './expense-comment.js';
import { expenseFormSubmitted } from './expense-form.js';
import { expenseSplitSubmitted } from './expense-split.js';

export function registerViews(table: ListenerTable, deps: SlackDeps): void {
  table.view(EXPENSE_CALLBACKS.form, expenseFormSubmitted(deps));
  table.view(EXPENSE_CALLBACKS.splitStep, expenseSplitSubmitted(deps));
  table.view(EXPENSE_CALLBACKS.comment, commentSubmitted(deps));
}
