/**
 * Finding out what became of a create whose outcome is unknown (a timeout, a lost connection, a
 * 5xx, a crash after sending). The service has no idempotency key, so every create carries a
 * marker in its notes (marker.ts); the create is never sent again while it may still land, and
 * its marker is looked for until the service can no longer apply it.
 */
import type { Logger } from '@slack/bolt';
import type { Expense, ServiceClient } from '../../service/index.js';
import type { SlackDeps } from '../deps.js';
import type { Reply } from '../runtime/reply.js';
import { plainNotice } from '../shared/notices.js';
import { carriesMarker } from './marker.js';

const DAY_MS = 24 * 60 * 60_000;

/** Past this, a person waiting for the outcome is told it is being checked (once). */
const SLOW_NOTICE_MS = 5_000;

/**
 * The expense carrying `marker`, among the expenses dated around `date` (the date this app sent,
 * so no clock needs to agree) in the group it was booked into, else among the caller's own; null
 * when none does, 'unknown' when the read failed.
 */
export async function findBooking(
  client: ServiceClient,
  marker: string,
  date: string,
  groupId: number | undefined,
): Promise<Expense | null | 'unknown'> {
  const day = Date.parse(`${date}T00:00:00Z`);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  let around: Expense[];
  try {
    around = await client.getExpenses({
      // Two days either side: the service compares dates in its own time zone.
      dated_after: iso(day - 2 * DAY_MS),
      dated_before: iso(day + 3 * DAY_MS),
      // A group expense the caller only booked (not shares in) is listed under its group only.
      ...(groupId ? { group_id: groupId } : {}),
      limit: 0,
    });
  } catch {
    return 'unknown';
  }
  const marked = around.filter((e) => carriesMarker(e.details, marker));
  // A booking deleted since still was booked: it is reported, never booked again.
  return marked.find((e) => !e.deleted_at) ?? marked[0] ?? null;
}

/** What looking for a create needs: where to look, how long, and whom to tell of a long wait. */
export interface Lookout {
  deps: Pick<SlackDeps, 'settleMs' | 'reconcileDelayMs'>;
  client: ServiceClient;
  marker: string;
  /** Told once when the answer is slow to come, so that the person does not send it again. */
  reply: Pick<Reply, 'ephemeral'>;
  /** What they are told then (mrkdwn, in their voice). */
  slowNotice: string;
  logger: Logger;
}

/** The create being looked for: what it was called, its date and group, when it was sent. */
export interface SentCreate {
  description: string;
  date: string;
  groupId: number | undefined;
  sentAt: number;
}

/**
 * Looks for the marker of a create whose outcome is unknown until it is found, or until the
 * service can no longer apply a request sent at `sentAt` (`settleMs` later) and a look after that
 * moment still does not find it. Returns the expense, null when it certainly was not booked, or
 * 'unknown' when the service could not be read for long after that moment either.
 */
export async function lookUntilSettled(
  look: Lookout,
  sent: SentCreate,
): Promise<Expense | null | 'unknown'> {
  const { deps, logger } = look;
  const horizon = sent.sentAt + deps.settleMs;
  // Reads that fail past the horizon are tried a while longer: the answer must be certain.
  const giveUp = horizon + Math.max(deps.settleMs, 10 * deps.reconcileDelayMs);
  const pause = Math.max(deps.reconcileDelayMs, 100);
  let told = false;
  let wait = deps.reconcileDelayMs;
  for (;;) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    wait = pause;
    const lookedAt = Date.now();
    const found = await findBooking(look.client, look.marker, sent.date, sent.groupId);
    if (found !== null && found !== 'unknown') return found;
    if (found === null && lookedAt >= horizon) return null;
    if (lookedAt >= giveUp) return 'unknown';
    if (!told && horizon - lookedAt > SLOW_NOTICE_MS) {
      told = true;
      logger.info({
        msg: '/split: create of "{description}" not settled yet; told the person',
        description: sent.description,
      });
      await look.reply
        .ephemeral(plainNotice(look.slowNotice))
        .catch((error: Error) =>
          logger.warn({ msg: '/split: could not tell: {error}', error: error.message }),
        );
    }
  }
}
