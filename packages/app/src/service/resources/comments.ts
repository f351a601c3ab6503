/** Comments on expenses (edition 2 on): get_comments, create_comment, delete_comment. */
import type { Operation } from '../operation.js';
import { applied, resource } from '../results.js';
import type { Comment, CommentResult } from '../types.js';

export const getComments: Operation<{ expense_id: number }, Comment[]> = {
  name: 'getComments',
  method: 'GET',
  path: 'get_comments',
  since: 2,
  params: [{ field: 'expense_id' }],
  read: resource('comments'),
};

export const createComment: Operation<{ expense_id: number; content: string }, CommentResult> = {
  name: 'createComment',
  method: 'POST',
  path: 'create_comment',
  since: 2,
  params: [{ field: 'expense_id' }, { field: 'content', required: true }],
  read: applied<'comment', Comment>('comment'),
};

/** The answer is the comment itself, with deleted_at set. */
export const deleteComment: Operation<{ id: number }, CommentResult> = {
  name: 'deleteComment',
  method: 'POST',
  path: 'delete_comment/{id}',
  since: 2,
  read: applied<'comment', Comment>('comment'),
};
