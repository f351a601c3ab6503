import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

const many = {
  SLACK_STATE_SECRET: 'a'.repeat(32),
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'slack-client-secret-value',
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

describe('configuration for installing into many workspaces', () => {
  it('takes SLACK_STATE_SECRET without a bot token, with the redirect URL under PUBLIC_URL', () => {
    const config = loadConfig(many);
    expect(config.slack.botToken).toBeUndefined();
    expect(config.slack.install).toEqual({
      stateSecret: 'a'.repeat(32),
      redirectUrl: 'https://split.example.com/slack/oauth_redirect',
    });
  });

  it('keeps one workspace with SLACK_BOT_TOKEN alone', () => {
    const { SLACK_STATE_SECRET: _unused, ...one } = many;
    const config = loadConfig({ ...one, SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(config.slack.botToken).toBe('xoxb-1');
    expect(config.slack.install).toBeUndefined();
  });

  it('refuses both modes at once, naming the variables and never their values', () => {
    const problems = problemsOf({ ...many, SLACK_BOT_TOKEN: 'xoxb-secret-1' });
    expect(problems).toEqual([
      'SLACK_STATE_SECRET (from the environment) is set together with SLACK_BOT_TOKEN: leave SLACK_STATE_SECRET unset to serve the one workspace of the bot token, or unset SLACK_BOT_TOKEN to install the app into many workspaces',
    ]);
    expect(problems.join('\n')).not.toContain('xoxb-secret-1');
  });

  it('refuses a short state secret', () => {
    expect(problemsOf({ ...many, SLACK_STATE_SECRET: 'short' })).toEqual([
      'SLACK_STATE_SECRET (from the environment) must be at least 32 characters (a random secret, e.g. from openssl rand -hex 32)',
    ]);
  });

  it('asks for a bot token or a state secret when neither is set', () => {
    const { SLACK_STATE_SECRET: _unused, ...neither } = many;
    expect(problemsOf(neither)).toEqual([
      'SLACK_BOT_TOKEN is not set (in the environment or .env): the bot token, xoxb-..., to serve one workspace; or set SLACK_STATE_SECRET instead to install the app into many workspaces',
    ]);
  });
});
