import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/sequencer.js';

// Our packages are imported by name; the `source` condition of their exports points at their
// TypeScript sources, so tests run what is in the tree rather than what was last built.
const conditions = ['source'];

const E2E = '{packages/*/test,test}/**/*.e2e.test.ts';
const BROWSER = '{packages/*/test,test}/**/*.browser.test.ts';

// Three loops, by file name (see the README's "Tests"): `npm run test:unit`, `test:e2e` and
// `test:browser`; `npm test` runs the three.
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    pool: 'forks',
    // Most e2e time is spent waiting (on timers, child processes and the servers' answers), so a
    // 2-core machine runs four files at once; vitest's default would be one (cores - 1).
    maxWorkers: Math.max(4, availableParallelism()),
    sequence: { sequencer: SlowFirstSequencer },
    // expect.poll gives up after 1 s by default: on a shared 2-core machine a browser's upload
    // or a server's write has taken longer than that (a CI run failed so) while working.
    expect: { poll: { timeout: 5_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // A worker imports the sources once for all its files rather than once per file, which
          // was most of the time; every test file leaves no state behind it.
          isolate: false,
          include: ['{packages/*/test,test}/**/*.test.ts'],
          exclude: [E2E, BROWSER],
          // No server, socket or child process in a unit test: the guard fails one that tries.
          setupFiles: ['test/support/unit-guard.ts'],
          // The property tests run thousands of generated cases in well under a second alone, but
          // four workers on two cores beside other processes have taken them past vitest's 5 s.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // As for unit: each file starts its own servers on port 0 and closes them.
          isolate: false,
          include: [E2E],
          // Redis and PostgreSQL for the store tests: found, started from npm, or skipped.
          globalSetup: ['test/support/services.ts'],
          // Real servers on loopback; a generous per-test limit keeps a noisy shared machine from
          // failing healthy tests while still stopping a hung one.
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [BROWSER],
          // Chromium: found, or the file's tests skipped.
          globalSetup: ['test/support/chromium.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
    ],
  },
});
