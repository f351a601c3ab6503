/**
 * Listeners called directly, the way Bolt's own samples test one: fake `ack`, `respond` and Web
 * API client that record what they are given, and deps built from the app's real parts on a
 * SQLite file (store, durable queue, work queue, linking, directory), wired by the same
 * `registerListeners` as the app, so that the hooks between features are the real ones. Nothing
 * listens and nothing is fetched: by default the expense service's client refuses every call (a
 * test that reaches it fails, naming the call); given `service`, it reaches the emulator in this
 * process (service-world.ts), and jobs run as in the app.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, webApi } from '@slack/bolt';
import { createDirectory } from '../../src/accounts/directory.js';
import { createLinking, type Linking } from '../../src/accounts/linking.js';
import { createServiceFactory } from '../../src/accounts/service.js';
import { createUnlinking } from '../../src/accounts/unlink.js';
import type { FetchLike } from '../../src/service/request.js';
import { registerListeners } from '../../src/slack/app.js';
import type { SlackDeps } from '../../src/slack/deps.js';
import type { FormDraft } from '../../src/slack/expense-form/form.js';
import { createReferenceData } from '../../src/slack/expense-form/reference.js';
import { createDurableWork, type JobHandler } from '../../src/slack/runtime/durable.js';
import { singleTeamClients } from '../../src/slack/runtime/team-clients.js';
import { createWorkQueue } from '../../src/slack/runtime/work-queue.js';
import { fileHosts } from '../../src/slack/shared/file-hosts.js';
import { createOffers } from '../../src/slack/shared/offers.js';
import { openStore, type Store } from '../../src/store/index.js';
import { quietLogger } from './harness.js';

export const TEAM = 'T0001';
export const PUBLIC_URL = 'https://split.test';

/** One Web API call the listener made: `views.publish` and its arguments. */
export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
}

/**
 * A Web API client that answers `{ ok: true }` to every method and records the call; `answers`
 * gives a method another answer (an object, or an error to throw).
 */
export function recordingClient(answers: Answers = {}): {
  client: webApi.WebClient;
  calls: ApiCall[];
} {
  const calls: ApiCall[] = [];
  const at = (path: string[]): unknown =>
    new Proxy(() => undefined, {
      // Not a thenable: a client handed through a promise (forTeam) must resolve to itself.
      get: (_target, key) =>
        typeof key === 'string' && key !== 'then' ? at([...path, key]) : undefined,
      apply: async (_target, _this, [args]: [Record<string, unknown>?]) => {
        const method = path.join('.');
        calls.push({ method, args: args ?? {} });
        const given = answers[method];
        const answer = typeof given === 'function' ? await given(args ?? {}) : given;
        if (answer instanceof Error) throw answer;
        return answer ?? { ok: true };
      },
    });
  return { client: at([]) as webApi.WebClient, calls };
}

/** A Web API method's answer: a value, an error to throw, or made from the call's arguments. */
export type Answers = Record<string, unknown | ((args: Record<string, unknown>) => unknown)>;

/** `ack` and `respond` that record what they were given, in order. */
export function recorder(): {
  ack: (answer?: unknown) => Promise<void>;
  respond: (message: unknown) => Promise<{ ok: true }>;
  acks: unknown[];
  responses: Record<string, unknown>[];
} {
  const acks: unknown[] = [];
  const responses: Record<string, unknown>[] = [];
  return {
    acks,
    responses,
    ack: async (answer?: unknown) => {
      acks.push(answer);
    },
    respond: async (message: unknown) => {
      responses.push(
        typeof message === 'string' ? { text: message } : (message as Record<string, unknown>),
      );
      return { ok: true };
    },
  };
}

/** A job the durable queue carried out: what the listener queued for later. */
export interface RanJob {
  kind: string;
  payload: unknown;
}

export interface HandlerWorld {
  deps: SlackDeps;
  store: Store<FormDraft>;
  client: webApi.WebClient;
  /** Every Web API call made with `client`, by listeners and the work after them. */
  calls: ApiCall[];
  logger: ReturnType<typeof quietLogger>;
  /** Jobs carried out after the ack, by kind (the test's own job handlers). */
  ran: RanJob[];
  /** Account linking whole, with its browser routes (start, back from Sign in, callback). */
  linking: Linking;
  /** Waits until the work queued after acks is done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A world for calling listeners. Durable jobs are carried out by handlers that only record them
 * (what a job then does at the service is the e2e tests' part).
 */
export async function startHandlerWorld(
  options: {
    answers?: Answers;
    /** The expense service to reach (the emulator in this process); none by default. */
    service?: { apiUrl: string; fetch: FetchLike };
    /** Carry out durable jobs as the app does, rather than only record them. */
    runJobs?: boolean;
    /** Where posts to a response_url go; refused by default. */
    http?: FetchLike;
  } = {},
): Promise<HandlerWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'split-handlers-'));
  const logger = quietLogger();
  const store = await openStore<FormDraft>(`sqlite://${join(dir, 'app.sqlite')}`, {
    dataDir: dir,
    encryptionKey: '11'.repeat(32),
  });
  const { client, calls } = recordingClient(options.answers);
  const slack = singleTeamClients(client);
  const apiUrl = options.service?.apiUrl ?? 'https://service.test/api/v3.0';
  const origin = new URL(apiUrl).origin;
  const service = createServiceFactory({
    apiUrl,
    authorizeUrl: `${origin}/oauth/authorize`,
    tokenUrl: `${origin}/oauth/token`,
    clientId: 'client',
    clientSecret: 'secret',
    retries: 0,
    fetch:
      options.service?.fetch ??
      (async (url) => {
        throw new Error(`a listener unit test called the expense service: ${String(url)}`);
      }),
  });
  const directory = createDirectory({ slack: (team_id) => slack.forTeam(team_id) });
  const work = createWorkQueue({ loopBusy: () => false });
  const durable = createDurableWork(store.jobs, work, logger);
  const app = new App({
    token: 'xoxb-test',
    botId: 'B0BOT',
    botUserId: 'U0BOT',
    signingSecret: 'secret',
    logger,
  });
  const linking = createLinking({
    publicUrl: PUBLIC_URL,
    redirectUrl: `${PUBLIC_URL}/oauth/callback`,
    states: store.linkStates,
    tokens: store.tokens,
    service,
    directory,
    logger,
    slack: {
      webUrl: 'https://slack.test',
      clientId: 'slack-client',
      clientSecret: 'slack-secret',
      redirectUrl: `${PUBLIC_URL}/oauth/slack/callback`,
      exchange: async () => {
        throw new Error('a listener unit test signed in with Slack');
      },
    },
    replacePrompt: async () => undefined,
    keepPending: async () => undefined,
    onLinked: async () => undefined,
  });
  const { deps, jobs } = registerListeners(app, {
    fileHosts: fileHosts(undefined),
    offers: createOffers(store.signer, () => new Date()),
    webClient: (token) => new webApi.WebClient(token, { slackApiUrl: 'http://127.0.0.1:1/api/' }),
    sealer: store.sealer,
    unlinking: createUnlinking({ tokens: store.tokens, forget: store.forget, directory }),
    tokens: store.tokens,
    linking,
    bindings: store.bindings,
    claims: store.claims,
    directory,
    service,
    reconcileDelayMs: 10,
    settleMs: 100,
    now: () => new Date(),
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
    http:
      options.http ??
      (async (url) => {
        throw new Error(`a listener unit test posted to a response_url: ${String(url)}`);
      }),
  });
  const ran: RanJob[] = [];
  const record =
    (kind: string): JobHandler =>
    async (payload) => {
      ran.push({ kind, payload });
    };
  durable.start(
    options.runJobs
      ? jobs
      : new Proxy({} as Record<string, JobHandler>, {
          get: (_target, kind) => (typeof kind === 'string' ? record(kind) : undefined),
        }),
  );
  return {
    deps,
    store,
    client,
    calls,
    logger,
    ran,
    linking,
    settled: () => work.idle(),
    async close() {
      await durable.stop();
      await work.idle();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
