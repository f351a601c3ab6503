/**
 * Comments on expenses (edition 2 on): the comment as the service sends it, and get_comments,
 * create_comment, delete_comment.
 */
import type { ServiceErrors } from '../errors.js';
import type { Operation } from '../operation.js';
import { applied, resource } from '../results.js';
import type { UserSummary } from './users.js';

export interface Comment {
  id: number;
  content: string;
  comment_type: 'User' | 'System' | string;
  relation_type: string;
  relation_id: number;
  created_at: string;
  deleted_at: string | null;
  user: UserSummary | null;
}

/** The comment when the service applied the change; else `errors` says why. */
export type CommentResult = { comment?: Comment; errors: ServiceErrors };

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
