/**
 * One error hierarchy for everything the client can fail with, built by one mapping function
 * (`errorFromResponse`) from an HTTP response.
 *
 *   ServiceBaseException
 *   ├── ServiceException                      message + optional HTTP response
 *   │   ├── ServiceUnauthorizedException      401, or no credential for a user operation
 *   │   ├── ServiceNotAllowedException        403
 *   │   ├── ServiceBadRequestException        400
 *   │   ├── ServiceRateLimitedException       429 (after retries, for reads)
 *   │   ├── ServiceServerException            5xx (after retries, for reads)
 *   │   ├── ServiceConnectionException        no HTTP response at all
 *   │   │   └── ServiceTimeoutException       the per-call timeout expired
 *   │   ├── ServiceEditionException           operation or option absent from the edition
 *   │   └── ServiceInputException             input the wire cannot carry; nothing was sent
 *   └── ServiceNotFoundException              404
 *
 * No error ever carries a credential: every text that goes into one passes through a redactor
 * that knows the client's secrets, and request headers are never kept.
 */

/** Validation errors as the service reports them, normalised: field (or "base") -> messages. */
export type ServiceErrors = Record<string, string[]>;

/** What an error keeps of an HTTP response. */
interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text (JSON bodies are kept as their text). */
  body: string;
}

interface ServiceErrorOptions {
  response?: ErrorResponse;
  errors?: ServiceErrors;
  /** True when the service may have applied the request although the call failed. */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export class ServiceBaseException extends Error {
  override name = 'ServiceBaseException';
  readonly http_status: number | undefined;
  readonly http_headers: Record<string, string> | undefined;
  readonly http_body: string | undefined;
  readonly errors: ServiceErrors | undefined;
  /**
   * Whether the service may have applied a write even though this call failed: true for a write
   * that timed out, lost its connection mid-request or got a 5xx; false when the service certainly
   * did nothing (4xx, connection refused, refused locally before sending) and for every read. A
   * caller that created something and sees `true` must reconcile (look for the object) rather
   * than send it again.
   */
  readonly outcome_unknown: boolean;

  constructor(message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.http_status = options.response?.status;
    this.http_headers = options.response?.headers;
    this.http_body = options.response?.body;
    this.errors = options.errors;
    this.outcome_unknown = options.outcomeUnknown ?? false;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      http_status: this.http_status,
      http_headers: this.http_headers,
      http_body: this.http_body,
      errors: this.errors,
      outcome_unknown: this.outcome_unknown,
    };
  }
}

/** A failure built from a message and, when there was one, the HTTP response. */
export class ServiceException extends ServiceBaseException {
  override name = 'ServiceException';
}

export class ServiceUnauthorizedException extends ServiceException {
  override name = 'ServiceUnauthorizedException';
}

export class ServiceNotAllowedException extends ServiceException {
  override name = 'ServiceNotAllowedException';
}

export class ServiceNotFoundException extends ServiceBaseException {
  override name = 'ServiceNotFoundException';
}

export class ServiceBadRequestException extends ServiceException {
  override name = 'ServiceBadRequestException';
}

export class ServiceRateLimitedException extends ServiceException {
  override name = 'ServiceRateLimitedException';
  /** How long the service asked us to wait (from Retry-After), when it said. */
  readonly retry_after_ms: number | undefined;

  constructor(message: string, options: ServiceErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.retry_after_ms = options.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retry_after_ms: this.retry_after_ms };
  }
}

export class ServiceServerException extends ServiceException {
  override name = 'ServiceServerException';
}

/** No HTTP response came back: refused, reset, DNS failure... */
export class ServiceConnectionException extends ServiceException {
  override name = 'ServiceConnectionException';
}

export class ServiceTimeoutException extends ServiceConnectionException {
  override name = 'ServiceTimeoutException';
}

/** The configured edition lacks the operation or option; nothing was sent. */
export class ServiceEditionException extends ServiceException {
  override name = 'ServiceEditionException';
}

/** The input cannot be sent as given (the service would refuse or misread it); nothing was sent. */
export class ServiceInputException extends ServiceException {
  override name = 'ServiceInputException';
}

/**
 * Normalises every shape the service uses for failures into
 * field -> messages: `{"errors":{"base":["x"]}}`, `{"errors":{"name":"x"}}`, `{"errors":["x"]}`,
 * `{"error":"x"}`. Empty forms (`{}`, `[]`, null, absent) give `{}`.
 */
export function normaliseErrors(body: unknown): ServiceErrors {
  const out: ServiceErrors = {};
  if (body === null || typeof body !== 'object') return out;
  const record = body as Record<string, unknown>;
  const add = (key: string, value: unknown) => {
    const list = Array.isArray(value) ? value : [value];
    const messages = list
      .filter((m) => m !== null && m !== undefined && m !== '')
      .map((m) => (typeof m === 'string' ? m : JSON.stringify(m)));
    if (messages.length > 0) out[key] = [...(out[key] ?? []), ...messages];
  };
  const errors = record.errors;
  if (Array.isArray(errors)) add('base', errors);
  else if (errors && typeof errors === 'object') {
    for (const [key, value] of Object.entries(errors)) add(key, value);
  } else if (typeof errors === 'string') add('base', errors);
  if (typeof record.error === 'string' && record.error !== '') add('base', record.error);
  return out;
}

export function hasErrors(errors: ServiceErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** The first message of a normalised error set, for a one-line summary. */
export function firstMessage(errors: ServiceErrors | undefined): string | undefined {
  if (!errors) return undefined;
  for (const messages of Object.values(errors)) {
    if (messages[0]) return messages[0];
  }
  return undefined;
}

/** Replaces every known secret in a text by `[redacted]`. */
export type Redactor = (text: string) => string;

export function makeRedactor(secrets: Iterable<string | undefined>): Redactor {
  // Longest first, so a secret that contains another is replaced whole.
  const list = [...new Set([...secrets].filter((s): s is string => !!s && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const secret of list) {
      out = out.split(secret).join('[redacted]');
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join('[redacted]');
    }
    return out;
  };
}

/** Response headers worth keeping on an error; cookies and auth challenges are dropped. */
const DROPPED_HEADERS = new Set(['set-cookie', 'authorization', 'www-authenticate', 'cookie']);

export function keptHeaders(headers: Headers, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    if (!DROPPED_HEADERS.has(key.toLowerCase())) out[key.toLowerCase()] = redact(value);
  });
  return out;
}

/**
 * The one mapping from an HTTP failure to an error kind:
 * 400 BadRequest, 401 Unauthorized, 403 NotAllowed, 404 NotFound, 429 RateLimited,
 * 5xx Server, anything else ServiceException.
 */
export function errorFromResponse(
  what: string,
  response: ErrorResponse,
  options: { retryAfterMs?: number; redact: Redactor; write: boolean },
): ServiceBaseException {
  const body = options.redact(response.body);
  const safe: ErrorResponse = { ...response, body };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const errors = normaliseErrors(parsed);
  const detail = firstMessage(errors);
  const status = response.status;
  const message = `${what} failed: HTTP ${status}${detail ? ` ${detail}` : ''}`;
  const opts: ServiceErrorOptions = { response: safe, errors };
  switch (true) {
    case status === 400:
      return new ServiceBadRequestException(message, opts);
    case status === 401:
      return new ServiceUnauthorizedException(message, opts);
    case status === 403:
      return new ServiceNotAllowedException(message, opts);
    case status === 404:
      return new ServiceNotFoundException(message, opts);
    case status === 429:
      return new ServiceRateLimitedException(message, {
        ...opts,
        ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
      });
    case status >= 500:
      // A server error on a write says nothing about whether the write was applied.
      return new ServiceServerException(message, { ...opts, outcomeUnknown: options.write });
    default:
      return new ServiceException(message, opts);
  }
}
