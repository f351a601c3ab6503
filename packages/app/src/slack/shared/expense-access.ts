/**
 * Acting on a booked expense for the person who clicked: through their own token, and only when
 * they are on the expense. Anyone else (or the service's own 403) gets the same explanation, in
 * their own words.
 */
import type { Expense, ServiceClient } from '../../service/index.js';
import {
  ServiceBaseException,
  ServiceNotAllowedException,
  ServiceNotFoundException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { mrkdwnObject, sectionBlock } from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { connectPrompt } from './notices.js';
import { describeServiceFailure, needsRelink, refusedText } from './service-failure.js';
import type { Voice } from './voice.js';

export type Access =
  | { ok: true; record: ServiceTokenRecord; client: ServiceClient; expense: Expense }
  | { ok: false; kind: 'connect'; url: string; reason: 'first_time' | 'revoked'; voice: Voice }
  /** `notOnIt`: the person is not on the expense (each action words that its own way). */
  | { ok: false; kind: 'refused'; text: string; notOnIt: boolean };

/**
 * A private answer whose text the app wrote in mrkdwn, any text a person or the service wrote
 * inside it already through mrkdwn(); the fallback text is the same, since Slack reads it as
 * mrkdwn too.
 */
export function notice(text: string): SlackMessage {
  const shown = clip(text, LIMITS.sectionText);
  return { text: shown, blocks: [sectionBlock({ text: mrkdwnObject({ text: shown }) })] };
}

/** Two sentences of an answer, as the language puts one after the other. */
export function sentences(voice: Voice, first: string, second: string): string {
  return second === '' ? first : voice.t('expense.sentences', { first, second });
}

/**
 * Maps a service failure on an expense to what the person reads (a 403 means "not on it");
 * `nothingDone` is the sentence that says what did not happen ("Nothing was changed.").
 */
export function accessFailure(error: unknown, nothingDone: string, voice: Voice): string {
  if (error instanceof ServiceNotAllowedException) return voice.t('expense.not_on_it');
  if (error instanceof ServiceNotFoundException)
    return sentences(voice, voice.t('expense.gone'), nothingDone);
  // Already mrkdwn, the service's own words in it written as text.
  return describeServiceFailure(voice, error, nothingDone).text;
}

/** The service's refusal of a change, with its own words, as mrkdwn. */
export function refusal(
  voice: Voice,
  errors: Record<string, string[]>,
  nothingDone: string,
): string {
  return refusedText(voice, errors, nothingDone);
}

/** A failure while changing an expense: the service's, told as accessFailure tells it, or ours. */
export function changeFailure(error: unknown, nothingDone: string, voice: Voice): string {
  return error instanceof ServiceBaseException
    ? accessFailure(error, nothingDone, voice)
    : sentences(voice, voice.t('expense.our_side'), nothingDone);
}

/** What someone refused by accessExpense reads: a Connect button, or why not. */
export function deniedMessage(access: Exclude<Access, { ok: true }>): SlackMessage {
  return access.kind === 'connect'
    ? connectPrompt(access.voice, { url: access.url, reason: access.reason })
    : notice(access.text);
}

export async function accessExpense(
  deps: SlackDeps,
  user: SlackUserKey,
  expenseId: number,
  nothingDone: string,
  voice: Voice,
): Promise<Access> {
  const record = await deps.tokens.get(user);
  if (!record) {
    return {
      ok: false,
      kind: 'connect',
      url: await deps.linking.connectUrl(user),
      reason: 'first_time',
      voice,
    };
  }
  const client = deps.service.forLink(record);
  try {
    const expense = await client.getExpense(expenseId);
    if (!expense.users.some((u) => u.user_id === record.service_user_id))
      return { ok: false, kind: 'refused', text: voice.t('expense.not_on_it'), notOnIt: true };
    return { ok: true, record, client, expense };
  } catch (error) {
    if (needsRelink(error)) {
      await deps.unlinking.unlink(user);
      return {
        ok: false,
        kind: 'connect',
        url: await deps.linking.connectUrl(user),
        reason: 'revoked',
        voice,
      };
    }
    if (!(error instanceof ServiceBaseException)) throw error;
    return {
      ok: false,
      kind: 'refused',
      text: accessFailure(error, nothingDone, voice),
      notOnIt: error instanceof ServiceNotAllowedException,
    };
  }
}
