/**
 * Slack's request signature, checked before Bolt sees a request. Bolt's own check compares the two
 * signatures through an HMAC under a fresh random key for each request, and gives the signing
 * secret to `createHmac` as a string each time: on Node 24 both keys are prepared again for every
 * request, which made the check the largest single part of the app's ack (about 8 % of its
 * processor time in a burst of commands, bench/README.md). Here the secret is prepared once and
 * the digests are compared as bytes in constant time.
 *
 * The rules are Slack's: `v0=` and the hex HMAC-SHA256, under the signing secret, of
 * `v0:<timestamp>:<body>`; a timestamp more than five minutes from our clock, either way, is
 * refused.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** How far a request's timestamp may be from our clock, either way (Slack's rule). */
export const REQUEST_TIMESTAMP_SKEW_S = 5 * 60;
/** What Bolt takes by default, and so what the app took before this check. */
export const REQUEST_BODY_LIMIT = 4 * 1024 * 1024;

const SIGNATURE_VERSION = 'v0';
/** `v0=` and 64 hex digits: anything else is refused before any pattern or decoding. */
const SIGNATURE_LENGTH = 3 + 64;
const HEX_DIGEST = /^v0=[0-9a-f]{64}$/;
/** Seconds since 1970, as Slack sends them: digits only, and few enough to be a time. */
const TIMESTAMP = /^[0-9]{1,12}$/;

/** Why a request was refused, as the log line says it; undefined when it is signed. */
export type SignatureCheck = (
  headers: IncomingMessage['headers'],
  body: Buffer,
  nowMs: number,
) => string | undefined;

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function signatureCheck(signingSecret: string): SignatureCheck {
  if (!signingSecret) throw new Error('A signing secret is needed to check Slack requests');
  const key: KeyObject = createSecretKey(Buffer.from(signingSecret, 'utf8'));
  return (headers, body, nowMs) => {
    const timestamp = single(headers['x-slack-request-timestamp']);
    const signature = single(headers['x-slack-signature']);
    if (timestamp === undefined || !TIMESTAMP.test(timestamp)) {
      return 'no x-slack-request-timestamp, or not a time';
    }
    const seconds = Number(timestamp);
    const nowS = Math.floor(nowMs / 1000);
    if (seconds < nowS - REQUEST_TIMESTAMP_SKEW_S) return 'its timestamp is stale';
    if (seconds > nowS + REQUEST_TIMESTAMP_SKEW_S) return 'its timestamp is ahead of our clock';
    if (
      signature === undefined ||
      signature.length !== SIGNATURE_LENGTH ||
      !HEX_DIGEST.test(signature)
    ) {
      return 'no x-slack-signature, or not a v0 signature';
    }
    const expected = createHmac('sha256', key)
      .update(`${SIGNATURE_VERSION}:${timestamp}:`)
      .update(body)
      .digest();
    const given = Buffer.from(signature.slice(3), 'hex');
    return timingSafeEqual(given, expected) ? undefined : 'signature mismatch';
  };
}

/**
 * Slack's `ssl_check=1`, sent unsigned to test the certificate, as Bolt recognises it: a form
 * body whose `ssl_check` is `1`. Its answer is an empty 200, and nothing else of the body may go
 * on (Bolt takes only that field, so that no payload rides along unsigned).
 */
export function isSslCheck(headers: IncomingMessage['headers'], body: Buffer): boolean {
  if (headers['content-type'] !== 'application/x-www-form-urlencoded') return false;
  return parseQuery(body.toString('utf8')).ssl_check === '1';
}

/** A request body over the limit, refused as Bolt refuses one (413). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeded the maximum allowed size (limit: ${limit} bytes)`);
  }
}

/**
 * The whole body, up to `limit` bytes. A declared length over the limit is refused before
 * reading; a body that grows past it stops being read at that point.
 */
export function readBody(req: IncomingMessage, limit = REQUEST_BODY_LIMIT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => {
      if (!req.complete) done(new Error('the request was closed before its body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
