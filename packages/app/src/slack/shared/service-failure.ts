/**
 * What a person reads when the expense service fails: one specific sentence per kind of failure,
 * written for Slack, never the error's own text (which is for logs) and never a credential.
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

interface FailureText {
  text: string;
  /** The token no longer works: remove it and ask the person to connect again. */
  relink: boolean;
}

/** The service's own words, when it gave any. */
export function serviceMessage(errors: Record<string, string[]> | undefined): string | undefined {
  if (!errors) return undefined;
  const parts = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => (field === 'base' ? m : `${field}: ${m}`)),
  );
  return parts.length > 0 ? parts.slice(0, 3).join('; ') : undefined;
}

export function refusedText(errors: Record<string, string[]>, nothingDone: string): string {
  return `The expense service refused: ${serviceMessage(errors) ?? 'it gave no reason'}. ${nothingDone}`;
}

/**
 * `nothingDone` finishes the sentence for the operation ("Nothing was booked."), since a failure
 * reaching here means the service certainly did nothing (unknown outcomes of a create are
 * reconciled before this).
 */
export function describeServiceFailure(error: unknown, nothingDone: string): FailureText {
  if (error instanceof ServiceUnauthorizedException && error.http_status === 401) {
    return { text: 'Your expense account connection no longer works.', relink: true };
  }
  if (error instanceof ServiceTimeoutException) {
    return {
      text: `The expense service didn't answer in time. ${nothingDone} Try again in a minute.`,
      relink: false,
    };
  }
  if (error instanceof ServiceConnectionException) {
    return {
      text: `I couldn't reach the expense service. ${nothingDone} Try again in a minute.`,
      relink: false,
    };
  }
  if (error instanceof ServiceRateLimitedException) {
    const wait = error.retry_after_ms
      ? ` in ${Math.ceil(error.retry_after_ms / 1000)} seconds`
      : ' in a minute';
    return {
      text: `The expense service asked me to slow down. ${nothingDone} Try again${wait}.`,
      relink: false,
    };
  }
  if (error instanceof ServiceServerException) {
    return {
      text: `The expense service is having trouble right now (HTTP ${error.http_status ?? '5xx'}). ${nothingDone} Try again in a few minutes.`,
      relink: false,
    };
  }
  if (error instanceof ServiceNotAllowedException) {
    return {
      text: `The expense service refused: ${serviceMessage(error.errors) ?? "you're not allowed to do that"}. ${nothingDone}`,
      relink: false,
    };
  }
  if (error instanceof ServiceNotFoundException) {
    return {
      text: `The expense service couldn't find it: it may have been deleted already. ${nothingDone}`,
      relink: false,
    };
  }
  if (error instanceof ServiceBaseException) {
    const said = serviceMessage(error.errors);
    return {
      text: said
        ? `The expense service refused: ${said}. ${nothingDone}`
        : `The expense service gave an answer I couldn't read (HTTP ${error.http_status ?? '?'}). ${nothingDone} Try again in a minute.`,
      relink: false,
    };
  }
  return {
    text: `Something went wrong on my side. ${nothingDone} Try again in a minute.`,
    relink: false,
  };
}
