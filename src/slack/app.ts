/**
 * Bolt, built from the parts the composition root (src/app.ts) gives it, and the listeners of
 * every feature registered on it.
 */
import { App, type Logger, LogLevel, type webApi } from '@slack/bolt';
import type { Linking } from '../accounts/linking.js';
import type { Config } from '../config.js';
import type { SlackDeps } from './deps.js';
import { registerActions } from './listeners/actions/index.js';
import { registerCommands } from './listeners/commands/index.js';
import { registerEvents } from './listeners/events/index.js';
import { registerOptions } from './listeners/options/index.js';
import { registerShortcuts } from './listeners/shortcuts/index.js';
import { createListenerTable } from './listeners/table.js';
import { registerViews } from './listeners/views/index.js';
import { httpRoutes } from './routes.js';

/** Bolt's default path for events, commands and interactions in HTTP mode. */
export const SLACK_EVENTS_PATH = '/slack/events';

const LOG_LEVELS: Record<Config['logLevel'], LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

export interface SlackAppParts {
  config: Config;
  clientOptions: webApi.WebClientOptions;
  /** From auth.test, so that Bolt does not call it from its constructor. */
  bot: { botId: string; botUserId: string };
  /** Replaces Bolt's console logger. */
  logger?: Logger;
  /** Read per request: Bolt takes its routes before linking exists. */
  linking: () => Linking | undefined;
}

export function createSlackApp(parts: SlackAppParts): App {
  const { config, clientOptions } = parts;
  return new App({
    token: config.slack.botToken,
    botId: parts.bot.botId,
    botUserId: parts.bot.botUserId,
    ...(parts.logger ? { logger: parts.logger } : { logLevel: LOG_LEVELS[config.logLevel] }),
    clientOptions,
    customRoutes: httpRoutes(parts.linking),
    // Bolt's in-memory conversation store runs on every request and is per process; unused.
    convoStore: false,
    ...(config.slack.socketMode
      ? {
          socketMode: true,
          appToken: config.slack.appToken,
          // SocketModeReceiver serves customRoutes on its own HTTP server, on
          // installerOptions.port (3000 unless given), not on the App's port; and its client for
          // apps.connections.open takes installerOptions.clientOptions, not the App's.
          installerOptions: { port: config.port, clientOptions },
        }
      : { signingSecret: config.slack.signingSecret ?? '' }),
  });
}

export function registerListeners(app: App, deps: SlackDeps): void {
  registerCommands(app, deps);
  registerEvents(app, deps);
  registerShortcuts(app, deps);
  const table = createListenerTable();
  registerActions(table, deps);
  registerViews(table, deps);
  registerOptions(table, deps);
  table.install(app);
}
