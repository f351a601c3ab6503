// Child process for the write-ahead-log test: the app's store on a SQLite file, writing one
// preference (and taking one claim, which opens the claims' own connection) per line it reads.
import { createInterface } from 'node:readline';
import { openStore } from '../../src/store/index.js';

const [storeUrl, dataDir] = process.argv.slice(2) as [string, string];
const store = await openStore(storeUrl, { dataDir, encryptionKey: 'a'.repeat(64) });
let n = 0;
for await (const _line of createInterface({ input: process.stdin })) {
  n += 1;
  await store.preferences.setDefaultGroup(
    { team_id: 'T1', user_id: `U${n}` },
    { id: n, name: 'g' },
  );
  await store.claims.claim(`wal:${n}`, 60_000);
  process.stdout.write(`${n}\n`);
}
await store.close();
