// Runs vitest once with its JSON reporter beside the default one, then prints the plain
// "N passed, N failed" line CI reads, so that every run says how many tests it executed.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { countReports } from './count-tests.mjs';

const report = 'reports/vitest.json';
mkdirSync('reports', { recursive: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
const { passed, failed } = countReports([report]);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
