// Child process for the cross-process claim test: waits for a start time, claims the same keys
// as its siblings, and prints which ones it won as JSON.
import { createClaims } from '../../src/store/index.js';

const [storeUrl, namespace, startAt, keyCount] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const claims = createClaims(storeUrl, { namespace });
const keys = Array.from({ length: Number(keyCount) }, (_, i) => `key-${i}`);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const results = await Promise.all(keys.map((key) => claims.claim(key, 60_000)));
await claims.close();
process.stdout.write(JSON.stringify(keys.filter((_, i) => results[i])));
