/**
 * What a secret key costs each cipher and HMAC, given as bytes or prepared once as a key object,
 * on whichever Node runs it: the app's sealer (tokens, installations, link states) and signer
 * (values handed to Slack) run once or more per booking.
 *
 *   npx tsx bench/key-objects.ts       BENCH_ROUNDS=N (7), BENCH_OPS=N per kind a round (20000)
 *
 * Each round opens a sealed token (AES-256-GCM, as store/seal.ts does) and signs a button's value
 * (HMAC-SHA256, as store/signer.ts does) BENCH_OPS times with each form of the key, alternating
 * which goes first, after a warm-up round; the table gives the median of the rounds, in µs per
 * operation, and the ratio of the two forms.
 */

import type { KeyObject } from 'node:crypto';
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  randomBytes,
} from 'node:crypto';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const OPS = Number(process.env.BENCH_OPS ?? 20_000);

const bytes = randomBytes(32);
const forms: Array<{ name: string; key: Buffer | KeyObject }> = [
  { name: 'bytes', key: bytes },
  { name: 'key object', key: createSecretKey(bytes) },
];

const iv = randomBytes(12);
const context = Buffer.from('tokens:T0001:U0ANN');
const sealer = createCipheriv('aes-256-gcm', bytes, iv);
sealer.setAAD(context);
const sealed = Buffer.concat([sealer.update('svc-access-token-0123456789abcdef'), sealer.final()]);
const tag = sealer.getAuthTag();

const kinds: Record<string, (key: Buffer | KeyObject) => void> = {
  'open a sealed token': (key) => {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(context);
    decipher.setAuthTag(tag);
    Buffer.concat([decipher.update(sealed), decipher.final()]);
  },
  "sign a button's value": (key) => {
    createHmac('sha256', key).update('12:expense-edit:T0001:U0ANN\nsq1z8k\n123456').digest();
  },
};

const times = new Map<string, number[]>();
for (let round = 0; round <= ROUNDS; round++) {
  const order = round % 2 === 0 ? forms : [...forms].reverse();
  for (const [kind, op] of Object.entries(kinds)) {
    for (const { name, key } of order) {
      const started = performance.now();
      for (let i = 0; i < OPS; i++) op(key);
      const us = ((performance.now() - started) * 1000) / OPS;
      // Round 0 warms up.
      if (round > 0) times.set(`${kind}|${name}`, [...(times.get(`${kind}|${name}`) ?? []), us]);
    }
  }
}

console.log(
  `Node ${process.version}, ${ROUNDS} rounds of ${OPS} per kind, medians (µs per operation)`,
);
console.log('| | key as bytes | key object | ratio |');
console.log('|---|---:|---:|---:|');
for (const kind of Object.keys(kinds)) {
  const asBytes = median(times.get(`${kind}|bytes`)!);
  const asObject = median(times.get(`${kind}|key object`)!);
  console.log(
    `| ${kind} | ${asBytes.toFixed(2)} | ${asObject.toFixed(2)} | ${(asBytes / asObject).toFixed(1)} |`,
  );
}
