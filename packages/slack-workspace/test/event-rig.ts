/**
 * A workspace started from a manifest's text, with a bare HTTP app recording what Slack sends it:
 * for the tests of events (mentions, DMs, threads, unfurls, retries), which read the exact
 * envelopes.
 */
import { expect } from 'vitest';
import {
  readManifest,
  startWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../src/index.js';
import { callApi, type RawApp, type Received, startRawApp } from './raw-app.js';
import { PEOPLE } from './support.js';

export const SECRET = 'events-signing-secret';

export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'im:write',
  'im:history',
  'channels:history',
  'app_mentions:read',
  'links:read',
  'links:write',
];

export const BOT_EVENTS = [
  'app_home_opened',
  'app_mention',
  'message.im',
  'message.channels',
  'link_shared',
];

/** A manifest as the app would paste it: mentions, DMs, thread reading and unfurls on. */
export function manifestText(
  options: {
    scopes?: string[];
    events?: string[];
    domains?: string[];
    readOnly?: boolean;
    messagesTab?: boolean;
  } = {},
): string {
  const list = (items: string[]) => `[${items.join(', ')}]`;
  return `
display_information:
  name: Split
features:
  app_home:
    home_tab_enabled: true
    messages_tab_enabled: ${options.messagesTab ?? true}
    messages_tab_read_only_enabled: ${options.readOnly ?? false}
  bot_user:
    display_name: Split
  unfurl_domains: ${list(options.domains ?? ['splitwise.com'])}
  slash_commands:
    - command: /split
      description: Split an expense
oauth_config:
  scopes:
    bot: ${list(options.scopes ?? BOT_SCOPES)}
settings:
  event_subscriptions:
    bot_events: ${list(options.events ?? BOT_EVENTS)}
`;
}

export interface EventRig {
  ws: Workspace;
  app: RawApp;
  api(method: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Envelopes of the event_callbacks received so far. */
  envelopes(): Record<string, unknown>[];
  /** The inner events received so far, optionally of one type. */
  events(type?: string): Record<string, unknown>[];
  /** Waits until `count` events match, then answers them. */
  waitForEvents(
    predicate: (event: Record<string, unknown>) => boolean,
    count?: number,
  ): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function startEventRig(
  manifest = manifestText(),
  options: WorkspaceOptions = {},
): Promise<EventRig> {
  const ws = await startWorkspace({ app: readManifest(manifest), ...options });
  for (const person of PEOPLE) ws.addUser(person);
  const app = await startRawApp();
  ws.connectApp({ appUrl: app.url, signingSecret: SECRET });
  const isEvent = (r: Received) => r.payload.type === 'event_callback';
  const rig: EventRig = {
    ws,
    app,
    api: (method, args) => callApi(ws.apiUrl, ws.team.botToken, method, args),
    envelopes: () => app.received.filter(isEvent).map((r) => r.payload),
    events: (type) =>
      rig
        .envelopes()
        .map((e) => e.event as Record<string, unknown>)
        .filter((e) => type === undefined || e.type === type),
    async waitForEvents(predicate, count = 1) {
      await expect
        .poll(() => rig.events().filter(predicate).length, { timeout: 3_000 })
        .toBeGreaterThanOrEqual(count);
      return rig.events().filter(predicate);
    },
    async close() {
      await ws.close();
      await app.close();
    },
  };
  return rig;
}
