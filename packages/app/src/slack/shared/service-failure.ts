/**
 * What a person reads when the expense service fails: one specific sentence per kind of failure,
 * in their language, never the error's own text (which is for logs) and never a credential. What
 * the service said itself is quoted, escaped for mrkdwn.
 */
import {
  ServiceBaseException,
  ServiceConnectionException,
  ServiceNotAllowedException,
  ServiceNotFoundException,
  ServiceRateLimitedException,
  ServiceServerException,
  ServiceTimeoutException,
  ServiceUnauthorizedException,
} from '../../service/index.js';
import { mrkdwn } from '../kit/text.js';
import type { Voice } from './voice.js';

interface FailureText {
  /** mrkdwn, in the reader's language. */
  text: string;
  /** The token no longer works: remove it and ask the person to connect again. */
  relink: boolean;
}

/** The service's own words, when it gave any, as it wrote them (escape them for where they go). */
export function serviceMessage(errors: Record<string, string[]> | undefined): string | undefined {
  if (!errors) return undefined;
  const parts = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => (field === 'base' ? m : `${field}: ${m}`)),
  );
  return parts.length > 0 ? parts.slice(0, 3).join('; ') : undefined;
}

/** An empty `nothingDone` leaves no double space behind. */
function tidy(text: string): string {
  return text.replace(/ {2,}/g, ' ').trim();
}

/**
 * The service refused, in its own words when it gave any. `nothingDone` finishes the sentence
 * ("Nothing was booked."), written in the reader's voice as mrkdwn.
 */
export function refusedText(
  voice: Voice,
  errors: Record<string, string[]>,
  nothingDone: string,
): string {
  const said = serviceMessage(errors);
  return tidy(
    said
      ? voice.t('service.refused', { reason: mrkdwn(said), nothing: nothingDone })
      : voice.t('service.refused_no_reason', { nothing: nothingDone }),
  );
}

/** True when the service no longer takes the person's token: remove the link, ask again. */
export function needsRelink(error: unknown): boolean {
  return error instanceof ServiceUnauthorizedException && error.http_status === 401;
}

/**
 * `nothingDone` finishes the sentence for the operation ("Nothing was booked."), in the reader's
 * voice, since a failure reaching here means the service certainly did nothing (unknown outcomes
 * of a create are reconciled before this).
 */
export function describeServiceFailure(
  voice: Voice,
  error: unknown,
  nothingDone: string,
): FailureText {
  const nothing = nothingDone;
  const said = (text: string): FailureText => ({ text: tidy(text), relink: false });
  if (needsRelink(error)) return { text: voice.t('service.relink'), relink: true };
  if (error instanceof ServiceTimeoutException)
    return said(voice.t('service.timeout', { nothing }));
  if (error instanceof ServiceConnectionException) {
    return said(voice.t('service.unreachable', { nothing }));
  }
  if (error instanceof ServiceRateLimitedException) {
    return said(
      error.retry_after_ms
        ? voice.t('service.rate_limited_for', {
            nothing,
            seconds: Math.ceil(error.retry_after_ms / 1000),
          })
        : voice.t('service.rate_limited', { nothing }),
    );
  }
  if (error instanceof ServiceServerException) {
    return said(voice.t('service.server', { nothing }));
  }
  if (error instanceof ServiceNotAllowedException) {
    const reason = serviceMessage(error.errors);
    return said(
      reason
        ? voice.t('service.refused', { reason: mrkdwn(reason), nothing })
        : voice.t('service.not_allowed', { nothing }),
    );
  }
  if (error instanceof ServiceNotFoundException) {
    return said(voice.t('service.not_found', { nothing }));
  }
  if (error instanceof ServiceBaseException) {
    const reason = serviceMessage(error.errors);
    return said(
      reason
        ? voice.t('service.refused', { reason: mrkdwn(reason), nothing })
        : voice.t('service.unreadable', { nothing }),
    );
  }
  return said(voice.t('service.our_side', { nothing }));
}
