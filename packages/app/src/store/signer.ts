/**
 * Signs what the app hands to a Slack client and reads back later (a button's value, a modal's
 * private_metadata). Slack's payloads are signed by Slack, but the fields the app itself wrote
 * into a message or a view come back from the person's client and can be made up; a signature
 * over the value, the person it was made for and an expiry lets the app trust only what it
 * offered, to whom it offered it, for as long as it meant to.
 *
 * The key is derived from the store's encryption key, so that every replica that can read the
 * tokens can also check the values, and rotating the one key rotates both.
 */
import { createHmac, createSecretKey, hkdfSync, timingSafeEqual } from 'node:crypto';

/** 128 bits of HMAC-SHA256: far beyond guessing within a value's lifetime, short in a button. */
const TAG_BYTES = 16;
const TAG_CHARS = Math.ceil((TAG_BYTES * 4) / 3);
/** The expiry, base 36 seconds, and the tag follow the value, each after this mark. */
const MARK = '~';

export type Verified = { ok: true; value: string } | { ok: false; reason: 'expired' | 'forged' };

export interface Signer {
  /**
   * `value` with its expiry and a tag over `context` (what it is, and for whom), the value and the
   * expiry. The value stays readable: nothing secret may go into it.
   */
  sign(context: string, value: string, expiresAtMs: number): string;
  /** The value, when `signed` came from `sign` with this context and has not expired. */
  verify(context: string, signed: string | undefined, nowMs: number): Verified;
}

export function createSigner(encryptionKey: Buffer): Signer {
  // A key of its own: a tag never reveals anything about the key that encrypts tokens. Prepared
  // once, as a key object: Node 24 prepares a key given as bytes again for every HMAC, which
  // cost several times the HMAC itself (bench/key-objects.ts).
  const key = createSecretKey(
    Buffer.from(
      hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'split: values handed to Slack', 32),
    ),
  );
  const tag = (context: string, value: string, expires: string) =>
    createHmac('sha256', key)
      .update(`${context.length}:${context}\n${expires}\n${value}`)
      .digest()
      .subarray(0, TAG_BYTES)
      .toString('base64url');
  return {
    sign(context, value, expiresAtMs) {
      const expires = Math.ceil(expiresAtMs / 1000).toString(36);
      return `${value}${MARK}${expires}${MARK}${tag(context, value, expires)}`;
    },
    verify(context, signed, nowMs) {
      if (!signed) return { ok: false, reason: 'forged' };
      const tagAt = signed.length - TAG_CHARS - 1;
      const expiresAt = signed.lastIndexOf(MARK, tagAt - 1);
      if (tagAt < 1 || signed[tagAt] !== MARK || expiresAt < 0) {
        return { ok: false, reason: 'forged' };
      }
      const value = signed.slice(0, expiresAt);
      const expires = signed.slice(expiresAt + 1, tagAt);
      // Compared as written: base64 ignores a last character's spare bits, and one value must
      // have one signed form.
      const given = Buffer.from(signed.slice(tagAt + 1));
      const wanted = Buffer.from(tag(context, value, expires));
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        return { ok: false, reason: 'forged' };
      }
      // Checked after the tag, so that a made-up expiry reads as forged, not as expired.
      const seconds = Number.parseInt(expires, 36);
      if (!Number.isSafeInteger(seconds) || seconds * 1000 <= nowMs) {
        return { ok: false, reason: 'expired' };
      }
      return { ok: true, value };
    },
  };
}
