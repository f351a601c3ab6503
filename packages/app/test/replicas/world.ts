/**
 * Two replicas of the real app in this process, each with its own connections to the store
 * (`storeUrls[0]` and `storeUrls[1]`: one URL twice is a shared store, two SQLite files are two
 * apps that know nothing of each other), in front of one expense emulator and one simulated
 * workspace. Requests are signed and posted to a chosen replica, the way a load balancer would
 * hand Slack's deliveries to whichever replica it picks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import {
  call,
  control,
  createUser,
  type Loose,
  requestCounts,
} from '@split/service-emulator/testing';
import { type AppOptions, type RunningApp, startApp } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { type FakeSlack, type ResponseUrlPost, startFakeSlack } from '../support/fake-slack.js';
import { PUBLIC_URL, quietLogger, SIGNING_SECRET, TEAM } from '../support/harness.js';
import { type SlackRequest, send } from '../support/slack-requests.js';

export const CHANNEL = 'C0001';

export interface Person {
  slackId: string;
  serviceId: number;
  email: string;
  name: string;
  apiKey: string;
}

export interface Replica {
  app: RunningApp;
  eventsUrl: string;
  logger: ReturnType<typeof quietLogger>;
}

export interface ReplicaWorld {
  emu: RunningEmulator;
  slack: FakeSlack;
  replicas: [Replica, Replica];
  /** A Slack user linked to a new service user, in every store the replicas use. */
  link(slackId: string, first_name: string): Promise<Person>;
  /** Posts one built request, signed at the moment it leaves, to a replica. */
  deliver(replica: Replica, request: SlackRequest): Promise<number>;
  /** Every post the app made to a response_url made with `responseUrl(id)`. */
  answers(id: string): ResponseUrlPost[];
  responseUrl(id: string, options?: { user?: string; ts?: string }): string;
  /** A person's live expenses (payments included), read at the emulator with their own key. */
  expenses(person: Person): Promise<Loose[]>;
  /** How many requests the emulator served per route. */
  serviceCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export async function startReplicaWorld(
  storeUrls: [string, string],
  /** Options of each replica's app beyond the world's own (a receipt reader of its own). */
  appOptions: [Partial<AppOptions>, Partial<AppOptions>] = [{}, {}],
): Promise<ReplicaWorld> {
  const emu = await startEmulator();
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), 'split-replicas-'));
  const oauthApp = (
    await control(emu.url, 'POST', 'apps', {
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
      name: 'Split for Slack',
    })
  ).body as { client_id: string; client_secret: string };
  const slackClient = slack.addOidcClient({
    redirectUris: [`${PUBLIC_URL}/oauth/slack/callback`],
    name: 'Split',
  });
  // One configuration for both, as one deployment's replicas share it; the key too, so that a
  // token sealed by one replica opens on the other.
  const encryptionKey = randomBytes(32).toString('hex');
  const started: Replica[] = [];
  const startReplica = async (storeUrl: string, extra: Partial<AppOptions>): Promise<Replica> => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: slack.team.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      SLACK_WEB_URL: slack.origin,
      SLACK_CLIENT_ID: slackClient.clientId,
      SLACK_CLIENT_SECRET: slackClient.clientSecret,
      SERVICE_API_URL: `${emu.url}/api/v3.0`,
      SERVICE_AUTHORIZE_URL: `${emu.url}/oauth/authorize`,
      SERVICE_TOKEN_URL: `${emu.url}/oauth/token`,
      SERVICE_CLIENT_ID: oauthApp.client_id,
      SERVICE_CLIENT_SECRET: oauthApp.client_secret,
      PUBLIC_URL,
      PORT: '0',
      STORE_URL: storeUrl,
      ENCRYPTION_KEY: encryptionKey,
      LOG_LEVEL: 'error',
    });
    const logger = quietLogger();
    const app = await startApp({
      config,
      logger,
      slackRetries: 0,
      // Above the 3 s the scenarios hold a read for, so that a slow read is slow, not failed.
      serviceTimeoutMs: 5_000,
      serviceRetries: 0,
      reconcileDelayMs: 0,
      serviceSettleMs: 5_000,
      digest: { scheduler: false },
      ...extra,
    });
    const replica = { app, eventsUrl: `${app.url}/slack/events`, logger };
    started.push(replica);
    return replica;
  };
  try {
    const replicas: [Replica, Replica] = [
      await startReplica(storeUrls[0], appOptions[0]),
      await startReplica(storeUrls[1], appOptions[1]),
    ];
    return {
      emu,
      slack,
      replicas,
      async link(slackId, first_name) {
        const email = `${first_name.toLowerCase()}.${randomBytes(4).toString('hex')}@example.com`;
        slack.addUser({
          id: slackId,
          name: first_name.toLowerCase(),
          real_name: first_name,
          email,
          tz: 'Europe/Paris',
        });
        const created = await createUser(emu.url, { email, first_name });
        const token = (
          await control(emu.url, 'POST', 'tokens', {
            user_id: created.user.id,
            client_id: oauthApp.client_id,
          })
        ).body as { access_token: string };
        for (const replica of replicas) {
          await replica.app.deps.tokens.set(
            { team_id: TEAM, user_id: slackId },
            {
              access_token: token.access_token,
              token_type: 'bearer',
              service_user_id: created.user.id,
              name: first_name,
              linked_at: new Date().toISOString(),
            },
          );
        }
        return {
          slackId,
          serviceId: created.user.id,
          email,
          name: first_name,
          apiKey: created.api_key,
        };
      },
      async deliver(replica, request) {
        const response = await send(replica.eventsUrl, SIGNING_SECRET, request);
        await response.text();
        return response.status;
      },
      answers: (id) => slack.responses.filter((p) => p.id === id),
      responseUrl: (id, options = {}) =>
        slack.responseUrl({ id, channel: CHANNEL, user: options.user ?? 'U0ANN', ...options }),
      async expenses(person) {
        const all = (await call(emu.url, person.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
          .expenses as Loose[];
        return all.filter((e) => !e.deleted_at);
      },
      serviceCounts: () => requestCounts(emu.url),
      async close() {
        await Promise.allSettled(started.map((r) => r.app.stop()));
        await Promise.allSettled([emu.close(), slack.close()]);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.allSettled(started.map((r) => r.app.stop()));
    await Promise.allSettled([emu.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Waits until `check` holds, polling; throws naming `what` after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets work acknowledged but still running on either replica finish. */
export async function settled(world: ReplicaWorld): Promise<void> {
  await Promise.all(world.replicas.map((r) => r.app.deps.work.idle()));
}
