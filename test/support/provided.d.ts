// What the global setups (test/support/services.ts, chromium.ts) hand the tests: a server's URL
// or Chromium's path, or null when it is missing and the tests that need it are skipped.
declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string | null;
    postgresUrl: string | null;
    chromiumPath: string | null;
  }
}

export {};
