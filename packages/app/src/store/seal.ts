import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import { KEY_BYTES } from './encryption-key.js';

/** Shape at rest: nothing but base64 of random IV, ciphertext and GCM tag. */
export interface Sealed {
  v: 1;
  iv: string;
  data: string;
  tag: string;
}

export interface Sealer {
  seal(context: string, plain: string): Sealed;
  /** Throws when the value was tampered with, sealed under another key or for another context. */
  open(context: string, sealed: Sealed): string;
}

const IV_BYTES = 12;

/**
 * AES-256-GCM with a fresh random 12-byte IV per value. `context` (the record's own store key) is
 * authenticated data, so a value copied onto another record does not open either.
 */
export function createSealer(key: Buffer): Sealer {
  if (key.length !== KEY_BYTES) throw new Error(`the store's key must be ${KEY_BYTES} bytes`);
  // Prepared once: Node 24 prepares a key given as bytes again for every cipher, which cost
  // several times the cipher itself (bench/key-objects.ts).
  const secret = createSecretKey(key);
  return {
    seal(context, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return {
        v: 1,
        iv: iv.toString('base64'),
        data: data.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
      };
    },
    open(context, sealed) {
      if (sealed?.v !== 1) throw new Error('unknown sealed value version');
      const decipher = createDecipheriv('aes-256-gcm', secret, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([
        decipher.update(Buffer.from(sealed.data, 'base64')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
