import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Every test starts real servers on loopback; a generous per-test limit keeps a noisy shared
    // machine from failing healthy tests while still stopping a hung one.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
