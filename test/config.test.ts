import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, dataDirFor, loadConfig } from '../src/config.js';

const minimal = {
  SLACK_BOT_TOKEN: 'xoxb-1-secret-bot',
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SERVICE_CLIENT_ID: 'client-id',
  SERVICE_CLIENT_SECRET: 'client-secret-value',
  PUBLIC_URL: 'https://split.example.com/',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
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
      port: 3000,
      storeUrl: 'sqlite://./data/app.sqlite',
      dataDir: resolve('data'),
      encryptionKey: undefined,
      logLevel: 'info',
    });
  });

  it('reads every optional variable when given', () => {
    const key = randomBytes(32).toString('hex');
    const config = loadConfig({
      ...minimal,
      SLACK_APP_TOKEN: 'xapp-1-app',
      SLACK_API_URL: 'http://127.0.0.1:4100/api',
      SERVICE_API_URL: 'http://127.0.0.1:4000/api/v3.0/',
      PORT: '0',
      STORE_URL: 'redis://127.0.0.1:6379',
      ENCRYPTION_KEY: key,
      LOG_LEVEL: 'debug',
    });
    expect(config.slack.socketMode).toBe(true);
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:4100/api/');
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
      'SLACK_BOT_TOKEN is required',
      'SERVICE_CLIENT_ID is required',
      'SERVICE_CLIENT_SECRET is required',
      'PUBLIC_URL is required (where /oauth/callback is reachable)',
      'SLACK_SIGNING_SECRET is required in HTTP mode (when SLACK_APP_TOKEN is not set)',
    ]);
  });

  it('does not need a signing secret in Socket Mode', () => {
    const { SLACK_SIGNING_SECRET: _, ...rest } = minimal;
    expect(loadConfig({ ...rest, SLACK_APP_TOKEN: 'xapp-1' }).slack.signingSecret).toBeUndefined();
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
      SERVICE_TOKEN_URL: 'not a url',
      PUBLIC_URL: 'split.example.com',
      PORT: '70000',
      STORE_URL: 'mysql://db/app',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toEqual([
      'SLACK_BOT_TOKEN must be a bot token starting with xoxb-',
      'SLACK_APP_TOKEN must be an app-level token starting with xapp- (or be left unset)',
      'SLACK_API_URL must be an http(s) URL such as http://127.0.0.1:4100/api/',
      'SERVICE_TOKEN_URL must be an http(s) URL (the OAuth token endpoint)',
      'PUBLIC_URL must be an http(s) URL (where /oauth/callback is reachable)',
      'PORT must be a whole number from 0 to 65535',
      'STORE_URL must start with sqlite://, redis://, rediss://, postgres:// or postgresql://',
      'ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or as base64 (44 characters)',
      'LOG_LEVEL must be one of debug, info, warn, error',
    ]);
    const message = new ConfigError(problems).message;
    for (const secret of Object.values(secrets)) expect(message).not.toContain(secret);
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
  const entries = Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

  it('documents every variable the configuration reads, each with a comment line', () => {
    expect(Object.keys(entries).sort()).toEqual(
      [
        'SLACK_BOT_TOKEN',
        'SLACK_SIGNING_SECRET',
        'SLACK_APP_TOKEN',
        'SLACK_API_URL',
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
      ].sort(),
    );
    const lines = text.split('\n');
    for (const name of Object.keys(entries)) {
      const index = lines.findIndex((line) => line.startsWith(`${name}=`));
      expect(lines[index - 1], name).toMatch(/^# \((required|required in HTTP mode|optional)\) /);
    }
  });

  it('holds values that load as a valid configuration with the documented defaults', () => {
    const config = loadConfig(entries);
    expect(config.service.apiUrl).toBe(DEFAULTS.SERVICE_API_URL);
    expect(config.storeUrl).toBe(DEFAULTS.STORE_URL);
    expect(config.port).toBe(Number(DEFAULTS.PORT));
  });
});
