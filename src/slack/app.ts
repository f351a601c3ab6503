/**
 * The Slack app, as a table of contents: stores, accounts, the Bolt app with its HTTP routes, and
 * the listeners. `startSlackApp` is what main.ts, the test harness and the benchmark call.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type Logger, LogLevel, webApi } from '@slack/bolt';
import { createChannelBindings } from '../accounts/bindings.js';
import { createDirectory } from '../accounts/directory.js';
import { createLinkStates } from '../accounts/link-states.js';
import { createLinking, type Linking } from '../accounts/linking.js';
import { createUserPreferences } from '../accounts/preferences.js';
import { createServiceFactory } from '../accounts/service.js';
import { TtlCache } from '../accounts/ttl-cache.js';
import type { Config } from '../config.js';
import {
  createDigestPreferences,
  createDigestRunner,
  type DigestRunner,
  type DigestScheduler,
  startDigestScheduler,
} from '../digest/index.js';
import { createClaims, createKeyv, createTokenStore, loadEncryptionKey } from '../store/index.js';
import { afterLink } from './after-link.js';
import type { SlackDeps } from './deps.js';
import { createReferenceData } from './expenses/reference.js';
import { createExpenseStore } from './expenses/store.js';
import { registerActions } from './listeners/actions/index.js';
import { registerCommands } from './listeners/commands/index.js';
import { registerEvents } from './listeners/events/index.js';
import { registerOptions } from './listeners/options/index.js';
import { registerShortcuts } from './listeners/shortcuts/index.js';
import { createListenerTable } from './listeners/table.js';
import { registerViews } from './listeners/views/index.js';
import { httpRoutes } from './routes.js';
import { createAckGate, createWorkQueue, type WorkQueueOptions } from './work-queue.js';

export interface SlackAppOptions {
  config: Config;
  /** Replaces Bolt's console logger (tests keep their output quiet with it). */
  logger?: Logger;
  /** Retries of Slack Web API calls; Slack's default policy waits up to 30 minutes. */
  slackRetries?: number;
  /** Per-attempt timeout of expense-service calls. */
  serviceTimeoutMs?: number;
  /** Read retries of expense-service calls. */
  serviceRetries?: number;
  reconcileDelayMs?: number;
  /** How long friends, profiles and Slack users stay cached. */
  directoryTtlMs?: number;
  /** How commands are carried out after their ack (see work-queue.ts). */
  work?: WorkQueueOptions;
  now?: () => Date;
  /** The daily balance DM's scheduler (see docs/digest.md). */
  digest?: DigestOptions;
}

export interface DigestOptions {
  /** False: no timer; runs happen only through `RunningSlackApp.digest.runner` (tests, benches). */
  scheduler?: boolean;
  /** Between two runs; one minute by default. */
  intervalMs?: number;
  /** People handled at once in a run; 8 by default. */
  concurrency?: number;
  /** The runner's clock; the app's `now` by default. */
  clock?: () => Date;
}

export interface RunningSlackApp {
  app: App;
  deps: SlackDeps;
  /** The port the HTTP routes listen on (Bolt's events too, in HTTP mode). */
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** The daily DM's runner, and its scheduler when one was started. */
  digest: { runner: DigestRunner; scheduler: DigestScheduler | undefined };
  stop(): Promise<void>;
}

/** Bolt's default path for events, commands and interactions in HTTP mode. */
const SLACK_EVENTS_PATH = '/slack/events';

const LOG_LEVELS: Record<Config['logLevel'], LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

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

export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const { config } = options;
  const now = options.now ?? (() => new Date());
  const slackRetries = options.slackRetries ?? 3;
  const clientOptions: webApi.WebClientOptions = {
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
    retryConfig: { retries: slackRetries, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    timeout: 10_000,
  };

  // The startup trap (reference §4): Bolt calls auth.test from its constructor unless it is given
  // the bot's ids. Asking first makes a wrong token or an unreachable Slack a clear start-up
  // failure rather than every later request failing authorization.
  const auth = await new webApi.WebClient(config.slack.botToken, clientOptions).auth.test();
  if (!auth.user_id || !auth.bot_id)
    throw new Error('auth.test did not return the bot user id and bot id');

  const tokensKeyv = createKeyv(config.storeUrl, { namespace: 'service-tokens' });
  const linksKeyv = createKeyv(config.storeUrl, { namespace: 'link-states' });
  const bindingsKeyv = createKeyv(config.storeUrl, { namespace: 'channel-groups' });
  const expensesKeyv = createKeyv(config.storeUrl, { namespace: 'slack-expenses' });
  const prefsKeyv = createKeyv(config.storeUrl, { namespace: 'user-preferences' });
  // A namespace of its own: the digest runner walks every key in it.
  const digestKeyv = createKeyv(config.storeUrl, { namespace: 'digest' });
  const claims = createClaims(config.storeUrl, { namespace: 'slack' });
  const closeStores = async () => {
    await Promise.allSettled([
      tokensKeyv.disconnect(),
      linksKeyv.disconnect(),
      bindingsKeyv.disconnect(),
      expensesKeyv.disconnect(),
      prefsKeyv.disconnect(),
      digestKeyv.disconnect(),
      claims.close(),
    ]);
  };

  try {
    const key = await loadEncryptionKey({
      encryptionKey: config.encryptionKey,
      dataDir: config.dataDir,
    });
    let linking: Linking | undefined;
    const app = new App({
      token: config.slack.botToken,
      botId: auth.bot_id,
      botUserId: auth.user_id,
      ...(options.logger ? { logger: options.logger } : { logLevel: LOG_LEVELS[config.logLevel] }),
      clientOptions,
      customRoutes: httpRoutes(() => linking),
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
    const logger = app.logger;

    const tokens = createTokenStore(tokensKeyv, key, { logger });
    const directory = createDirectory({
      slack: app.client,
      ...(options.directoryTtlMs ? { ttlMs: options.directoryTtlMs } : {}),
    });
    const service = createServiceFactory({
      ...config.service,
      ...(options.serviceTimeoutMs !== undefined ? { timeoutMs: options.serviceTimeoutMs } : {}),
      ...(options.serviceRetries !== undefined ? { retries: options.serviceRetries } : {}),
    });
    // Set once the HTTP server is up; Socket Mode acks over its socket, where nothing is watched.
    let acks: { holdFor: () => number } | undefined;
    const states = createLinkStates({ keyv: linksKeyv, claims, now: () => now().getTime() });
    const deps: SlackDeps = {
      tokens,
      linking: { connectUrl: (user, pending) => (linking as Linking).connectUrl(user, pending) },
      bindings: createChannelBindings(bindingsKeyv),
      claims,
      directory,
      service,
      reconcileDelayMs: options.reconcileDelayMs ?? 1_000,
      now,
      work: createWorkQueue({ holdFor: () => acks?.holdFor() ?? 0, ...options.work }),
      booked: new TtlCache<true>(10 * 60_000),
      expenses: createExpenseStore(expensesKeyv),
      reference: createReferenceData(service),
      slack: app.client,
      preferences: createUserPreferences(prefsKeyv),
      digest: createDigestPreferences(digestKeyv),
    };
    linking = createLinking({
      publicUrl: config.publicUrl,
      redirectUrl: config.oauthRedirectUrl,
      states,
      tokens,
      service,
      directory,
      logger,
      onLinked: afterLink(deps, () => app.client, logger),
    });
    registerListeners(app, deps);

    let port = config.port;
    try {
      if (config.slack.socketMode) {
        await app.start();
      } else {
        const server = (await app.start(config.port)) as Server;
        port = (server.address() as AddressInfo).port;
        acks = createAckGate(server, SLACK_EVENTS_PATH);
      }
    } catch (error) {
      await app.stop().catch(() => undefined);
      throw error;
    }
    logger.info(
      `Split is running (${config.slack.socketMode ? 'Socket Mode' : 'HTTP'}) on port ${port}`,
    );
    const digestClock = options.digest?.clock ?? now;
    const runner = createDigestRunner({
      preferences: deps.digest,
      tokens,
      claims,
      slack: app.client,
      serviceClientFor: (record) => service.forLink(record),
      clock: digestClock,
      ...(options.digest?.concurrency ? { concurrency: options.digest.concurrency } : {}),
      logger,
    });
    const scheduler =
      options.digest?.scheduler === false
        ? undefined
        : startDigestScheduler(runner, {
            clock: digestClock,
            ...(options.digest?.intervalMs ? { intervalMs: options.digest.intervalMs } : {}),
            logger,
          });
    let stopping: Promise<void> | undefined;
    return {
      app,
      deps,
      port,
      url: `http://127.0.0.1:${port}`,
      digest: { runner, scheduler },
      stop() {
        stopping ??= (async () => {
          // A DM being sent is finished (its claim and record written) before the store closes.
          await scheduler?.stop();
          await app.stop().catch((error: Error) => logger.warn(`stopping Bolt: ${error.message}`));
          // Commands already acked are finished before the stores close (bounded by main's timer).
          await deps.work.idle();
          await closeStores();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await closeStores();
    throw error;
  }
}
