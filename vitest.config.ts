import { defineConfig } from 'vitest/config';

// Our packages are imported by name; the `source` condition of their exports points at their
// TypeScript sources, so tests run what is in the tree rather than what was last built.
const conditions = ['source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Every test starts real servers on loopback; a generous per-test limit keeps a noisy shared
    // machine from failing healthy tests while still stopping a hung one.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
