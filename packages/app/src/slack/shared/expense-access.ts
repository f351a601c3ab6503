/**
 * Acting on a booked expense for the person who clicked: through their own token, and only when
 * they are on the expense. Anyone else (or the service's own 403) gets the same explanation.
 */
import type { Expense, ServiceClient } from '../../service/index.js';
import {
  ServiceBaseException,
  ServiceNotAllowedException,
  ServiceNotFoundException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from './message.js';
import { connectPrompt, plainNotice } from './notices.js';
import { describeServiceFailure, needsRelink } from './service-failure.js';
import { type Voice, voiceOf } from './voice.js';

export const NOT_ON_IT =
  "Only the people on this expense can change it, and you're not one of them. Ask whoever booked it.";

export type Access =
  | { ok: true; record: ServiceTokenRecord; client: ServiceClient; expense: Expense }
  | { ok: false; kind: 'connect'; url: string; reason: 'first_time' | 'revoked' }
  | { ok: false; kind: 'refused'; text: string };

/** Maps a service failure on an expense to what the person reads (a 403 means "not on it"). */
export function accessFailure(voice: Voice, error: unknown, nothingDone: string): string {
  if (error instanceof ServiceNotAllowedException) return NOT_ON_IT;
  if (error instanceof ServiceNotFoundException)
    return `That expense no longer exists on the expense service. ${nothingDone}`;
  return describeServiceFailure(voice, error, nothingDone).text;
}

/** A failure while changing an expense: the service's, told as accessFailure tells it, or ours. */
export function changeFailure(voice: Voice, error: unknown, nothingDone: string): string {
  return error instanceof ServiceBaseException
    ? accessFailure(voice, error, nothingDone)
    : `Something went wrong on my side. ${nothingDone}`;
}

/** What someone refused by accessExpense reads: a Connect button, or why not. */
export function deniedMessage(access: Exclude<Access, { ok: true }>): SlackMessage {
  return access.kind === 'connect'
    ? connectPrompt({ url: access.url, reason: access.reason })
    : plainNotice(access.text);
}

export async function accessExpense(
  deps: SlackDeps,
  user: SlackUserKey,
  expenseId: number,
  nothingDone: string,
): Promise<Access> {
  const record = await deps.tokens.get(user);
  if (!record) {
    return {
      ok: false,
      kind: 'connect',
      url: await deps.linking.connectUrl(user),
      reason: 'first_time',
    };
  }
  const client = deps.service.forLink(record);
  try {
    const expense = await client.getExpense(expenseId);
    if (!expense.users.some((u) => u.user_id === record.service_user_id))
      return { ok: false, kind: 'refused', text: NOT_ON_IT };
    return { ok: true, record, client, expense };
  } catch (error) {
    if (needsRelink(error)) {
      await deps.unlinking.unlink(user);
      return {
        ok: false,
        kind: 'connect',
        url: await deps.linking.connectUrl(user),
        reason: 'revoked',
      };
    }
    if (!(error instanceof ServiceBaseException)) throw error;
    const voice = await voiceOf(deps, user);
    return { ok: false, kind: 'refused', text: accessFailure(voice, error, nothingDone) };
  }
}
