import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const manifest = parse(readFileSync('manifest.yml', 'utf8'));
const schema = JSON.parse(
  readFileSync('test/fixtures/slack-manifest-schema/manifest.schema.1.0.0.json', 'utf8'),
);

/**
 * Slack's published manifest schema (slackapi/manifest-schema, v1, MIT), vendored because its
 * dispatcher file $refs remote URLs. strict:false: the schema uses the non-standard `_note`
 * keyword and a `minItems` without `type`; ajv-formats for its `format: uri`.
 */
function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe('manifest.yml', () => {
  it("validates against Slack's manifest schema", () => {
    const validate = validator();
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check has teeth: a 26-character shortcut name is refused', () => {
    const validate = validator();
    const broken = structuredClone(manifest);
    broken.features.shortcuts[0].name = 'Create ticket from message';
    expect(validate(broken)).toBe(false);
  });

  it('declares /split with user escaping and the Split this message shortcut', () => {
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({
        command: '/split',
        should_escape: true,
        usage_hint: expect.any(String),
      }),
    ]);
    expect(manifest.features.shortcuts).toEqual([
      expect.objectContaining({
        name: 'Split this',
        type: 'message',
        callback_id: 'split_message',
      }),
    ]);
  });

  it('sends commands, interactivity, options and events to /slack/events', () => {
    const url = 'https://example.com/slack/events';
    expect(manifest.features.slash_commands[0].url).toBe(url);
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: url,
      message_menu_options_url: url,
    });
    expect(manifest.settings.event_subscriptions.request_url).toBe(url);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('subscribes to the events the app handles', () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(
      [
        'app_home_opened',
        'app_mention',
        'app_uninstalled',
        'link_shared',
        'message.im',
        'tokens_revoked',
        'user_change',
        'function_executed',
      ].sort(),
    );
  });

  it('is org-ready: an Enterprise Grid org may install it once for all its workspaces', () => {
    expect(manifest.settings.org_deploy_enabled).toBe(true);
  });

  it('offers Book an expense and Post balances to workflows, with typed inputs and outputs', () => {
    const book = manifest.functions.book_expense;
    const types = (params: Record<string, { type: string }>) =>
      Object.fromEntries(Object.entries(params).map(([name, p]) => [name, p.type]));
    expect(types(book.input_parameters)).toMatchObject({
      payer: 'slack#/types/user_id',
      amount: 'number',
      currency: 'string',
      description: 'string',
      people: 'array',
      channel: 'slack#/types/channel_id',
      group: 'string',
    });
    expect(book.input_parameters.people.items).toEqual({ type: 'slack#/types/user_id' });
    expect(Object.keys(book.output_parameters).sort()).toEqual([
      'expense_id',
      'expense_url',
      'summary',
    ]);
    expect(book.input_parameters.payer.is_required).toBe(true);
    expect(book.input_parameters.currency.is_required).toBeUndefined();
    const balances = manifest.functions.post_balances;
    expect(types(balances.input_parameters)).toMatchObject({
      user: 'slack#/types/user_id',
      channel: 'slack#/types/channel_id',
    });
    for (const step of [book, balances]) {
      expect(step.title).toEqual(expect.any(String));
      expect(step.description).toEqual(expect.any(String));
    }
  });

  it('the schema check has teeth: a step without output_parameters is refused', () => {
    const validate = validator();
    const broken = structuredClone(manifest);
    delete broken.functions.post_balances.output_parameters;
    expect(validate(broken)).toBe(false);
  });

  it("unfurls the expense service's links, on its domain and every subdomain", () => {
    expect(manifest.features.unfurl_domains).toEqual(['splitwise.com']);
  });

  it('the schema check has teeth: six unfurl domains are refused', () => {
    const validate = validator();
    const broken = structuredClone(manifest);
    broken.features.unfurl_domains = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test'];
    expect(validate(broken)).toBe(false);
  });

  it('asks only for the bot scopes the app uses, and the user scopes of Sign in with Slack', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      'app_mentions:read',
      'channels:history',
      'chat:write',
      'chat:write.public',
      'commands',
      'files:read',
      'files:write',
      'groups:history',
      'im:history',
      'im:write',
      'links:read',
      'links:write',
      'users:read',
      'users:read.email',
    ]);
    expect(manifest.oauth_config.scopes.user).toEqual(['openid', 'email', 'profile']);
    expect(manifest.oauth_config.redirect_urls).toEqual([
      'https://example.com/oauth/slack/callback',
      'https://example.com/slack/oauth_redirect',
    ]);
  });

  it('has a Home tab and a Messages tab people can write in', () => {
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
  });
});
