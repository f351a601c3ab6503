/** Comments on expenses: get_comments, create_comment, delete_comment. */
import type { ApiResult } from '../types.js';
import { type Ctx, ok } from './ctx.js';
import { commentShape } from './expense-shapes.js';
import type { CommentRecord, ExpenseRecord, UserRecord } from './model.js';
import { forbidden, intParam, notFound, pathIdOf, rejectUnknown } from './params.js';
import type { State } from './state.js';
import { escapeHtml, expenseTitle, nameFor } from './text.js';

function visibleExpense(state: State, actor: UserRecord, id: number | undefined): ExpenseRecord {
  const expense = id === undefined ? undefined : state.expenses.get(id);
  if (!expense) throw notFound();
  if (!state.canSeeExpense(actor.id, expense)) throw forbidden();
  return expense;
}

export function getComments({ state, actor, params }: Ctx): ApiResult {
  const expense = visibleExpense(state, actor, intParam(params, 'expense_id'));
  return ok({ comments: state.liveComments(expense).map((c) => commentShape(state, c)) });
}

export function createComment({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (k) => k === 'expense_id' || k === 'content');
  const expense = visibleExpense(state, actor, intParam(params, 'expense_id'));
  const content = params.content?.trim() ?? '';
  if (content === '') return ok({ comment: {}, errors: { base: ["Content can't be blank"] } });
  const comment: CommentRecord = {
    id: state.next('comment'),
    expense_id: expense.id,
    content,
    comment_type: 'User',
    user_id: actor.id,
    created_at: state.now(),
    deleted_at: null,
  };
  state.comments.set(comment.id, comment);
  expense.comments.push(comment.id);
  state.invalidate(expense.id);
  const recipients = new Set([actor.id, ...expense.shares.map((s) => s.user_id)]);
  state.notify(
    recipients,
    {
      type: 3,
      created_by: actor.id,
      source: { type: 'Expense', id: expense.id },
      image_shape: 'square',
    },
    (reader) =>
      `<strong>${nameFor(state, reader, actor.id)}</strong> commented on <strong>${expenseTitle(expense)}</strong>: “${escapeHtml(content)}”`,
  );
  return ok({ comment: commentShape(state, comment) });
}

export function deleteComment({ state, actor, pathId }: Ctx): ApiResult {
  const comment = state.comments.get(pathIdOf(pathId));
  if (!comment || comment.deleted_at !== null) throw notFound();
  const expense = state.expenses.get(comment.expense_id);
  if (!expense || !state.canSeeExpense(actor.id, expense)) throw forbidden();
  if (comment.comment_type !== 'User' || comment.user_id !== actor.id) throw forbidden();
  comment.deleted_at = state.now();
  state.invalidate(expense.id);
  return ok({ comment: commentShape(state, comment) });
}
