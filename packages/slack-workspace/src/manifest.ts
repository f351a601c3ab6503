/** The app manifest facts the workspace needs, read from manifest.yml's text. */
import { parse } from 'yaml';
import { isObject } from './http-util.js';
import type { AppFacts, AppFunction, AppHome, FunctionParam } from './types.js';

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const string = (value: unknown): string => (typeof value === 'string' ? value : '');

export function readManifest(yamlText: string): AppFacts {
  const manifest: unknown = parse(yamlText);
  if (!isObject(manifest)) throw new Error('The manifest is not a YAML mapping.');
  const display = isObject(manifest.display_information) ? manifest.display_information : {};
  const features = isObject(manifest.features) ? manifest.features : {};
  const bot = isObject(features.bot_user) ? features.bot_user : {};
  const oauth = isObject(manifest.oauth_config) ? manifest.oauth_config : {};
  const scopes = isObject(oauth.scopes) ? oauth.scopes : {};
  const settings = isObject(manifest.settings) ? manifest.settings : {};
  const events = isObject(settings.event_subscriptions) ? settings.event_subscriptions : {};
  return {
    name: string(bot.display_name) || string(display.name) || 'App',
    commands: list(features.slash_commands)
      .filter(isObject)
      .map((c) => ({
        command: string(c.command),
        description: string(c.description),
        usage_hint: string(c.usage_hint),
      })),
    shortcuts: list(features.shortcuts)
      .filter(isObject)
      .map((s) => ({
        callback_id: string(s.callback_id),
        name: string(s.name),
        type: s.type === 'global' ? ('global' as const) : ('message' as const),
      })),
    scopes: list(scopes.bot).map(string).filter(Boolean),
    events: list(events.bot_events).map(string).filter(Boolean),
    ...(Array.isArray(features.unfurl_domains)
      ? {
          unfurl_domains: features.unfurl_domains
            .map(string)
            .map((d) => d.trim().toLowerCase())
            .filter(Boolean),
        }
      : {}),
    ...(isObject(features.app_home) ? { app_home: appHome(features.app_home) } : {}),
    ...(isObject(manifest.functions) ? { functions: functions(manifest.functions) } : {}),
  };
}

/** `functions`: a map from each callback_id to its step, whose parameters are maps by name too. */
function functions(declared: Record<string, unknown>): AppFunction[] {
  return Object.entries(declared)
    .filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]))
    .map(([callback_id, f]) => ({
      callback_id,
      title: string(f.title) || callback_id,
      description: string(f.description),
      input_parameters: params(f.input_parameters),
      output_parameters: params(f.output_parameters),
    }));
}

function params(declared: unknown): FunctionParam[] {
  if (!isObject(declared)) return [];
  return Object.entries(declared)
    .filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]))
    .map(([name, p]) => ({
      name,
      type: string(p.type),
      title: string(p.title) || name,
      description: string(p.description),
      is_required: p.is_required === true,
      ...(isObject(p.items) ? { items: { type: string(p.items.type) } } : {}),
    }));
}

/** features.app_home; a flag the manifest leaves out is off. */
function appHome(home: Record<string, unknown>): AppHome {
  return {
    home_tab_enabled: home.home_tab_enabled === true,
    messages_tab_enabled: home.messages_tab_enabled === true,
    messages_tab_read_only_enabled: home.messages_tab_read_only_enabled === true,
  };
}
