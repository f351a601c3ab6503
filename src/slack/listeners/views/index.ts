import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { EXPENSE_CALLBACKS } from '../../ids.js';
import { commentSubmitted } from './expense-comment.js';
import { expenseFormSubmitted } from './expense-form.js';
import { expenseSplitSubmitted } from './expense-split.js';

export function registerViews(app: App, deps: SlackDeps): void {
  app.view(EXPENSE_CALLBACKS.form, expenseFormSubmitted(deps));
  app.view(EXPENSE_CALLBACKS.splitStep, expenseSplitSubmitted(deps));
  app.view(EXPENSE_CALLBACKS.comment, commentSubmitted(deps));
}
