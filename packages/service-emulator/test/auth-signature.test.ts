import { describe, expect, it } from 'vitest';
import { flattenJson, parseFormPairs } from '../src/http.js';
import { parseOAuthHeader, percentEncode, signatureBaseString } from '../src/oauth1.js';

describe('OAuth 1.0a signature base string', () => {
  it('matches the worked example of RFC 5849 (signature base string)', () => {
    const header = parseOAuthHeader(
      'OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2", ' +
        'oauth_token="kkk9d7dh3k39sjv7", oauth_signature_method="HMAC-SHA1", ' +
        'oauth_timestamp="137131201", oauth_nonce="7d8f3e4a", ' +
        'oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"',
    )!;
    expect(header.oauth_signature).toBe('bYT5CMsGcbgUdFHObYMEfcx6bsw=');
    const pairs: [string, string][] = [
      ...parseFormPairs('b5=%3D%253D&a3=a&c%40=&a2=r%20b'),
      ...parseFormPairs('c2&a3=2+q'),
      ...Object.entries(header).filter(([key]) => key !== 'realm' && key !== 'oauth_signature'),
    ];
    expect(signatureBaseString('post', 'http://example.com/request', pairs)).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q' +
        '%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_' +
        'key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m' +
        'ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk' +
        '9d7dh3k39sjv7',
    );
  });

  it('percent-encodes everything but unreserved characters, in UTF-8, upper-case hex', () => {
    expect(percentEncode("AZaz09-._~!*'() /+=&é")).toBe(
      'AZaz09-._~%21%2A%27%28%29%20%2F%2B%3D%26%C3%A9',
    );
  });

  it('refuses an Authorization header that is not well-formed OAuth', () => {
    expect(parseOAuthHeader('Bearer abc')).toBeUndefined();
    expect(parseOAuthHeader('OAuth oauth_token=unquoted')).toBeUndefined();
    expect(parseOAuthHeader('OAuth oauth_token="%E0%A4%A"')).toBeUndefined();
  });
});

describe('JSON bodies as service parameters', () => {
  it('turns scalars into strings and flattens nesting with double underscores', () => {
    expect(
      flattenJson({
        cost: 12.5,
        payment: true,
        split_equally: false,
        details: null,
        users: [
          { user_id: 5, paid_share: '12.50' },
          { email: 'b@example.com', owed_share: 0 },
        ],
        notification_settings: { expense_added: true },
      }),
    ).toEqual({
      cost: '12.5',
      payment: 'true',
      split_equally: 'false',
      details: '',
      users__0__user_id: '5',
      users__0__paid_share: '12.50',
      users__1__email: 'b@example.com',
      users__1__owed_share: '0',
      notification_settings__expense_added: 'true',
    });
  });
});
