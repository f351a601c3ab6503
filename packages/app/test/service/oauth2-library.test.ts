/**
 * simple-oauth2 is imported by the first code exchange, not at start. When that import fails (the
 * package missing from an install), the exchange says so instead of blaming the service, and the
 * next exchange tries the import again. The package is replaced here, never the app's own modules;
 * the exchange that works is tested against the emulator in auth.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const config = {
  clientId: 'client',
  clientSecret: 'secret',
  // Nothing listens on the discard port: an exchange that gets as far as HTTP fails at once.
  authorizeUrl: 'http://127.0.0.1:9/oauth/authorize',
  tokenUrl: 'http://127.0.0.1:9/oauth/token',
  timeoutMs: 1_000,
  redact: (text: string) => text,
};

afterEach(() => {
  vi.doUnmock('simple-oauth2');
  vi.resetModules();
});

describe('oauth2ExchangeCode before simple-oauth2 is loaded', () => {
  it('names the library that could not be loaded, then loads it on the next exchange', async () => {
    vi.resetModules();
    vi.doMock('simple-oauth2', () => {
      throw new Error('Cannot find package simple-oauth2');
    });
    const { oauth2ExchangeCode } = await import('../../src/service/oauth2.js');
    // The module registry was reset: the error classes are the ones oauth2.js sees.
    const { ServiceConnectionException, ServiceException } = await import(
      '../../src/service/errors.js'
    );
    const failed = await oauth2ExchangeCode(config, 'code', 'http://split.test/cb').catch(
      (error: Error) => error,
    );
    expect(failed).toBeInstanceOf(ServiceException);
    expect(failed).not.toBeInstanceOf(ServiceConnectionException);
    // Vitest words the failure of a mocked import its own way; the app's part is the prefix.
    expect((failed as Error).message).toMatch(
      /^oauth token exchange failed: the OAuth client library \(simple-oauth2\) could not be loaded: ./,
    );

    vi.doUnmock('simple-oauth2');
    const again = await oauth2ExchangeCode(config, 'code', 'http://split.test/cb').catch(
      (error: Error) => error,
    );
    // Loaded this time: the exchange reaches HTTP, where nothing answers.
    expect(again).toBeInstanceOf(ServiceConnectionException);
    expect((again as Error).message).toMatch(/^oauth token exchange failed: no response/);
  });
});
