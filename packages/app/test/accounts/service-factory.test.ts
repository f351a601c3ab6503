/**
 * The app's service clients: each made for a link acts with that link's token and no other, and
 * every one shares the factory's settings (the service's address, the hook told of each attempt).
 */
import { describe, expect, it } from 'vitest';
import { createServiceFactory } from '../../src/accounts/service.js';
import type { AttemptReport } from '../../src/service/index.js';

const SETTINGS = {
  apiUrl: 'https://service.test/api/v3.0',
  authorizeUrl: 'https://service.test/oauth/authorize',
  tokenUrl: 'https://service.test/oauth/token',
  clientId: 'client-id',
  clientSecret: 'client-secret',
};

const USER = { id: 7, first_name: 'Ann', last_name: null, email: 'ann@example.test' };

/** Answers every request as the service's get_current_user would, and keeps what was sent. */
function recording() {
  const sent: Array<{ url: string; authorization: string | null }> = [];
  const fetch = async (input: string | URL, init?: RequestInit) => {
    sent.push({
      url: String(input),
      authorization: new Headers(init?.headers).get('authorization'),
    });
    return new Response(JSON.stringify({ user: USER }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { sent, fetch };
}

describe('the service factory', () => {
  it("gives each link's client that link's token, at the configured service", async () => {
    const { sent, fetch } = recording();
    const attempts: AttemptReport[] = [];
    const factory = createServiceFactory({
      ...SETTINGS,
      fetch,
      onAttempt: (report) => attempts.push(report),
    });
    const ann = factory.forLink({ access_token: 'token-ann' });
    const bob = factory.forLink({ access_token: 'token-bob' });
    await bob.getCurrentUser();
    await ann.getCurrentUser();
    await bob.getCurrentUser();
    expect(sent.map((s) => s.authorization)).toEqual([
      'Bearer token-bob',
      'Bearer token-ann',
      'Bearer token-bob',
    ]);
    expect(sent.every((s) => s.url.startsWith('https://service.test/api/v3.0/'))).toBe(true);
    expect(attempts).toHaveLength(3);
  });

  it('leaves a client made for an empty token without one: it refuses to call for a user', async () => {
    const { sent, fetch } = recording();
    const factory = createServiceFactory({ ...SETTINGS, fetch });
    const client = factory.forLink({ access_token: '' });
    await expect(client.getCurrentUser()).rejects.toThrow(/acts for a user/);
    expect(sent).toHaveLength(0);
  });
});
