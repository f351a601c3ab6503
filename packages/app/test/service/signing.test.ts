import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION, USER_AGENT } from '../../src/service/index.js';
import { oauth1Header, percentEncode } from '../../src/service/oauth1.js';

describe('OAuth 1.0a HMAC-SHA1 signing', () => {
  it('matches the published example of a signed POST with query and body parameters', () => {
    // Twitter's "Creating a signature" walkthrough: a known request and its known signature.
    const header = oauth1Header({
      method: 'POST',
      url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
      consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
      consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
      token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
      tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
      bodyParams: [['status', 'Hello Ladies + Gentlemen, a signed OAuth request!']],
      nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
      timestamp: '1318622958',
    });
    expect(header).toContain(`oauth_signature="${percentEncode('hCtSmYh+iHYCEqBWrE7C7hYmtUk=')}"`);
    expect(header.startsWith('OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog"')).toBe(true);
  });

  it('percent-encodes as RFC 3986 requires', () => {
    expect(percentEncode("a b!'()*~")).toBe('a%20b%21%27%28%29%2A~');
  });
});

describe('version', () => {
  it('the User-Agent carries the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(CLIENT_VERSION).toBe(pkg.version);
    expect(USER_AGENT).toContain(`/${CLIENT_VERSION}`);
  });
});
