/**
 * The app as production starts it: its bundle, built from the tree as it is by the build the image
 * runs (scripts/build.ts), started with `node main.js` and NODE_ENV=production, installed into many
 * workspaces so that it serves every route a stranger can reach. And a flood over those routes in
 * which every request carries new values in everything a browser controls: Accept-Language, the
 * query's state, code and error, the link cookie, a signature, the path.
 *
 * Nothing the routes answer needs Slack or the service (unknown links, forged install callbacks,
 * unsigned events are refused before any call), so their URLs point at a closed port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { buildPackage } from '../../../../scripts/build.js';

const NOWHERE = 'http://127.0.0.1:9';
const APP_PACKAGE = resolve(import.meta.dirname, '..', '..');

/**
 * The app's bundle in a scratch folder inside its package (so that its packages resolve from
 * node_modules), as the image builds it; `remove` deletes it.
 */
export async function buildApp(): Promise<{ main: string; remove(): Promise<void> }> {
  const out = mkdtempSync(join(APP_PACKAGE, '.bundle-test-'));
  await buildPackage('app', out);
  return {
    main: join(out, 'main.js'),
    remove: () => rm(out, { recursive: true, force: true }),
  };
}

export interface ProductionApp {
  url: string;
  pid: number;
  /** The heap in use after full collections: only with `probeHeap`. */
  heapUsed(): Promise<number>;
  /** VmRSS and its peak (VmHWM), in kB. */
  memory(): { rssKb: number; peakKb: number };
  /** What the process wrote, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** A built main.js (see buildApp). */
  entry: string;
  /** A folder of the caller's for the store and HOME. */
  dir: string;
  /**
   * Loads heap-probe.mjs into the process (with --expose-gc): heapUsed() then asks it for the heap
   * after collecting garbage.
   */
  probeHeap?: boolean;
  startLimitMs?: number;
}

export async function startProductionApp(options: StartOptions): Promise<ProductionApp> {
  const args = [
    ...(options.probeHeap
      ? ['--expose-gc', '--import', join(import.meta.dirname, 'heap-probe.mjs')]
      : []),
    options.entry,
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: options.dir,
      NODE_ENV: 'production',
      SLACK_STATE_SECRET: randomBytes(24).toString('hex'),
      SLACK_SIGNING_SECRET: randomBytes(16).toString('hex'),
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'slack-client-secret',
      SLACK_API_URL: `${NOWHERE}/api/`,
      SLACK_WEB_URL: NOWHERE,
      SERVICE_API_URL: `${NOWHERE}/api/v3.0`,
      SERVICE_AUTHORIZE_URL: `${NOWHERE}/oauth/authorize`,
      SERVICE_TOKEN_URL: `${NOWHERE}/oauth/token`,
      SERVICE_CLIENT_ID: 'service-client',
      SERVICE_CLIENT_SECRET: 'service-client-secret',
      PUBLIC_URL: 'http://split.test',
      PORT: '0',
      STORE_URL: `sqlite://${join(options.dir, 'app.sqlite')}`,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    stdio: ['ignore', 'pipe', 'pipe', ...(options.probeHeap ? (['ipc'] as const) : [])],
  });
  let text = '';
  const keep = (chunk: Buffer) => {
    // The start and the latest lines are what a failure needs; a flood logs a line a request.
    text = (text + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));

  const limit = Date.now() + (options.startLimitMs ?? 30_000);
  let port: string | undefined;
  while (!port) {
    if (child.exitCode !== null) throw new Error(`the app exited ${child.exitCode}:\n${text}`);
    if (Date.now() > limit) {
      child.kill('SIGKILL');
      throw new Error(`the app did not start:\n${text}`);
    }
    port = /running \(HTTP\) on port (\d+)/.exec(text)?.[1];
    if (!port) await new Promise((done) => setTimeout(done, 25));
  }

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    heapUsed: () => askHeap(child),
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]);
      return { rssKb: kb('VmRSS'), peakKb: kb('VmHWM') };
    },
    output: () => text,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function askHeap(child: ChildProcess): Promise<number> {
  return new Promise((done, fail) => {
    if (!child.send) return fail(new Error('the app was started without probeHeap'));
    const timer = setTimeout(() => fail(new Error('the heap probe did not answer')), 10_000);
    child.once('message', (message: { heapUsed?: number }) => {
      clearTimeout(timer);
      if (typeof message.heapUsed === 'number') done(message.heapUsed);
      else fail(new Error('the heap probe answered without heapUsed'));
    });
    child.send('heap');
  });
}

interface FloodRequest {
  route: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Tags of the languages the pages speak, so that each reaches the page's voice: all new. */
function acceptLanguage(i: number): string {
  const region = String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26));
  const language = ['de', 'fr', 'es', 'pt', 'ja', 'en'][i % 6]!;
  switch (Math.floor(i / 6) % 4) {
    case 0:
      return `${language}-x-${i}`;
    case 1:
      return `${language}-${region},en;q=0.${(i % 9) + 1}`;
    case 2:
      return `${language}-${region}-u-nu-latn-x-${i}`;
    default:
      return `ko-KR,${language}-x-${i};q=0.8`;
  }
}

/** A value as long as a link state (43 characters), new for each `i`. */
const token = (what: string, i: number) => `${what}${i}`.padEnd(43, 'Q');

/**
 * The public routes, with what each reads from a request. The linking pages and the install's
 * callback answer in the browser's language; the others read no header into anything kept, and
 * are flooded all the same.
 */
export const PUBLIC_ROUTES: { name: string; make: (i: number) => Omit<FloodRequest, 'route'> }[] = [
  {
    name: 'GET /oauth/start',
    make: (i) => ({ method: 'GET', path: `/oauth/start?state=${token('s', i)}`, headers: {} }),
  },
  {
    name: 'GET /oauth/slack/callback',
    make: (i) => ({
      method: 'GET',
      path: `/oauth/slack/callback?state=${token('o', i)}&code=${token('k', i)}`,
      headers: { cookie: `split_link_state=${token('s', i)}` },
    }),
  },
  {
    name: 'GET /oauth/callback',
    make: (i) => ({
      method: 'GET',
      path: `/oauth/callback?state=${token('s', i)}&code=${token('c', i)}&error=e${i}`,
      headers: { cookie: `split_link_state=${token('s', i)}` },
    }),
  },
  {
    name: 'GET /slack/oauth_redirect',
    make: (i) => ({
      method: 'GET',
      path: `/slack/oauth_redirect?state=${token('j', i)}&code=${token('c', i)}`,
      headers: { cookie: `slack-app-oauth-state=${token('j', i)}` },
    }),
  },
  {
    name: 'GET /slack/oauth_redirect (cancelled)',
    make: (i) => ({
      method: 'GET',
      path: `/slack/oauth_redirect?error=access_denied&state=${token('j', i)}`,
      headers: {},
    }),
  },
  {
    name: 'GET /slack/install',
    make: (i) => ({ method: 'GET', path: `/slack/install?team=T${i}`, headers: {} }),
  },
  {
    name: 'POST /slack/events (unsigned)',
    make: (i) => ({
      method: 'POST',
      path: '/slack/events',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-slack-signature': `v0=${i.toString(16).padStart(64, '0')}`,
      },
      body: `command=%2Fsplit&text=${i}&team_id=T${i}&user_id=U${i}`,
    }),
  },
  { name: 'GET /healthz', make: (i) => ({ method: 'GET', path: `/healthz?i=${i}`, headers: {} }) },
  { name: 'GET /readyz', make: (i) => ({ method: 'GET', path: `/readyz?i=${i}`, headers: {} }) },
  { name: 'GET /metrics', make: (i) => ({ method: 'GET', path: `/metrics?i=${i}`, headers: {} }) },
  { name: 'GET (no such page)', make: (i) => ({ method: 'GET', path: `/p${i}`, headers: {} }) },
];

/** The pages that answer in the browser's language, and the routes that read no header. */
const SPOKEN = PUBLIC_ROUTES.slice(0, 5);
const SILENT = PUBLIC_ROUTES.slice(5);

/**
 * The i-th request of a flood: four in five to a page that speaks (taking turns), the fifth to one
 * of the other routes (taking turns). Every request has a tag of its own.
 */
export function floodRequest(i: number): FloodRequest {
  const routes = i % 5 === 4 ? SILENT : SPOKEN;
  const route = routes[Math.floor(i / 5) % routes.length]!;
  const made = route.make(i);
  return {
    route: route.name,
    ...made,
    headers: { ...made.headers, 'accept-language': acceptLanguage(i) },
  };
}

export interface FloodResult {
  /** Requests answered, by route and status (`GET /healthz: 200`). */
  answered: Map<string, number>;
  ms: number;
}

/** Sends requests `from`..`from + count - 1` with `concurrency` kept-alive connections. */
export async function flood(
  url: string,
  from: number,
  count: number,
  concurrency = 16,
): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const answered = new Map<string, number>();
  let next = from;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((done, fail) => {
      const r = floodRequest(i);
      const req = request(
        `${url}${r.path}`,
        { method: r.method, headers: r.headers, agent },
        (res) => {
          res.resume();
          res.once('end', () => {
            const key = `${r.route}: ${res.statusCode}`;
            answered.set(key, (answered.get(key) ?? 0) + 1);
            done();
          });
        },
      );
      req.once('error', fail);
      req.end(r.body);
    });
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < from + count) await one(next++);
      }),
    );
  } finally {
    agent.destroy();
  }
  return { answered, ms: performance.now() - started };
}
