import { describe, expect, it } from 'vitest';
import {
  ServiceBadRequestException,
  ServiceConnectionException,
  ServiceRateLimitedException,
  ServiceServerException,
  ServiceTimeoutException,
  ServiceUnauthorizedException,
} from '../../../src/service/index.js';
import { isTransient } from '../../../src/slack/digest/index.js';

const slack = (code: string, data?: { error: string }) =>
  Object.assign(new Error(code), { code, ...(data ? { data } : {}) });

describe('which digest failures release the day’s claim for a retry', () => {
  it.each([
    ['service unreachable', new ServiceConnectionException('refused'), true],
    ['service timeout', new ServiceTimeoutException('slow'), true],
    ['service 5xx', new ServiceServerException('boom'), true],
    ['service 429', new ServiceRateLimitedException('wait', {}), true],
    ['Slack network error or 429 after retries', slack('slack_webapi_request_error'), true],
    ['Slack HTTP 5xx', slack('slack_webapi_http_error'), true],
    ['Slack 429 handed back', slack('slack_webapi_rate_limited_error'), true],
    ['Slack ratelimited', slack('slack_webapi_platform_error', { error: 'ratelimited' }), true],
    ['the store failing', new Error('SQLITE_BUSY'), true],
    [
      'Slack user_disabled',
      slack('slack_webapi_platform_error', { error: 'user_disabled' }),
      false,
    ],
    ['service 400', new ServiceBadRequestException('bad'), false],
    ['service 401', new ServiceUnauthorizedException('revoked'), false],
  ])('%s: retry = %s', (_name, error, expected) => {
    expect(isTransient(error)).toBe(expected);
  });
});
