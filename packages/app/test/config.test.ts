import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, dataDirFor, loadConfig } from '../src/config.js';
import { parseEnvFile, readEnvFile } from '../src/env-file.js';

const minimal = {
  SLACK_BOT_TOKEN: 'xoxb-1-secret-bot',
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'slack-client-secret-value',
  SERVICE_CLIENT_ID: 'client-id',
  SERVICE_CLIENT_SECRET: 'client-secret-value',
  PUBLIC_URL: 'https://split.example.com/',
};

function problemsOf(
  env: Record<string, string | undefined>,
  envFile?: ReadonlyMap<string, string>,
): string[] {
  try {
    loadConfig(env, envFile);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('fills the documented defaults around the required variables', () => {
    const config = loadConfig(minimal);
    expect(config).toMatchObject({
      slack: {
        botToken: 'xoxb-1-secret-bot',
        signingSecret: 'signing-secret-value',
        appToken: undefined,
        socketMode: false,
        apiUrl: undefined,
        webUrl: 'https://slack.com',
        clientId: '1111.2222',
        clientSecret: 'slack-client-secret-value',
      },
      service: {
        apiUrl: 'https://secure.splitwise.com/api/v3.0',
        authorizeUrl: 'https://secure.splitwise.com/oauth/authorize',
        tokenUrl: 'https://secure.splitwise.com/oauth/token',
        clientId: 'client-id',
        clientSecret: 'client-secret-value',
      },
      publicUrl: 'https://split.example.com',
      oauthRedirectUrl: 'https://split.example.com/oauth/callback',
      signInRedirectUrl: 'https://split.example.com/oauth/slack/callback',
      port: 3000,
      storeUrl: 'sqlite://./data/app.sqlite',
      dataDir: resolve('data'),
      encryptionKey: undefined,
      logLevel: 'info',
      logFormat: 'pretty',
    });
  });

  it('logs JSON in production and for LOG_FORMAT=json, pretty lines otherwise', () => {
    expect(loadConfig({ ...minimal, NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(loadConfig({ ...minimal, NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...minimal, LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ ...minimal, NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe(
      'pretty',
    );
    expect(problemsOf({ ...minimal, LOG_FORMAT: 'yaml' })).toEqual([
      'LOG_FORMAT (from the environment) must be one of json, pretty (or be left unset)',
    ]);
  });

  it('reads every optional variable when given', () => {
    const key = randomBytes(32).toString('hex');
    const config = loadConfig({
      ...minimal,
      SLACK_APP_TOKEN: 'xapp-1-app',
      SLACK_API_URL: 'http://127.0.0.1:4100/api',
      SLACK_WEB_URL: 'http://127.0.0.1:4100/',
      SERVICE_API_URL: 'http://127.0.0.1:4000/api/v3.0/',
      PORT: '0',
      STORE_URL: 'redis://127.0.0.1:6379',
      ENCRYPTION_KEY: key,
      LOG_LEVEL: 'debug',
    });
    expect(config.slack.socketMode).toBe(true);
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:4100/api/');
    expect(config.slack.webUrl).toBe('http://127.0.0.1:4100');
    expect(config.service.apiUrl).toBe('http://127.0.0.1:4000/api/v3.0');
    expect(config.port).toBe(0);
    expect(config.storeUrl).toBe('redis://127.0.0.1:6379');
    expect(config.encryptionKey).toBe(key);
    expect(config.logLevel).toBe('debug');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ ...minimal, PORT: '', LOG_LEVEL: ' ' }).port).toBe(3000);
  });

  it('reports every missing variable at once, one line each', () => {
    expect(problemsOf({})).toEqual([
      'SLACK_BOT_TOKEN is not set (in the environment or .env): the bot token, xoxb-..., to serve one workspace; or set SLACK_STATE_SECRET instead to install the app into many workspaces',
      "SLACK_CLIENT_ID is not set (in the environment or .env): the Slack app's client id (Basic Information, App Credentials): people sign in with Slack with it to link their expense account",
      "SLACK_CLIENT_SECRET is not set (in the environment or .env): the Slack app's client secret (Basic Information, App Credentials): people sign in with Slack with it to link their expense account",
      "SERVICE_CLIENT_ID is not set (in the environment or .env): the app's OAuth client id at the expense service",
      "SERVICE_CLIENT_SECRET is not set (in the environment or .env): the app's OAuth client secret at the expense service",
      'PUBLIC_URL is not set (in the environment or .env): where /oauth/callback is reachable',
      'SLACK_SIGNING_SECRET is not set (in the environment or .env): needed in HTTP mode, when SLACK_APP_TOKEN is not set',
    ]);
  });

  it('does not need a signing secret in Socket Mode', () => {
    const { SLACK_SIGNING_SECRET: _, ...rest } = minimal;
    expect(loadConfig({ ...rest, SLACK_APP_TOKEN: 'xapp-1' }).slack.signingSecret).toBeUndefined();
  });

  it("needs the Slack app's client id and secret in Socket Mode too: linking signs in with Slack", () => {
    const { SLACK_CLIENT_ID: _id, SLACK_CLIENT_SECRET: _secret, ...rest } = minimal;
    const problems = problemsOf({ ...rest, SLACK_APP_TOKEN: 'xapp-1' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_SECRET',
    ]);
    expect(problems[0]).toContain('sign in with Slack');
  });

  it('names each bad value without echoing it', () => {
    const secrets = {
      SLACK_BOT_TOKEN: 'xoxp-user-token-secret',
      SLACK_APP_TOKEN: 'xoxb-wrong-kind-secret',
      ENCRYPTION_KEY: 'short-secret-key',
    };
    const problems = problemsOf({
      ...minimal,
      ...secrets,
      SLACK_API_URL: 'ftp://x',
      SLACK_WEB_URL: 'slack.com',
      SERVICE_TOKEN_URL: 'not a url',
      PUBLIC_URL: 'split.example.com',
      PORT: '70000',
      STORE_URL: 'mysql://db/app',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toEqual([
      'SLACK_BOT_TOKEN (from the environment) must be a bot token starting with xoxb-',
      'SLACK_APP_TOKEN (from the environment) must be an app-level token starting with xapp- (or be left unset)',
      'SLACK_API_URL (from the environment) must be an http(s) URL such as http://127.0.0.1:4100/api/',
      "SLACK_WEB_URL (from the environment) must be an http(s) URL (Slack's sign-in pages, such as https://slack.com)",
      'SERVICE_TOKEN_URL (from the environment) must be an http(s) URL (the OAuth token endpoint)',
      'PUBLIC_URL (from the environment) must be an http(s) URL (where /oauth/callback is reachable)',
      'PORT (from the environment) must be a whole number from 0 to 65535',
      'STORE_URL (from the environment) must start with sqlite://, redis://, rediss://, postgres:// or postgresql://',
      'ENCRYPTION_KEY (from the environment) must be 32 bytes written as 64 hex digits or as base64 (44 characters)',
      'LOG_LEVEL (from the environment) must be one of debug, info, warn, error',
    ]);
    const message = new ConfigError(problems).message;
    for (const secret of Object.values(secrets)) expect(message).not.toContain(secret);
  });

  it('serves metrics nowhere by default, and where METRICS_PORT and METRICS_TOKEN say', () => {
    const token = 'a'.repeat(32);
    expect(loadConfig(minimal).metrics).toEqual({ port: undefined, token: undefined });
    expect(loadConfig({ ...minimal, METRICS_PORT: '9100', METRICS_TOKEN: token }).metrics).toEqual({
      port: 9100,
      token,
    });
    expect(problemsOf({ ...minimal, METRICS_PORT: '91OO', METRICS_TOKEN: 'short' })).toEqual([
      'METRICS_PORT (from the environment) must be a whole number from 0 to 65535 (or be left unset)',
      'METRICS_TOKEN (from the environment) must be at least 32 characters without spaces (a random secret, e.g. from openssl rand -hex 32)',
    ]);
    expect(problemsOf({ ...minimal, METRICS_TOKEN: `${token} ${token}` })).toHaveLength(1);
    expect(problemsOf({ ...minimal, PORT: '3000', METRICS_PORT: '3000' })).toEqual([
      'METRICS_PORT (from the environment) is the same port as PORT: give metrics a port of their own, or leave METRICS_PORT unset and set METRICS_TOKEN to serve them on PORT behind a bearer token',
    ]);
  });

  it('accepts the encryption key as base64 too', () => {
    const key = randomBytes(32).toString('base64');
    expect(loadConfig({ ...minimal, ENCRYPTION_KEY: key }).encryptionKey).toBe(key);
  });
});

describe('dataDirFor', () => {
  it('is the directory of the SQLite file, or ./data for network stores', () => {
    expect(dataDirFor('sqlite:///var/lib/split/app.sqlite')).toBe('/var/lib/split');
    expect(dataDirFor('sqlite://./state/app.sqlite', '/srv')).toBe('/srv/state');
    expect(dataDirFor('postgres://db/app', '/srv')).toBe('/srv/data');
  });
});

describe('.env.example', () => {
  const text = readFileSync('.env.example', 'utf8');
  // Parsed as the app parses a .env, so that copying the example gives a file the app accepts.
  const parsed = parseEnvFile(text, '.env.example');
  const entries = Object.fromEntries(parsed);

  it('documents every variable the configuration reads, each with a comment line', () => {
    expect(Object.keys(entries).sort()).toEqual(
      [
        'SLACK_BOT_TOKEN',
        'SLACK_SIGNING_SECRET',
        'SLACK_APP_TOKEN',
        'SLACK_API_URL',
        'SLACK_WEB_URL',
        'SLACK_CLIENT_ID',
        'SLACK_CLIENT_SECRET',
        'SLACK_STATE_SECRET',
        'SERVICE_API_URL',
        'SERVICE_AUTHORIZE_URL',
        'SERVICE_TOKEN_URL',
        'SERVICE_CLIENT_ID',
        'SERVICE_CLIENT_SECRET',
        'PUBLIC_URL',
        'PORT',
        'STORE_URL',
        'ENCRYPTION_KEY',
        'LOG_LEVEL',
        'LOG_FORMAT',
        'METRICS_PORT',
        'METRICS_TOKEN',
      ].sort(),
    );
    const lines = text.split('\n');
    for (const name of Object.keys(entries)) {
      const index = lines.findIndex((line) => line.startsWith(`${name}=`));
      expect(lines[index - 1], name).toMatch(
        /^# \((required|required in HTTP mode|required unless SLACK_STATE_SECRET is set|optional)\) /,
      );
    }
  });

  it('holds values that load as a valid configuration with the documented defaults', () => {
    const config = loadConfig({}, parsed);
    expect(config.service.apiUrl).toBe(DEFAULTS.SERVICE_API_URL);
    expect(config.storeUrl).toBe(DEFAULTS.STORE_URL);
    expect(config.port).toBe(Number(DEFAULTS.PORT));
  });
});

describe('the environment over .env', () => {
  const file = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('loads a configuration given entirely by the .env file', () => {
    const config = loadConfig({}, file({ ...minimal, PORT: '4000' }));
    expect(config.slack.botToken).toBe(minimal.SLACK_BOT_TOKEN);
    expect(config.port).toBe(4000);
  });

  it('takes a variable from the environment when both set it, even when it is empty', () => {
    const fromFile = file({ ...minimal, PORT: '4000', LOG_LEVEL: 'debug' });
    const config = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-from-env', PORT: '' }, fromFile);
    expect(config.slack.botToken).toBe('xoxb-from-env');
    // Empty in the environment unsets the file's value, so the default applies.
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('debug');
  });

  it('says where each bad value came from, without echoing it', () => {
    const problems = problemsOf(
      { PORT: 'eighty-secret', SERVICE_CLIENT_ID: ' ' },
      file({ ...minimal, SLACK_BOT_TOKEN: 'xoxp-file-secret', PORT: '4000' }),
    );
    expect(problems).toEqual([
      'SLACK_BOT_TOKEN (from .env) must be a bot token starting with xoxb-',
      "SERVICE_CLIENT_ID (from the environment) is empty: the app's OAuth client id at the expense service",
      'PORT (from the environment) must be a whole number from 0 to 65535',
    ]);
    const message = new ConfigError(problems).message;
    expect(message).not.toContain('secret');
  });

  it('keeps variable names that are Object.prototype keys as ordinary names', () => {
    const names = parseEnvFile('__proto__=x\nconstructor=y\nhasOwnProperty=z\n');
    expect([...names.keys()]).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect(loadConfig({ ...minimal }, names).port).toBe(3000);
  });
});

describe('parseEnvFile', () => {
  it('reads the dotenv forms people write', () => {
    const text = [
      '\uFEFF# a comment',
      '',
      'PLAIN=value',
      '  SPACED  =  padded value  ',
      'export EXPORTED=yes',
      'SINGLE=\'a "b" #c \\n\'',
      'DOUBLE="line1\\nline2"   # after the quote',
      'TRAILING=kept # dropped',
      'HASH=a#b',
      'EQUALS=x=y=z',
      'EMPTY=',
      'QUOTED_EMPTY=""',
      'WINDOWS=crlf\r',
    ].join('\n');
    expect(Object.fromEntries(parseEnvFile(text))).toEqual({
      PLAIN: 'value',
      SPACED: 'padded value',
      EXPORTED: 'yes',
      SINGLE: 'a "b" #c \\n',
      DOUBLE: 'line1\nline2',
      TRAILING: 'kept',
      HASH: 'a#b',
      EQUALS: 'x=y=z',
      EMPTY: '',
      QUOTED_EMPTY: '',
      WINDOWS: 'crlf',
    });
  });

  it('reports every malformed line by number, never its text', () => {
    const text = [
      'GOOD=1',
      'xoxb-pasted-secret-alone',
      'OPEN="xoxb-unclosed-secret',
      "AFTER='quoted' xoxb-trailing-secret",
      '1BAD=2',
      '=nameless',
      'GOOD=again',
    ].join('\n');
    let problems: string[] = [];
    try {
      parseEnvFile(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      '.env line 2 is not NAME=value',
      '.env line 3 (OPEN) its quoted value has no closing quote on the same line',
      '.env line 4 (AFTER) has text after the closing quote',
      '.env line 5 is not NAME=value',
      '.env line 6 is not NAME=value',
      '.env line 7 sets GOOD again (first on line 1)',
    ]);
    expect(problems.join('\n')).not.toContain('secret');
  });
});

describe('readEnvFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-env-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is undefined when there is no file, and the variables when there is one', async () => {
    expect(readEnvFile(join(dir, 'missing.env'))).toBeUndefined();
    await writeFile(join(dir, 'ok.env'), 'PORT=4000\n');
    expect(readEnvFile(join(dir, 'ok.env'))).toEqual(new Map([['PORT', '4000']]));
  });

  it('is a configuration error when the file exists but cannot be read', async () => {
    await mkdir(join(dir, 'directory.env'));
    expect(() => readEnvFile(join(dir, 'directory.env'))).toThrow(ConfigError);
    expect(() => readEnvFile(join(dir, 'directory.env'))).toThrow('.env cannot be read (EISDIR)');
  });
});
