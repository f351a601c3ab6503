/** get_notifications: the caller's notifications, newest first. */
import type { ApiResult } from '../types.js';
import { type Ctx, ok } from './ctx.js';
import { notificationShape } from './expense-shapes.js';
import { badRequest, dateParam, intParam } from './params.js';

export function getNotifications({ state, actor, params }: Ctx): ApiResult {
  const after = dateParam(params, 'updated_after');
  const limit = intParam(params, 'limit') ?? 0;
  if (limit < 0) throw badRequest('Invalid value for `limit`: must be 0 or more');
  const list = state.notifications.get(actor.id) ?? [];
  const out = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const n = list[i]!;
    if (after !== undefined && n.created_at < after) break;
    out.push(notificationShape(n));
    if (limit !== 0 && out.length >= limit) break;
  }
  return ok({ notifications: out });
}
