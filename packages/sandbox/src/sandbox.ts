/**
 * The sandbox: the expense-service emulator with its demo data, a simulated Slack workspace served
 * as a web page, and the real app between them, wired exactly as in production. The app learns
 * nothing of the sandbox: it gets a Config whose Slack Web API is the workspace's and whose
 * expense service is the emulator's, and the workspace delivers signed requests to its
 * /slack/events. This module only starts the three, keeps their data in one directory, and gives
 * the page its two controls (run the daily DM now, start over from the demo data).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from '@slack/bolt';
import { type Config, loadConfig, type RunningApp, startApp } from '@split/app';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import {
  readManifest,
  SANDBOX_EVENT_RETRY_DELAYS_MS,
  seedDemoWorkspace,
  startWorkspace,
  type Workspace,
  type WorkspaceSnapshot,
} from '@split/slack-workspace';
import { postDemoReceipts } from './demo-receipts.js';

export interface SandboxOptions {
  /** The page's port; 0 picks a free one. */
  port: number;
  /** Loopback unless told otherwise: nothing here has authentication. */
  host?: string;
  /** Where the emulator's, the workspace's and the app's data live across restarts. */
  dataDir: string;
  /** Forget what dataDir holds and start from the demo data. */
  fresh?: boolean;
  /** The built page (index.html and assets/). */
  pageDir: string;
  /** The app's manifest.yml text: commands, shortcuts and scopes the workspace offers. */
  manifestYaml: string;
  logLevel?: Config['logLevel'];
  /** The app's logger (tests keep it quiet). */
  logger?: Logger;
}

export interface RunningSandbox {
  /** The page: http://HOST:PORT/ */
  url: string;
  /** The expense-service emulator's base URL. */
  emulatorUrl: string;
  /** The app's base URL (its /slack/events and OAuth routes). */
  appUrl: string;
  workspace: Workspace;
  emulator: RunningEmulator;
  /** The app as it runs now (Reset starts a new one). */
  app(): RunningApp;
  /** Sends the daily balance DM now to everyone subscribed; resolves with how many went out. */
  runDigest(): Promise<number>;
  /** Starts over from the demo data. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const FILES = {
  emulator: 'emulator.json',
  workspace: 'workspace.json',
  store: 'app.sqlite',
};

/** The demo group that the demo channel #lisbon-trip books into. */
const DEMO_BINDING = { channel_id: 'C0LISBON', group_name: 'Lisbon trip', bound_by: 'U0ADA' };

async function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

async function writePrivate(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await rename(temporary, file);
}

/** The app's store and its key (the emulator's and the workspace's files are rewritten whole). */
async function removeAppData(dataDir: string): Promise<void> {
  const names = [FILES.store, `${FILES.store}-wal`, `${FILES.store}-shm`, 'encryption.key'];
  await Promise.all(names.map((name) => rm(join(dataDir, name), { force: true })));
}

async function removeData(dataDir: string): Promise<void> {
  await removeAppData(dataDir);
  await Promise.all(
    [FILES.emulator, FILES.workspace].map((name) => rm(join(dataDir, name), { force: true })),
  );
}

async function control<T>(emulator: RunningEmulator, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}/__emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) {
    throw new Error(`the emulator refused ${path}: HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

interface SeededPerson {
  user: { id: number; email: string };
  api_key: string;
}

/** The demo group's id, asked of the emulator as a demo person would. */
async function demoGroupId(emulator: RunningEmulator, people: SeededPerson[]): Promise<number> {
  const someone = people[0];
  if (!someone) throw new Error('the emulator seeded nobody');
  const response = await fetch(`${emulator.url}/api/v3.0/get_groups`, {
    headers: { authorization: `Bearer ${someone.api_key}` },
  });
  const { groups } = (await response.json()) as { groups: { id: number; name: string }[] };
  const group = groups.find((g) => g.name === DEMO_BINDING.group_name);
  if (!group) throw new Error(`the emulator's demo data has no group "${DEMO_BINDING.group_name}"`);
  return group.id;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  if (options.fresh) await removeData(dataDir);

  const emulatorFile = join(dataDir, FILES.emulator);
  const workspaceFile = join(dataDir, FILES.workspace);
  const firstRun = !existsSync(emulatorFile) || !existsSync(workspaceFile);
  if (firstRun) await removeData(dataDir);

  const emulator = await startEmulator({ port: 0, host, dataFile: emulatorFile });
  const appPort = await freePort(host);
  const appUrl = `http://${host}:${appPort}`;
  const signingSecret = randomBytes(16).toString('hex');

  let running: RunningApp | undefined;
  const sandbox = {} as RunningSandbox;

  const ws = await startWorkspace({
    port: options.port,
    host,
    pageDir: options.pageDir,
    app: readManifest(options.manifestYaml),
    // Slack retries an event the app does not answer; here on a compressed schedule.
    eventRetryDelaysMs: SANDBOX_EVENT_RETRY_DELAYS_MS,
    controls: {
      digest: () => sandbox.runDigest(),
      reset: () => sandbox.reset(),
    },
  });

  // A pristine demo workspace, kept to start over from.
  const demo = await startWorkspace({ port: 0, host, app: ws.app });
  seedDemoWorkspace(demo);
  await postDemoReceipts(demo);
  const demoSnapshot: WorkspaceSnapshot = demo.snapshot();
  await demo.close();

  if (firstRun) {
    ws.restore(demoSnapshot);
  } else {
    ws.restore(JSON.parse(readFileSync(workspaceFile, 'utf8')));
  }

  // The workspace is saved a moment after it changes (a burst of changes is one write), and on
  // close.
  let saveTimer: NodeJS.Timeout | undefined;
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    saving = saving
      .then(() => writePrivate(workspaceFile, JSON.stringify(ws.snapshot())))
      .catch((error: Error) =>
        options.logger?.warn(`sandbox: saving the workspace: ${error.message}`),
      );
    return saving;
  };
  const stopWatching = ws.onChange(() => {
    if (saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      void save();
    }, 250);
    saveTimer.unref();
  });
  if (firstRun) await save();

  const startTheApp = async (seeded: SeededPerson[] | undefined): Promise<RunningApp> => {
    // The app's OAuth client at the service, registered for where this app listens now.
    const client = await control<{ client_id: string; client_secret: string }>(emulator, 'apps', {
      redirect_uri: `${appUrl}/oauth/callback`,
      name: 'Split (sandbox)',
    });
    // And its client at the workspace, for Sign in with Slack before that consent.
    const slackClient = ws.addOidcClient({
      redirectUris: [`${appUrl}/oauth/slack/callback`],
      name: ws.app.name,
    });
    const config = loadConfig({
      SLACK_BOT_TOKEN: ws.team.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: ws.apiUrl,
      SLACK_WEB_URL: ws.url,
      SLACK_CLIENT_ID: slackClient.clientId,
      SLACK_CLIENT_SECRET: slackClient.clientSecret,
      SERVICE_API_URL: `${emulator.url}/api/v3.0`,
      SERVICE_AUTHORIZE_URL: `${emulator.url}/oauth/authorize`,
      SERVICE_TOKEN_URL: `${emulator.url}/oauth/token`,
      SERVICE_CLIENT_ID: client.client_id,
      SERVICE_CLIENT_SECRET: client.client_secret,
      PUBLIC_URL: appUrl,
      PORT: String(appPort),
      STORE_URL: `sqlite://${join(dataDir, FILES.store)}`,
      LOG_LEVEL: options.logLevel ?? 'warn',
    });
    const app = await startApp({ config, ...(options.logger ? { logger: options.logger } : {}) });
    ws.connectApp({ appUrl: `${app.url}/slack/events`, signingSecret });
    if (seeded) {
      await app.deps.bindings.set(
        { team_id: ws.team.id, channel_id: DEMO_BINDING.channel_id },
        {
          group_id: await demoGroupId(emulator, seeded),
          group_name: DEMO_BINDING.group_name,
          bound_by: DEMO_BINDING.bound_by,
          bound_at: new Date().toISOString(),
        },
      );
    }
    return app;
  };

  const seedEmulator = () => control<{ users: SeededPerson[] }>(emulator, 'seed');

  try {
    running = await startTheApp(firstRun ? (await seedEmulator()).users : undefined);
  } catch (error) {
    stopWatching();
    await ws.close().catch(() => undefined);
    await emulator.close().catch(() => undefined);
    throw error;
  }

  let resetting: Promise<void> | undefined;
  Object.assign(sandbox, {
    url: `${ws.url}/`,
    emulatorUrl: emulator.url,
    appUrl,
    workspace: ws,
    emulator,
    app: () => running as RunningApp,
    async runDigest() {
      const app = running as RunningApp;
      let sent = 0;
      for await (const subscription of app.deps.digest.iterate()) {
        if (!subscription.enabled || subscription.paused) continue;
        const outcome = await app.digest.runner.runOne(subscription);
        if (outcome === 'sent') sent += 1;
      }
      return sent;
    },
    reset() {
      resetting ??= (async () => {
        try {
          await running?.stop();
          running = undefined;
          await control(emulator, 'reset');
          await removeAppData(dataDir);
          const { users } = await seedEmulator();
          ws.restore(demoSnapshot);
          await save();
          running = await startTheApp(users);
        } finally {
          resetting = undefined;
        }
      })();
      return resetting;
    },
    async close() {
      stopWatching();
      if (saveTimer) clearTimeout(saveTimer);
      await resetting?.catch(() => undefined);
      await running?.stop();
      await save();
      await ws.close();
      await emulator.close();
    },
  } satisfies RunningSandbox);
  return sandbox;
}
