/**
 * The logger on its own: one JSON object a line with level, time and msg; the request id of the
 * work that wrote it, through awaits and timers; Bolt's interface (levels, printf-style
 * arguments); pretty lines for people; and the scrubber on every line, whoever wrote it.
 */
import { LogLevel } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { currentRequest, newRequestId, withRequest } from '../../src/observe/context.js';
import { createLogger, lineText, logEvent, prettyLine } from '../../src/observe/logger.js';
import { createScrubber, urlPassword } from '../../src/observe/redact.js';
import { quietLogger } from '../support/harness.js';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

const records = (lines: string[]) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('createLogger (json)', () => {
  it('writes one JSON object a line with level, time and msg', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json', secrets: [], ...out });
    logger.info('Split is running on port', 3000);
    logger.warn('slow store:', { ms: 120 });
    logger.debug('not at info');
    expect(out.lines).toHaveLength(2);
    for (const line of out.lines) expect(line.endsWith('\n')).toBe(true);
    const [first, second] = records(out.lines);
    expect(first).toMatchObject({ level: 'info', msg: 'Split is running on port 3000' });
    expect(Date.parse(first!.time as string)).not.toBeNaN();
    expect(second).toMatchObject({ level: 'warn', msg: 'slow store: { ms: 120 }' });
  });

  it('writes a structured line: its values filled into the message and kept as fields, scrubbed', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json', secrets: ['xoxb-1'], ...out });
    logger.warn({ msg: 'channel {channel_id} unbound', channel_id: 'C1', token: 'xoxb-1' });
    const [line] = records(out.lines);
    expect(line).toMatchObject({
      level: 'warn',
      msg: 'channel C1 unbound',
      channel_id: 'C1',
    });
    expect(JSON.stringify(line)).not.toContain('xoxb-1');
    expect(lineText([{ msg: 'channel {channel_id} unbound', channel_id: 'C1' }])).toBe(
      'channel C1 unbound',
    );
    expect(lineText(['plain', 3])).toBe('plain 3');
  });

  it("follows Bolt's setLevel and getLevel", () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json', secrets: [], ...out });
    expect(logger.getLevel()).toBe(LogLevel.INFO);
    logger.setLevel(LogLevel.DEBUG);
    logger.debug('now shown');
    logger.setLevel(LogLevel.ERROR);
    logger.warn('now hidden');
    expect(records(out.lines).map((r) => r.msg)).toEqual(['now shown']);
    expect(logger.getLevel()).toBe(LogLevel.ERROR);
  });

  it('names the request a line was written for, across awaits and timers', async () => {
    const out = capture();
    const logger = createLogger({ level: 'debug', format: 'json', secrets: [], ...out });
    logger.info('outside');
    const ids = await Promise.all(
      ['a', 'b'].map((name) =>
        withRequest(async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          logger.info(`inside ${name}`);
          await new Promise<void>((resolve) => setImmediate(resolve));
          logEvent(logger, 'debug', { operation: 'get_friends', status: 200 }, `call ${name}`);
          return currentRequest()!.requestId;
        }),
      ),
    );
    expect(ids[0]).not.toBe(ids[1]);
    const byMsg = new Map(records(out.lines).map((r) => [r.msg, r]));
    expect(byMsg.get('outside')).not.toHaveProperty('requestId');
    expect(byMsg.get('inside a')!.requestId).toBe(ids[0]);
    expect(byMsg.get('call a')).toMatchObject({
      requestId: ids[0],
      operation: 'get_friends',
      status: 200,
    });
    expect(byMsg.get('inside b')!.requestId).toBe(ids[1]);
    expect(byMsg.get('call b')!.requestId).toBe(ids[1]);
  });

  it('takes a given request id, and makes a new 16-hex-digit one otherwise', () => {
    expect(withRequest(() => currentRequest()!.requestId, 'r-1')).toBe('r-1');
    expect(newRequestId()).toMatch(/^[0-9a-f]{16}$/);
    expect(newRequestId()).not.toBe(newRequestId());
  });

  it('masks the configured secrets and credential shapes in every line', () => {
    const out = capture();
    const secrets = ['client-secret-0123', 'sign+ing/secret"456'];
    const logger = createLogger({ level: 'debug', format: 'json', secrets, ...out });
    // What the Slack Web API client logs at debug level on its own.
    logger.debug(
      'http request body: {"client_id":"1.2","client_secret":"client-secret-0123","code":"abc"}',
    );
    logger.info('verifying with', secrets[1]);
    logger.warn('Authorization: Bearer 0a1b2c3d4e5f6a7b8c9d and xoxb-1-2-abcdef');
    logger.error('callback /oauth/callback?code=9f8e7d6c&state=s3cr3t failed');
    logger.info({ access_token: 'tok-77889900', refresh_token: 'ref-11223344' });
    const text = out.lines.join('');
    for (const value of [...secrets, '0a1b2c3d4e5f6a7b8c9d', 'abcdef', '9f8e7d6c', 's3cr3t']) {
      expect(text).not.toContain(value);
    }
    expect(text).not.toContain('tok-77889900');
    expect(text).not.toContain('ref-11223344');
    for (const line of out.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(text).toContain('xoxb-[redacted]');
  });
});

describe('every line', () => {
  /** What a log collector needs of each line: one JSON object with level, time and msg. */
  function expectReadable(lines: string[]) {
    for (const line of lines) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not one JSON object: ${line}`);
      }
      expect(typeof record.level, line).toBe('string');
      expect(typeof record.time, line).toBe('string');
      expect(typeof record.msg, line).toBe('string');
      expect(record.msg, line).not.toBe('');
    }
  }

  it('has level, time and msg, with a masked link inside a logged request body', () => {
    const out = capture();
    const logger = createLogger({
      level: 'debug',
      format: 'json',
      secrets: ['client-secret-0123'],
      ...out,
    });
    // The Web API client's debug line for a views.publish holding a Connect button, and others
    // whose masked value ends where JSON escapes a quote or a backslash.
    const url = 'http://split.test/oauth/start?state=r_nRQM6iERjIWXPt2ij1uTWShL5sCXyQdG_LP3t_rG8';
    logger.debug(
      `http request body: ${JSON.stringify({ view: { blocks: [{ type: 'button', url }] } })}`,
    );
    logger.info(`opened "${url}"`);
    logger.warn('callback /oauth/callback?code=9f8e7d6c\\ failed');
    logger.event('info', { link: `"${url}"`, secret: 'client-secret-0123' }, 'fields');
    expect(out.lines).toHaveLength(4);
    expectReadable(out.lines);
    const text = out.lines.join('');
    for (const value of [
      'r_nRQM6iERjIWXPt2ij1uTWShL5sCXyQdG_LP3t_rG8',
      '9f8e7d6c',
      'client-secret-0123',
    ])
      expect(text).not.toContain(value);
    expect(records(out.lines)[1]!.msg).toBe(
      'opened "http://split.test/oauth/start?state=[redacted]"',
    );
  });

  it('fails the check on a line without msg', () => {
    expect(() =>
      expectReadable(['{"level":"info","time":"2026-11-27T10:00:00.000Z"}\n']),
    ).toThrow();
    expect(() => expectReadable(['{"level":"info","time":"x","msg":"a\\"}}\n'])).toThrow();
  });
});

describe('createLogger (pretty)', () => {
  it('writes one short line: time, level, request id, message, fields', () => {
    const out = capture();
    const logger = createLogger({
      level: 'debug',
      format: 'pretty',
      secrets: ['hunter2-secret'],
      ...out,
    });
    withRequest(() => {
      logger.event('info', { operation: 'create_expense', status: 200 }, 'service call');
    }, 'abcd1234');
    logger.warn('token hunter2-secret refused');
    expect(out.lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[abcd1234\] service call operation=create_expense status=200\n$/,
    );
    expect(out.lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}token \[redacted\] refused\n$/);
  });

  it('leaves a line that is not JSON as it is', () => {
    expect(prettyLine('plain text\n')).toBe('plain text\n');
  });
});

describe('logEvent through a logger of another kind', () => {
  it('writes the fields as key=value text', () => {
    const logger = quietLogger();
    logEvent(logger, 'warn', { operation: 'get_friends', status: 503 }, 'service call');
    expect(logger.lines).toEqual(['warn service call operation=get_friends status=503']);
  });
});

describe('the scrubber', () => {
  it('ignores secrets too short to be told from ordinary words', () => {
    const scrub = createScrubber(['abc', undefined, '']);
    expect(scrub('abc def')).toBe('abc def');
  });

  it('masks the longer of two overlapping secrets whole', () => {
    const scrub = createScrubber(['secret-value', 'secret-value-longer']);
    expect(scrub('x secret-value-longer y')).toBe('x [redacted] y');
  });

  it('masks one-time codes and e-mail addresses, and keeps error codes', () => {
    const scrub = createScrubber([]);
    // The Web API client's debug lines for oauth.v2.access and openid.connect.token, as JSON.
    const body = JSON.stringify({
      msg: 'http request body: {"client_id":"1.2","code":"9e4f3570.9_StJ-sSJsEnwp","redirect_uri":"x"}',
    });
    expect(scrub(body)).not.toContain('9e4f3570');
    expect(scrub('http request body: {"code":"4724469134.4644010092847.232b4e6d"}')).toBe(
      'http request body: {"code":"[redacted]"}',
    );
    expect(scrub('code=4724469134.46440&client_id=1.2')).toBe('code=[redacted]&client_id=1.2');
    const person = JSON.stringify({
      msg: 'result: {"profile":{"email":"ann.b+x@mail.example.com"}}',
    });
    expect(scrub(person)).not.toContain('ann.b+x@mail.example.com');
    expect(scrub('Connected as *Cy* (cy@example.org): ok')).toBe(
      'Connected as *Cy* ([e-mail [redacted]]): ok',
    );
    for (const kept of ['{"code":"ECONNRESET"}', '{"code":"ERR_SOCKET_TIMEOUT"}', '{"code":404}'])
      expect(scrub(kept)).toBe(kept);
  });

  it('reads a long run of address characters once (no quadratic backtracking)', () => {
    const scrub = createScrubber([]);
    const long = `${'a.'.repeat(200_000)} and ${'x'.repeat(200_000)}@`;
    const started = performance.now();
    expect(scrub(long)).toBe(long);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("finds a store URL's password", () => {
    expect(urlPassword('redis://:p%40ss-word@127.0.0.1:6379')).toBe('p@ss-word');
    expect(urlPassword('postgres://app:pw-123456@db/app')).toBe('pw-123456');
    expect(urlPassword('sqlite://./data/app.sqlite')).toBeUndefined();
  });
});
