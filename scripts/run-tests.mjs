// Runs vitest once with its JSON reporter beside the default one, then prints what was skipped
// and why (one line per missing server or browser, from the global setups in test/support/), and
// last the plain "N passed, N failed" line CI reads, so that every run says how many tests it
// executed. Arguments go to vitest: `--project unit` is `npm run test:unit`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { closingLines, countReports } from './count-tests.mjs';

const report = 'reports/vitest.json';
const skippedFile = 'reports/skipped.txt';
mkdirSync('reports', { recursive: true });
// A report or a skip line left by an earlier run must not be counted as this run's.
rmSync(report, { force: true });
rmSync(skippedFile, { force: true });
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
  { stdio: 'inherit', env: { ...process.env, SKIPPED_FILE: skippedFile } },
);
// Vitest fails a run on errors outside any test (an uncaught exception in a worker, a global
// setup that threw) that its JSON report does not count: the report says so, for the count.
if (run.status !== 0) {
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    json.success = false;
    writeFileSync(report, JSON.stringify(json));
  } catch {
    // No report: the count says so.
  }
}
let skippedWhy = '';
try {
  skippedWhy = readFileSync(skippedFile, 'utf8');
} catch {
  // Nothing was skipped.
}
const counts = countReports([report]);
process.stdout.write(skippedWhy);
for (const line of closingLines(counts)) console.log(line);
process.exit(run.status === 0 && counts.failed === 0 ? 0 : 1);
