/**
 * The composition root: builds every part once (the store, service clients, account linking, the
 * work queue, the daily DM's runner and scheduler, the Slack app with its HTTP routes) and hands
 * each part what it needs. main.ts, the test harness and the benchmarks call `startApp`.
 */
import type { Server } from 'node:http';
import { type App, type Logger, webApi } from '@slack/bolt';
import { createDirectory } from './accounts/directory.js';
import { createLinking, type Linking } from './accounts/linking.js';
import { createServiceFactory, type ServiceFactory } from './accounts/service.js';
import { createUnlinking } from './accounts/unlink.js';
import type { Config } from './config.js';
import { createLogger, type LogDestination } from './observe/logger.js';
import { createMetrics, type Metrics } from './observe/metrics.js';
import { urlPassword } from './observe/redact.js';
import {
  metricsHandler,
  observeRoutes,
  type Readiness,
  startMetricsServer,
  storeReadiness,
} from './observe/routes.js';
import { observeServiceCalls } from './observe/service-calls.js';
import { type ReceiptsOption, receiptReader } from './receipt-reader.js';
import { createLeanFetch, type LeanFetch } from './service/index.js';
import { createSlackApp, registerListeners, SLACK_EVENTS_PATH, slackAuth } from './slack/app.js';
import { slackClientOptions } from './slack/client-options.js';
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
import { afterLink } from './slack/linking/after-link.js';
import { createDurableWork, type DurableOptions } from './slack/runtime/durable.js';
import type { TeamClients } from './slack/runtime/team-clients.js';
import {
  createAckGate,
  createWorkQueue,
  type WorkQueueOptions,
} from './slack/runtime/work-queue.js';
import { fileHosts } from './slack/shared/file-hosts.js';
import { createOffers } from './slack/shared/offers.js';
import { type Voice, voiceOf } from './slack/shared/voice.js';
import { keepPending } from './slack/split/ack.js';
import { openStore, type SlackUserKey, type Store } from './store/index.js';

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
  /** How commands are carried out after their ack (see slack/runtime/work-queue.ts). */
  work?: WorkQueueOptions;
  /** The durable queue of acknowledged commands: leases, polling (see slack/runtime/durable.ts). */
  jobs?: DurableOptions;
  /** How photos of receipts are read into the expense form (docs/receipts.md); false: never. */
  receipts?: ReceiptsOption;
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
  /** http://127.0.0.1:METRICS_PORT/metrics when metrics have a port of their own. */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/** How long /readyz waits for the store before answering 503. */
const READY_TIMEOUT_MS = 2_000;

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
    config.metrics.token,
    urlPassword(config.storeUrl),
  ];
}

/** What every part is built from: the configuration, the clock, logs, metrics and HTTP. */
interface Basics {
  config: Config;
  options: AppOptions;
  now: () => Date;
  logger: Logger;
  metrics: Metrics;
  http: LeanFetch;
  /** The options of the Slack Web API clients that answer and act (Bolt's among them). */
  clientOptions: webApi.WebClientOptions;
  /** The options of the clients the directory looks people up with (slack/client-options.ts). */
  lookupOptions: webApi.WebClientOptions;
}

function basics(options: AppOptions): Basics {
  const { config } = options;
  const logger: Logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      format: config.logFormat,
      secrets: secretsOf(config),
      ...(options.logDestination ? { destination: options.logDestination } : {}),
    });
  // Slack's and the service's calls share kept-alive connections (see service/lean-fetch.ts).
  const http = createLeanFetch();
  const clients = slackClientOptions({
    logger,
    http,
    apiUrl: config.slack.apiUrl,
    retries: options.slackRetries ?? 3,
  });
  const now = options.now ?? (() => new Date());
  return { config, options, now, logger, metrics: createMetrics(), http, ...clients };
}

/**
 * The parts the listeners and the linking routes share, built before either: the directory,
 * service clients, the work queue and its durable jobs. `holdFor` is read per command: the HTTP
 * server it watches starts after the listeners are registered.
 */
function sharedParts(
  b: Basics,
  store: Store<FormDraft>,
  lookups: TeamClients,
  holdFor: () => number,
) {
  const { options } = b;
  // Lookups have clients (and so queues) of their own: no answer waits behind them.
  const directory = createDirectory({
    slack: (team_id) => lookups.forTeam(team_id),
    ...(options.directoryTtlMs ? { ttlMs: options.directoryTtlMs } : {}),
  });
  const service = createServiceFactory({
    ...b.config.service,
    ...(options.serviceTimeoutMs !== undefined ? { timeoutMs: options.serviceTimeoutMs } : {}),
    ...(options.serviceRetries !== undefined ? { retries: options.serviceRetries } : {}),
    onAttempt: observeServiceCalls(b.logger, b.metrics),
    fetch: b.http,
  });
  const work = createWorkQueue({ holdFor, ...options.work });
  const durable = createDurableWork(store.jobs, work, b.logger, options.jobs);
  b.metrics.watchQueues(() => ({ work: work.size, durable: durable.size }));
  return { directory, service, work, durable, receipts: receiptReader(options.receipts, b.logger) };
}

type SharedParts = ReturnType<typeof sharedParts>;

type HomePublisher = (client: webApi.WebClient, user: SlackUserKey, voice: Voice) => Promise<void>;

function linkingFor(
  b: Basics,
  store: Store<FormDraft>,
  slack: TeamClients,
  shared: SharedParts,
  tokenless: webApi.WebClient,
  publishHome: () => HomePublisher | undefined,
): Linking {
  const { config } = b;
  const linked = afterLink({
    client: (team_id) => slack.forTeam(team_id),
    directory: shared.directory,
    publishHome,
    logger: b.logger,
    http: b.http,
  });
  return createLinking({
    publicUrl: config.publicUrl,
    redirectUrl: config.oauthRedirectUrl,
    states: store.linkStates,
    tokens: store.tokens,
    service: shared.service,
    directory: shared.directory,
    logger: b.logger,
    slack: {
      webUrl: config.slack.webUrl,
      clientId: config.slack.clientId,
      clientSecret: config.slack.clientSecret,
      redirectUrl: config.signInRedirectUrl,
      exchange: (args) => tokenless.openid.connect.token(args),
    },
    now: () => b.now().getTime(),
    keepPending: keepPending(shared),
    onLinked: linked.onLinked,
    replacePrompt: linked.replacePrompt,
  });
}

function listenerParts(
  b: Basics,
  store: Store<FormDraft>,
  slack: TeamClients,
  shared: SharedParts,
  linking: Linking,
): Omit<SlackDeps, 'hooks'> {
  const { options } = b;
  const { directory, service } = shared;
  return {
    ...shared,
    tokens: store.tokens,
    linking,
    bindings: store.bindings,
    claims: store.claims,
    reconcileDelayMs: options.reconcileDelayMs ?? 1_000,
    settleMs: options.serviceSettleMs ?? DEFAULT_SETTLE_MS,
    now: b.now,
    expenses: store.expenses,
    reference: createReferenceData(service),
    slack,
    preferences: store.preferences,
    digest: store.digest,
    splitDefaults: store.splitDefaults,
    feeds: store.feeds,
    forget: store.forget,
    unlinking: createUnlinking({ tokens: store.tokens, forget: store.forget, directory }),
    fileHosts: fileHosts(b.config.slack.apiUrl),
    http: b.http,
    offers: createOffers(store.signer, b.now),
    webClient: (token) => new webApi.WebClient(token, b.clientOptions),
    sealer: store.sealer,
  };
}

/** Starts Bolt: its HTTP server (returned, with its port) or its Socket Mode connection. */
async function listen(app: App, config: Config): Promise<{ port: number; server?: Server }> {
  try {
    if (config.slack.socketMode) {
      await app.start();
      return { port: config.port };
    }
    const server = await app.start(config.port);
    const address = server.address();
    // Listening on a TCP port, the server's address is never a pipe's name.
    if (address === null || typeof address === 'string')
      throw new Error(`the HTTP server is not on a TCP port (${address})`);
    return { port: address.port, server };
  } catch (error) {
    await app.stop().catch(() => undefined);
    throw error;
  }
}

function startDigest(
  b: Basics,
  store: Store<FormDraft>,
  slack: TeamClients,
  service: ServiceFactory,
): RunningApp['digest'] {
  const { options, logger, metrics } = b;
  const clock = options.digest?.clock ?? b.now;
  const runner = createDigestRunner({
    preferences: store.digest,
    tokens: store.tokens,
    claims: store.claims,
    slackFor: (team_id) => slack.forTeam(team_id),
    serviceClientFor: (record) => service.forLink(record),
    clock,
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
          clock,
          ...(options.digest?.intervalMs ? { intervalMs: options.digest.intervalMs } : {}),
          logger,
        });
  return { runner, scheduler };
}

function startFeeds(
  b: Basics,
  store: Store<FormDraft>,
  slack: TeamClients,
  shared: SharedParts,
): RunningApp['feed'] {
  const { options, logger } = b;
  const intervalMs = options.feed?.intervalMs ?? 60_000;
  const poller = createFeedPoller({
    feeds: store.feeds,
    tokens: store.tokens,
    claims: store.claims,
    service: shared.service,
    slack,
    voiceOfOwner: (user) => voiceOf(shared, user, logger),
    logger,
    intervalMs,
  });
  const scheduler =
    options.feed?.scheduler === false
      ? undefined
      : startFeedScheduler(poller, { intervalMs, logger });
  return { poller, scheduler };
}

/** Once the app serves: /readyz follows the store, and the start is logged. */
function serving(
  b: Basics,
  port: number,
  store: Store<FormDraft>,
  metricsAt: number | undefined,
): Readiness {
  const { config, logger } = b;
  const readiness = storeReadiness(() => store.ping(), {
    timeoutMs: READY_TIMEOUT_MS,
    onChange: (reason, error) => {
      if (reason === undefined) logger.info('ready: the store answers');
      else logger.warn({ msg: 'not ready: {reason}', reason, error: error?.message });
    },
  });
  const mode = config.slack.socketMode ? 'Socket Mode' : 'HTTP';
  const metrics = metricsAt === undefined ? '' : `, /metrics on port ${metricsAt}`;
  logger.info({ msg: 'Split is running ({mode}) on port {port}{metrics}', mode, port, metrics });
  return readiness;
}

async function stopApp(
  b: Basics,
  running: Omit<RunningApp, 'stop'>,
  store: Store<FormDraft>,
  metricsServer: Server | undefined,
): Promise<void> {
  const { app, deps, digest, feed } = running;
  metricsServer?.close();
  metricsServer?.closeAllConnections();
  // A DM being sent is finished (its claim and record written) before the store closes.
  await digest.scheduler?.stop();
  await feed.scheduler?.stop();
  await app.stop().catch((e: Error) => b.logger.warn({ msg: 'stopping Bolt', error: e.message }));
  // Acked commands already started finish first; the rest wait for a replica or the next start.
  await deps.durable.stop();
  await deps.work.idle();
  await deps.receipts?.close();
  await store.close();
  b.http.close();
}

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const b = basics(options);
  const { config, logger, metrics, http } = b;
  let readiness: Readiness = async () => 'starting';
  const store = await openStore<FormDraft>(config.storeUrl, {
    encryptionKey: config.encryptionKey,
    dataDir: config.dataDir,
    logger,
    now: b.now,
  }).catch((error: unknown) => {
    http.close();
    throw error;
  });
  try {
    // No bot token on the sign-in and install exchanges, and no retry: a code works once.
    const tokenless = new webApi.WebClient(undefined, {
      ...b.clientOptions,
      retryConfig: { retries: 0 },
    });
    const { auth, slack, lookups } = await slackAuth({
      config,
      store,
      tokenless,
      clientOptions: b.clientOptions,
      lookupOptions: b.lookupOptions,
      logger,
      now: b.now,
    });
    // Set once the HTTP server is up; Socket Mode acks over its socket, where nothing is watched.
    let acks: { holdFor: () => number } | undefined;
    const shared = sharedParts(b, store, lookups, () => acks?.holdFor() ?? 0);
    // App Home is published again after linking: through the listeners' hooks, made below.
    let publishHome: HomePublisher | undefined;
    const linking = linkingFor(b, store, slack, shared, tokenless, () => publishHome);
    const app = createSlackApp({
      config,
      clientOptions: b.clientOptions,
      auth,
      logger,
      linking,
      routes: observeRoutes({
        metrics,
        ready: () => readiness(),
        metricsHere: config.metrics.port === undefined,
        metricsToken: config.metrics.token,
      }),
      metrics,
    });
    const { deps, jobs } = registerListeners(app, listenerParts(b, store, slack, shared, linking));
    publishHome = (client, user, voice) => deps.hooks.publishHome(client, user, voice, logger);
    const { port, server } = await listen(app, config);
    // METRICS_PORT: /metrics on a port of its own (else on this one behind METRICS_TOKEN, or off).
    const metricsServer =
      config.metrics.port === undefined
        ? undefined
        : await startMetricsServer(
            config.metrics.port,
            metricsHandler(metrics, config.metrics.token),
          ).catch(async (error: unknown) => {
            await app.stop().catch(() => undefined);
            throw error;
          });
    if (server) acks = createAckGate(server, SLACK_EVENTS_PATH);
    // Work acknowledged before a crash (here or on a replica that stopped) is taken up again.
    deps.durable.start(jobs);
    readiness = serving(b, port, store, metricsServer?.port);
    const digest = startDigest(b, store, slack, shared.service);
    const feed = startFeeds(b, store, slack, shared);
    const running = {
      app,
      deps,
      port,
      url: `http://127.0.0.1:${port}`,
      digest,
      feed,
      metrics,
      metricsUrl: metricsServer && `http://127.0.0.1:${metricsServer.port}/metrics`,
    };
    let stopping: Promise<void> | undefined;
    return {
      ...running,
      stop() {
        readiness = async () => 'stopping';
        stopping ??= stopApp(b, running, store, metricsServer?.server);
        return stopping;
      },
    };
  } catch (error) {
    await store.close();
    http.close();
    throw error;
  }
}
