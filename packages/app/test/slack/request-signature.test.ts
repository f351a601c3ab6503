/**
 * Slack's request signature as the receiver checks it: the signed bytes, the five minutes either
 * way, and every malformed header refused before any decoding.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSslCheck, signatureCheck } from '../../src/slack/request-signature.js';
import { signature } from '../support/slack-requests.js';

const SECRET = 'test-signing-secret';
const NOW_S = 1_800_000_000;
const NOW_MS = NOW_S * 1000 + 999;
const BODY = 'command=%2Fsplit&text=40+lunch';

const check = signatureCheck(SECRET);
const headersFor = (timestamp: number | string, body = BODY, secret = SECRET) => ({
  'x-slack-request-timestamp': String(timestamp),
  'x-slack-signature': signature(secret, timestamp, body),
});

describe('signatureCheck', () => {
  it('takes a request signed with the secret, for its own bytes', () => {
    expect(check(headersFor(NOW_S), Buffer.from(BODY), NOW_MS)).toBeUndefined();
  });

  it('takes a body that is not ASCII, as the bytes that were sent', () => {
    const body = 'text=Caf%C3%A9+%E2%82%AC12&note=Köln ✓';
    expect(check(headersFor(NOW_S, body), Buffer.from(body, 'utf8'), NOW_MS)).toBeUndefined();
  });

  it('agrees with an HMAC-SHA256 computed by hand (the harness is not the only witness)', () => {
    const digest = createHmac('sha256', SECRET).update(`v0:${NOW_S}:${BODY}`).digest('hex');
    const headers = {
      'x-slack-request-timestamp': String(NOW_S),
      'x-slack-signature': `v0=${digest}`,
    };
    expect(check(headers, Buffer.from(BODY), NOW_MS)).toBeUndefined();
  });

  it.each([
    ['a body changed after signing', headersFor(NOW_S), `${BODY}&user_id=U0EVE`],
    ['another secret', headersFor(NOW_S, BODY, 'not-the-secret'), BODY],
    [
      'another timestamp than the one signed',
      { ...headersFor(NOW_S), 'x-slack-request-timestamp': String(NOW_S - 1) },
      BODY,
    ],
  ])('refuses %s: signature mismatch', (_name, headers, body) => {
    expect(check(headers, Buffer.from(body), NOW_MS)).toBe('signature mismatch');
  });

  it('takes five minutes either way, and refuses a second more', () => {
    const at = (offset: number) => check(headersFor(NOW_S + offset), Buffer.from(BODY), NOW_MS);
    expect(at(-300)).toBeUndefined();
    expect(at(300)).toBeUndefined();
    expect(at(-301)).toBe('its timestamp is stale');
    expect(at(301)).toBe('its timestamp is ahead of our clock');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['signed', '-1800000000'],
    ['with a sign', '+1800000000'],
    ['fractional', '1800000000.5'],
    ['spaced', ' 1800000000'],
    ['too long to be a time', '9'.repeat(13)],
    ['repeated', ['1800000000', '1800000000']],
  ])('refuses a timestamp that is %s', (_name, timestamp) => {
    const headers = { ...headersFor(NOW_S), 'x-slack-request-timestamp': timestamp };
    expect(check(headers, Buffer.from(BODY), NOW_MS)).toBe(
      'no x-slack-request-timestamp, or not a time',
    );
  });

  const good = headersFor(NOW_S)['x-slack-signature'];
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['upper-case hex', `v0=${good.slice(3).toUpperCase()}`],
    ['of another version', `v1=${good.slice(3)}`],
    ['one digit short', good.slice(0, -1)],
    ['one digit long', `${good}0`],
    ['not hex', `v0=${'g'.repeat(64)}`],
    ['a megabyte long', `v0=${'0'.repeat(1 << 20)}`],
    ['repeated', [good, good]],
  ])('refuses a signature that is %s', (name, value) => {
    // The good signature in upper case would pass a check that decoded before comparing.
    if (name === 'upper-case hex') expect(value).not.toBe(good);
    const headers = { ...headersFor(NOW_S), 'x-slack-signature': value };
    expect(check(headers, Buffer.from(BODY), NOW_MS)).toBe(
      'no x-slack-signature, or not a v0 signature',
    );
  });

  it('cannot be made without a secret', () => {
    expect(() => signatureCheck('')).toThrow('A signing secret is needed');
  });
});

describe('isSslCheck', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it('is a form body whose ssl_check is 1', () => {
    expect(isSslCheck(form, Buffer.from('ssl_check=1&token=x'))).toBe(true);
    expect(isSslCheck(form, Buffer.from('token=x&ssl_check=1'))).toBe(true);
  });

  it.each([
    ['ssl_check=0', form],
    ['command=%2Fsplit', form],
    ['{"ssl_check":"1"}', { 'content-type': 'application/json' }],
    ['ssl_check=1', { 'content-type': 'application/json' }],
    ['ssl_check=1', {}],
  ])('is not %s (%o)', (body, headers) => {
    expect(isSslCheck(headers, Buffer.from(body))).toBe(false);
  });
});
