/**
 * Bolt, built from the parts the composition root (src/compose.ts) gives it: how it authorizes
 * requests (one bot token, or an installation per workspace), its HTTP routes, and the listeners
 * of every feature registered on it.
 */
import { App, type CustomRoute, type Logger, LogLevel, webApi } from '@slack/bolt';
import type { Linking } from '../accounts/linking.js';
import type { Config } from '../config.js';
import { observeRequests } from '../observe/bolt.js';
import type { Metrics } from '../observe/metrics.js';
import type { Store } from '../store/index.js';
import { balanceCommand } from './balances/command.js';
import { balancesOf } from './balances/for-step.js';
import { balanceListeners } from './balances/listeners.js';
import { paidCommand } from './balances/paid-command.js';
import { remindCommand } from './balances/remind.js';
import type { SlackDeps, SlackHooks } from './deps.js';
import { digestListeners } from './digest/listeners.js';
import { expenseActionListeners } from './expense-actions/listeners.js';
import { expenseFormListeners } from './expense-form/listeners.js';
import { openNewForm } from './expense-form/open.js';
import { channelFeed } from './feed/command.js';
import { groupAdd, groupCreate, groupDelete, groupsList, groupUse } from './groups/commands.js';
import { groupDefault } from './groups/default-split.js';
import { groupListeners } from './groups/listeners.js';
import { homeListeners } from './home/listeners.js';
import { publishHome } from './home/publish.js';
import { createInstalledTeams } from './install/installation-store.js';
import { installerOptions } from './install/installer.js';
import { installedTeamClients } from './install/team-clients.js';
import { LINKING_COMMANDS } from './linking/commands.js';
import { linkingListeners } from './linking/listeners.js';
import { httpRoutes } from './linking/routes.js';
import { profileListeners } from './profile/listeners.js';
import { createSlackReceiver } from './receiver.js';
import type { JobHandler } from './runtime/durable.js';
import { createListenerTable } from './runtime/listener-table.js';
import { stepAware } from './runtime/step-client.js';
import { singleTeamClients, type TeamClients } from './runtime/team-clients.js';
import { voiceMiddleware } from './shared/voice.js';
import { splitListeners } from './split/listeners.js';
import { type OtherHandlers, runSplit, splitHandlers } from './split/run.js';
import { unfurlListeners } from './unfurl/listeners.js';
import { uninstallListeners } from './uninstall/listeners.js';
import { workflowListeners } from './workflows/listeners.js';

/** Bolt's default path for events, commands and interactions in HTTP mode. */
export const SLACK_EVENTS_PATH = '/slack/events';

const LOG_LEVELS: Record<Config['logLevel'], LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

interface SlackAppParts {
  config: Config;
  clientOptions: webApi.WebClientOptions;
  /**
   * One workspace: the bot's ids from auth.test, so that Bolt does not call it from its
   * constructor. Many workspaces: what Bolt needs to install the app and to authorize each request
   * with its team's installation (see install/installer.ts).
   */
  auth:
    | { kind: 'token'; botId: string; botUserId: string }
    | { kind: 'install'; installer: ReturnType<typeof installerOptions> };
  /** Bolt's, its receiver's and its Web API client's logger. */
  logger: Logger;
  /** Account linking, whose browser routes Bolt serves. */
  linking: Linking;
  /** Served beside /healthz and linking's routes (/readyz, /metrics). */
  routes: CustomRoute[];
  /** Times each Slack request by kind. */
  metrics: Metrics;
}

export function createSlackApp(parts: SlackAppParts): App {
  const { config, clientOptions } = parts;
  // Both: Bolt resets a given logger to its own default level unless it is given one too.
  const logging = { logger: parts.logger, logLevel: LOG_LEVELS[config.logLevel] };
  const customRoutes = [...httpRoutes(parts.linking), ...parts.routes];
  const { auth } = parts;
  const installer = auth.kind === 'install' ? auth.installer : undefined;
  const app: App = new App({
    ...(auth.kind === 'token'
      ? { token: config.slack.botToken, botId: auth.botId, botUserId: auth.botUserId }
      : {}),
    ...logging,
    clientOptions,
    // Bolt's in-memory conversation store runs on every request and is per process; unused.
    convoStore: false,
    // A workflow step's token lives as long as its run; the step's job makes its own client with
    // it (workflows/run.ts), and a later click on what the step posted answers with the team's.
    attachFunctionToken: false,
    ...(config.slack.socketMode
      ? {
          socketMode: true,
          appToken: config.slack.appToken,
          customRoutes,
          ...installer,
          // SocketModeReceiver serves customRoutes (and the install routes) on its own HTTP
          // server, on installerOptions.port (3000 unless given), not on the App's port; and its
          // client for apps.connections.open takes installerOptions.clientOptions, not the App's.
          installerOptions: { ...installer?.installerOptions, port: config.port, clientOptions },
        }
      : {
          receiver: createSlackReceiver({
            signingSecret: config.slack.signingSecret ?? '',
            eventsPath: SLACK_EVENTS_PATH,
            customRoutes,
            ...installer,
            ...logging,
            warn: (message) => app.logger.warn(message),
          }),
        }),
  });
  app.use(observeRequests(parts.metrics));
  return app;
}

/**
 * How Bolt authorizes requests, and the bot's client of each team for work not tied to a request.
 * One workspace: the configured bot token, checked with auth.test first (Bolt calls it from its
 * constructor unless given the bot's ids, and asking first makes a wrong token or an unreachable
 * Slack a clear start-up failure rather than every later request failing); every team gets that
 * client. Many workspaces: Bolt's install routes, and each team's own installation. Either way
 * each team has a second client, with the same token, for the directory's lookups alone. While a
 * workflow's step runs, both give the step's own client instead (runtime/step-client.ts).
 */
export async function slackAuth(parts: {
  config: Config;
  store: Pick<Store, 'installations' | 'claims'>;
  /** Without a bot token or retries, for the token exchanges. */
  tokenless: webApi.WebClient;
  clientOptions: webApi.WebClientOptions;
  /** The options of the clients that look people up, apart from those that answer. */
  lookupOptions: webApi.WebClientOptions;
  logger: Logger;
  now: () => Date;
}): Promise<{ auth: SlackAppParts['auth']; slack: TeamClients; lookups: TeamClients }> {
  const { config, store, tokenless, clientOptions, lookupOptions, logger, now } = parts;
  const { install } = config.slack;
  if (!install) {
    const bot = new webApi.WebClient(config.slack.botToken, clientOptions);
    const auth = await bot.auth.test();
    if (!auth.user_id || !auth.bot_id)
      throw new Error('auth.test did not return the bot user id and bot id');
    return {
      auth: { kind: 'token', botId: auth.bot_id, botUserId: auth.user_id },
      slack: stepAware(singleTeamClients(bot)),
      lookups: stepAware(
        singleTeamClients(new webApi.WebClient(config.slack.botToken, lookupOptions)),
      ),
    };
  }
  const installed = createInstalledTeams({
    installations: store.installations,
    claims: store.claims,
    refresh: (refresh_token) =>
      tokenless.oauth.v2.access({
        client_id: config.slack.clientId,
        client_secret: config.slack.clientSecret,
        grant_type: 'refresh_token',
        refresh_token,
      }),
    now: () => now().getTime(),
    logger,
  });
  return {
    auth: {
      kind: 'install',
      installer: installerOptions({
        clientId: config.slack.clientId,
        clientSecret: config.slack.clientSecret,
        stateSecret: install.stateSecret,
        redirectUrl: install.redirectUrl,
        webUrl: config.slack.webUrl,
        installationStore: installed,
        clientOptions,
      }),
    },
    slack: stepAware(installedTeamClients(installed, clientOptions)),
    lookups: stepAware(installedTeamClients(installed, lookupOptions)),
  };
}

/**
 * The `/split` kinds other features handle, and the feature that handles each; the type refuses a
 * kind left out.
 */
const SPLIT_HANDLERS: OtherHandlers = {
  ...LINKING_COMMANDS,
  balance: balanceCommand,
  groups: groupsList,
  group_create: groupCreate,
  group_add: groupAdd,
  group_delete: groupDelete,
  group_use: groupUse,
  group_default: groupDefault,
  feed: channelFeed,
  paid: paidCommand,
  remind: remindCommand,
};

/**
 * Registers every feature's listeners on `app`. Returns the listeners' deps (`base` with the hooks
 * through which one feature reaches another) and the durable job kinds the features carry out.
 */
export function registerListeners(
  app: App,
  base: Omit<SlackDeps, 'hooks'>,
): { deps: SlackDeps; jobs: Record<string, JobHandler> } {
  const handlers = splitHandlers(SPLIT_HANDLERS);
  const hooks: SlackHooks = {
    publishHome: (client, user, voice, logger, notice) =>
      publishHome(deps, client, user, voice, logger, notice),
    runSplit: (inv, reply, logger) => runSplit(handlers, deps, inv, reply, logger),
    balances: (user, logger) => balancesOf(deps, user, logger),
  };
  const deps: SlackDeps = { ...base, hooks };
  // Before any listener: every handler takes the voice of whoever acted from its context.
  app.use(voiceMiddleware(deps));
  const table = createListenerTable();
  splitListeners(table, deps, {
    handlers: SPLIT_HANDLERS,
    openForm: (request) => openNewForm({ deps, ...request }),
  });
  expenseFormListeners(table, deps);
  expenseActionListeners(table, deps);
  balanceListeners(table, deps);
  groupListeners(table, deps);
  homeListeners(table, deps);
  digestListeners(table, deps);
  linkingListeners(table, deps);
  uninstallListeners(table, deps);
  unfurlListeners(table, deps);
  profileListeners(table, deps);
  workflowListeners(table, deps);
  table.install(app);
  return { deps, jobs: table.jobs() };
}
