// `npm run test:one <path>`: runs one test file (or a folder, or a name filter) in the project its
// file name puts it in (`*.e2e.test.ts` e2e, `*.browser.test.ts` browser, else unit), so that a
// unit file never waits for the e2e project's global setup (Redis, PostgreSQL). Further arguments
// go to vitest (`-t 'a test name'`).
import { spawnSync } from 'node:child_process';

const [target, ...rest] = process.argv.slice(2);
if (!target) {
  console.error('usage: npm run test:one <path> [vitest options]');
  process.exit(2);
}
const project = /\.e2e\.test\.ts$/.test(target)
  ? 'e2e'
  : /\.browser\.test\.ts$/.test(target)
    ? 'browser'
    : 'unit';
const run = spawnSync('npx', ['vitest', 'run', '--project', project, target, ...rest], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
