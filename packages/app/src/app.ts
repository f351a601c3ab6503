/**
 * The composition root: builds every part once (the store, service clients, account linking, the
 * work queue, the daily DM's runner and scheduler, the Slack app with its HTTP routes) and hands
 * each part what it needs. main.ts, the test harness and the benchmarks call `startApp`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type Logger, LogLevel, webApi } from '@slack/bolt';
import { createDirectory } from './accounts/directory.js';
import { createLinking, type Linking } from './accounts/linking.js';
import { createServiceFactory } from './accounts/service.js';
import { createUnlinking } from './accounts/unlink.js';
import type { Config } from './config.js';
import { createLogger, type LogDestination, logEvent } from './observe/logger.js';
import { createMetrics, type Metrics } from './observe/metrics.js';
import { urlPassword } from './observe/redact.js';
import { observeRoutes, type Readiness, storeReadiness } from './observe/routes.js';
import { type AttemptReport, createLeanFetch } from './service/index.js';
import {
  createSlackApp,
  registerListeners,
  SLACK_EVENTS_PATH,
  type SlackAppParts,
} from './slack/app.js';
import type { SlackDeps } from './slack/deps.js';
import {
  createDigestRunner,
  type DigestRunner,
  type DigestScheduler,
  startDigestScheduler,
} from './slack/digest/index.js';
import type { FormDraft } from './slack/expense-form/form.js';
import { createReferenceData } from './slack/expense-form/reference.js';
import { createFeedPoller, type FeedPoller } from './slack/feed/poller.js';
import { type FeedScheduler, startFeedScheduler } from './slack/feed/scheduler.js';
import { createInstalledTeams } from './slack/install/installation-store.js';
import { installerOptions } from './slack/install/installer.js';
import { installedTeamClients } from './slack/install/team-clients.js';
import { afterLink } from './slack/linking/after-link.js';
import { createDurableWork, type DurableOptions } from './slack/shared/durable.js';
import { singleTeamClients, type TeamClients } from './slack/shared/team-clients.js';
import {
  createAckGate,
  createWorkQueue,
  type WorkQueueOptions,
} from './slack/shared/work-queue.js';
import { keepPending } from './slack/split/command.js';
import { openStore, type Store } from './store/index.js';

/**
 * How long a create may still be applied after it was sent. The service states no bound of its
 * own; two minutes is four times the per-call timeout of 30 s that hosted web stacks commonly
 * enforce, and the emulator refuses to delay a request longer.
 */
const DEFAULT_SETTLE_MS = 120_000;

export interface AppOptions {
  config: Config;
  /** Replaces the app's logger (tests keep their output quiet with it). */
  logger?: Logger;
  /** Where the app's logger writes its lines (stdout by default); unused with `logger`. */
  logDestination?: LogDestination;
  /** Retries of Slack Web API calls; Slack's default policy waits up to 30 minutes. */
  slackRetries?: number;
  /** Per-attempt timeout of expense-service calls. */
  serviceTimeoutMs?: number;
  /** Read retries of expense-service calls. */
  serviceRetries?: number;
  /** Wait before looking for a create whose outcome is unknown, and between looks. */
  reconcileDelayMs?: number;
  /** How long after it was sent a service request may still be applied (see SlackDeps). */
  serviceSettleMs?: number;
  /** How long friends, profiles and Slack users stay cached. */
  directoryTtlMs?: number;
  /** How commands are carried out after their ack (see slack/work-queue.ts). */
  work?: WorkQueueOptions;
  /** The durable queue of acknowledged commands: leases, polling (see slack/shared/durable.ts). */
  jobs?: DurableOptions;
  now?: () => Date;
  /** The daily balance DM's scheduler (see docs/digest.md). */
  digest?: DigestOptions;
  /** The channel feeds' poller (`/split feed on`, see docs/feed.md). */
  feed?: FeedOptions;
}

interface FeedOptions {
  /** False: no timer; polls happen only through `RunningApp.feed.poller` (tests). */
  scheduler?: boolean;
  /** Between two polls of a feed; one minute by default. */
  intervalMs?: number;
}

interface DigestOptions {
  /** False: no timer; runs happen only through `RunningApp.digest.runner` (tests, benches). */
  scheduler?: boolean;
  /** Between two runs; one minute by default. */
  intervalMs?: number;
  /** People handled at once in a run; 8 by default. */
  concurrency?: number;
  /** The runner's clock; the app's `now` by default. */
  clock?: () => Date;
}

export interface RunningApp {
  app: App;
  deps: SlackDeps;
  /** The port the HTTP routes listen on (Bolt's events too, in HTTP mode). */
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** The daily DM's runner, and its scheduler when one was started. */
  digest: { runner: DigestRunner; scheduler: DigestScheduler | undefined };
  /** The channel feeds' poller, and its scheduler when one was started. */
  feed: { poller: FeedPoller; scheduler: FeedScheduler | undefined };
  /** What /metrics serves. */
  metrics: Metrics;
  stop(): Promise<void>;
}

/** How long /readyz waits for the store before answering 503. */
const READY_TIMEOUT_MS = 2_000;

/** When prom-client is loaded after the app serves, unless a scrape asks first. */
const METRICS_LOAD_DELAY_MS = 1_000;

/** Every configured value that must never be printed. */
function secretsOf(config: Config): (string | undefined)[] {
  return [
    config.slack.botToken,
    config.slack.signingSecret,
    config.slack.appToken,
    config.slack.clientSecret,
    config.slack.install?.stateSecret,
    config.service.clientSecret,
    config.encryptionKey,
    urlPassword(config.storeUrl),
  ];
}

/** One line per service request; failures at info so they show at the default level. */
function serviceAttempt(logger: Logger, metrics: Metrics) {
  return (report: AttemptReport) => {
    metrics.serviceRequest(report.operation, report.outcome);
    if (report.retrying) metrics.serviceRetry(report.operation);
    const level = report.outcome === 'ok' ? 'debug' : 'info';
    // Every booking makes these calls; the line is not even built unless it will be written.
    if (level === 'debug' && logger.getLevel() !== LogLevel.DEBUG) return;
    logEvent(
      logger,
      level,
      {
        operation: report.operation,
        status: report.status ?? null,
        outcome: report.outcome,
        durationMs: report.durationMs,
        ...(report.attempt > 0 ? { attempt: report.attempt } : {}),
        ...(report.retrying ? { retrying: true } : {}),
      },
      `service ${report.operation} ${report.status ?? report.outcome} in ${report.durationMs} ms`,
    );
  };
}

/**
 * How Bolt authorizes requests. One workspace: the configured bot token, checked with auth.test
 * first (Bolt calls it from its constructor unless given the bot's ids, and asking first makes a
 * wrong token or an unreachable Slack a clear start-up failure rather than every later request
 * failing). Many workspaces: Bolt's install routes, and each team's own installation.
 */
async function slackAuth(
  config: Config,
  store: Store<FormDraft>,
  tokenless: webApi.WebClient,
  clientOptions: webApi.WebClientOptions,
  logger: Logger,
  now: () => Date,
): Promise<{ auth: SlackAppParts['auth']; teams: TeamClients | undefined }> {
  const { install } = config.slack;
  if (!install) {
    const auth = await new webApi.WebClient(config.slack.botToken, clientOptions).auth.test();
    if (!auth.user_id || !auth.bot_id)
      throw new Error('auth.test did not return the bot user id and bot id');
    return {
      auth: { kind: 'token', botId: auth.bot_id, botUserId: auth.user_id },
      teams: undefined,
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
    teams: installedTeamClients(installed, clientOptions),
  };
}

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const { config } = options;
  const now = options.now ?? (() => new Date());
  const slackRetries = options.slackRetries ?? 3;
  const logger: Logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      format: config.logFormat,
      secrets: secretsOf(config),
      ...(options.logDestination ? { destination: options.logDestination } : {}),
    });
  const metrics = createMetrics();
  let readiness: Readiness = async () => 'starting';
  // Slack's and the service's calls share kept-alive connections and skip the global fetch's
  // per-call overhead (see service/lean-fetch.ts).
  const http = createLeanFetch();
  const clientOptions: webApi.WebClientOptions = {
    logger,
    fetch: http,
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
    retryConfig: { retries: slackRetries, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    timeout: 10_000,
  };

  const store = await openStore<FormDraft>(config.storeUrl, {
    encryptionKey: config.encryptionKey,
    dataDir: config.dataDir,
    logger,
    now,
  }).catch((error: unknown) => {
    http.close();
    throw error;
  });
  try {
    // No bot token on the sign-in and install exchanges, and no retry: a code works once.
    const tokenless = new webApi.WebClient(undefined, {
      ...clientOptions,
      retryConfig: { retries: 0 },
    });
    const { auth, teams } = await slackAuth(config, store, tokenless, clientOptions, logger, now);
    let linking: Linking | undefined;
    const app = createSlackApp({
      config,
      clientOptions,
      auth,
      logger,
      linking: () => linking,
      routes: observeRoutes({ metrics, ready: () => readiness() }),
      metrics,
    });
    const slack = teams ?? singleTeamClients(app.client);
    const directory = createDirectory({
      slack: (team_id) => slack.forTeam(team_id),
      ...(options.directoryTtlMs ? { ttlMs: options.directoryTtlMs } : {}),
    });
    const service = createServiceFactory({
      ...config.service,
      ...(options.serviceTimeoutMs !== undefined ? { timeoutMs: options.serviceTimeoutMs } : {}),
      ...(options.serviceRetries !== undefined ? { retries: options.serviceRetries } : {}),
      onAttempt: serviceAttempt(logger, metrics),
      fetch: http,
    });
    // Set once the HTTP server is up; Socket Mode acks over its socket, where nothing is watched.
    let acks: { holdFor: () => number } | undefined;
    const work = createWorkQueue({ holdFor: () => acks?.holdFor() ?? 0, ...options.work });
    const durable = createDurableWork(store.jobs, work, logger, options.jobs);
    metrics.watchQueues(() => ({ work: work.size, durable: durable.size }));
    const { deps, jobs } = registerListeners(app, {
      tokens: store.tokens,
      linking: { connectUrl: (user, pending) => (linking as Linking).connectUrl(user, pending) },
      bindings: store.bindings,
      claims: store.claims,
      directory,
      service,
      reconcileDelayMs: options.reconcileDelayMs ?? 1_000,
      settleMs: options.serviceSettleMs ?? DEFAULT_SETTLE_MS,
      now,
      work,
      durable,
      expenses: store.expenses,
      reference: createReferenceData(service),
      slack,
      preferences: store.preferences,
      digest: store.digest,
      splitDefaults: store.splitDefaults,
      feeds: store.feeds,
      forget: store.forget,
      unlinking: createUnlinking({ tokens: store.tokens, forget: store.forget, directory }),
    });
    linking = createLinking({
      publicUrl: config.publicUrl,
      redirectUrl: config.oauthRedirectUrl,
      states: store.linkStates,
      tokens: store.tokens,
      service,
      directory,
      logger,
      slack: {
        webUrl: config.slack.webUrl,
        clientId: config.slack.clientId,
        clientSecret: config.slack.clientSecret,
        redirectUrl: config.signInRedirectUrl,
        exchange: (args) => tokenless.openid.connect.token(args),
      },
      now: () => now().getTime(),
      keepPending: keepPending(deps),
      onLinked: afterLink((team_id) => slack.forTeam(team_id), logger),
    });

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
    // Work acknowledged before a crash (here or on a replica that stopped) is taken up again.
    deps.durable.start(jobs);
    readiness = storeReadiness(() => store.ping(), {
      timeoutMs: READY_TIMEOUT_MS,
      onChange: (reason, error) => {
        if (reason === undefined) logger.info('ready: the store answers');
        else logger.warn(`not ready: ${reason}${error ? ` (${error.message})` : ''}`);
      },
    });
    logger.info(
      `Split is running (${config.slack.socketMode ? 'Socket Mode' : 'HTTP'}) on port ${port}`,
    );
    // A moment later, so that the first requests after a start are not answered behind it.
    setTimeout(() => {
      metrics.load().catch((error: Error) => logger.warn(`metrics: ${error.message}`));
    }, METRICS_LOAD_DELAY_MS).unref();
    const digestClock = options.digest?.clock ?? now;
    const runner = createDigestRunner({
      preferences: store.digest,
      tokens: store.tokens,
      claims: store.claims,
      slackFor: (team_id) => slack.forTeam(team_id),
      serviceClientFor: (record) => service.forLink(record),
      clock: digestClock,
      ...(options.digest?.concurrency ? { concurrency: options.digest.concurrency } : {}),
      logger,
      onOutcome: (outcome) => {
        if (outcome === 'sent') metrics.digestSent();
        else if (outcome === 'failed' || outcome === 'retry_later') metrics.digestFailed();
      },
    });
    const scheduler =
      options.digest?.scheduler === false
        ? undefined
        : startDigestScheduler(runner, {
            clock: digestClock,
            ...(options.digest?.intervalMs ? { intervalMs: options.digest.intervalMs } : {}),
            logger,
          });
    const feedInterval = options.feed?.intervalMs ?? 60_000;
    const feedPoller = createFeedPoller({
      feeds: store.feeds,
      tokens: store.tokens,
      claims: store.claims,
      service,
      slack,
      logger,
      intervalMs: feedInterval,
    });
    const feedScheduler =
      options.feed?.scheduler === false
        ? undefined
        : startFeedScheduler(feedPoller, { intervalMs: feedInterval, logger });
    let stopping: Promise<void> | undefined;
    return {
      app,
      deps,
      port,
      url: `http://127.0.0.1:${port}`,
      digest: { runner, scheduler },
      feed: { poller: feedPoller, scheduler: feedScheduler },
      metrics,
      stop() {
        stopping ??= (async () => {
          readiness = async () => 'stopping';
          // A DM being sent is finished (its claim and record written) before the store closes.
          await scheduler?.stop();
          await feedScheduler?.stop();
          await app.stop().catch((error: Error) => logger.warn(`stopping Bolt: ${error.message}`));
          // Commands already acked and started are finished before the store closes (bounded by
          // main's timer); those not started are left to another replica or the next start.
          await deps.durable.stop();
          await deps.work.idle();
          await store.close();
          http.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await store.close();
    http.close();
    throw error;
  }
}
