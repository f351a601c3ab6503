/** How the digest tells a failure worth retrying from one that is not, and says what it was. */
import {
  ServiceBaseException,
  ServiceConnectionException,
  ServiceRateLimitedException,
  ServiceServerException,
} from '../../service/index.js';

export interface CodedError {
  code?: string;
  retryAfter?: number;
  data?: { error?: string };
}

/** Slack platform errors that mean "try again later" rather than "this will not work". */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** True when the failure did not deliver anything and a later attempt may succeed. */
export function isTransient(error: unknown): boolean {
  if (
    error instanceof ServiceConnectionException ||
    error instanceof ServiceServerException ||
    error instanceof ServiceRateLimitedException
  ) {
    return true;
  }
  const code = (error as CodedError | null)?.code;
  if (
    code === 'slack_webapi_request_error' ||
    code === 'slack_webapi_http_error' ||
    code === 'slack_webapi_rate_limited_error'
  ) {
    return true;
  }
  if (code === 'slack_webapi_platform_error') {
    return TRANSIENT_PLATFORM_ERRORS.has((error as CodedError).data?.error ?? '');
  }
  if (error instanceof ServiceBaseException || code !== undefined) return false;
  // Anything else (the store failing, a malformed answer) is retried: a lost DM is worse than a
  // later attempt, and the claim still guards against a second send.
  return true;
}

export function platformError(error: unknown): string | undefined {
  const e = error as CodedError | null;
  return e?.code === 'slack_webapi_platform_error' ? e.data?.error : undefined;
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
