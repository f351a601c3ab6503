/**
 * Signing of requests to the app, as Slack does it: `v0=` + hex HMAC-SHA256 over
 * `v0:<timestamp>:<body>` with the signing secret, in x-slack-signature and
 * x-slack-request-timestamp. Bodies are sent byte for byte as signed, with exactly the
 * Content-Type Bolt accepts: `application/x-www-form-urlencoded` (commands, interactivity) or
 * `application/json` (events). Never pass URLSearchParams to fetch: undici adds a charset and Bolt
 * answers 400.
 */
import { createHmac } from 'node:crypto';

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

export interface SlackRequest {
  /** The exact bytes to sign and send. */
  body: string;
  contentType: typeof FORM | typeof JSON_TYPE;
  /** What the body encodes (form fields, interactivity payload or event envelope). */
  payload: Record<string, unknown>;
}

/** `v0=` + hex HMAC-SHA256 over `v0:<timestamp>:<body>`. */
export function signature(signingSecret: string, timestamp: number | string, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedPostOptions {
  /** Unix seconds; defaults to now. Use now - 301 for a stale request. */
  timestamp?: number;
  /** Overrides the computed signature (tampering tests). */
  signature?: string;
  /** Leave out both signing headers. */
  unsigned?: boolean;
  headers?: Record<string, string>;
  /** Aborts the request (the workspace's 3-second limit). */
  signal?: AbortSignal;
}

/** POSTs `body` exactly as given, signed with the app's signing secret. */
export async function signedPost(
  appUrl: string,
  signingSecret: string,
  body: string,
  contentType: string,
  options: SignedPostOptions = {},
): Promise<Response> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': contentType, ...options.headers };
  if (!options.unsigned) {
    headers['x-slack-request-timestamp'] = String(timestamp);
    headers['x-slack-signature'] = options.signature ?? signature(signingSecret, timestamp, body);
  }
  return fetch(appUrl, {
    method: 'POST',
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Sends a built request (see the builders below). */
export function send(
  appUrl: string,
  signingSecret: string,
  request: SlackRequest,
  options: SignedPostOptions = {},
): Promise<Response> {
  return signedPost(appUrl, signingSecret, request.body, request.contentType, options);
}
