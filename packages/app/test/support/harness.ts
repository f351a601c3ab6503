/**
 * Everything an end-to-end test of the Slack app needs, on loopback and port 0: the expense
 * emulator (with the app registered as an OAuth client), the fake Slack Web API, and the app
 * itself pointed at both (SLACK_API_URL = the fake). Slack's Web API retries are off, the service
 * timeout is short, and every server is closed by `close()`.
 *
 * The app's PUBLIC_URL is http://split.test: the emulator redirects browsers there, and `local()`
 * maps it to the app's real loopback address, the way a browser would resolve the name.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@slack/bolt';
import { LogLevel } from '@slack/bolt';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import {
  control,
  createUser,
  parseForm,
  raw,
  requestCounts,
  submitForm,
} from '@split/service-emulator/testing';
import { type AppOptions, type RunningApp, startApp } from '../../src/compose.js';
import { type Config, loadConfig } from '../../src/config.js';
import { lineText } from '../../src/observe/logger.js';
import {
  type FakeSlack,
  type ResponseUrlPost,
  type StartFakeSlackOptions,
  startFakeSlack,
} from './fake-slack.js';
import { type CommandOptions, type SlackSender, slackSender } from './slack-requests.js';

export const SIGNING_SECRET = 'harness-signing-secret-0123456789';
export const PUBLIC_URL = 'http://split.test';
export const TEAM = 'T0001';

export interface LinkedPerson {
  slackId: string;
  serviceId: number;
  email: string;
  name: string;
  accessToken: string;
  apiKey: string;
}

export interface PersonInput {
  slackId: string;
  first_name: string;
  last_name?: string;
  email?: string;
  tz?: string;
  /** Slack's BCP 47 locale (users.info with include_locale). */
  locale?: string;
  default_currency?: string;
}

/** Records log lines instead of printing them; tests read `lines` when they care. */
export function quietLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  let level = LogLevel.INFO;
  const at =
    (name: string) =>
    (...msg: unknown[]) => {
      lines.push(`${name} ${lineText(msg)}`);
    };
  return {
    lines,
    debug: () => undefined,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * A loopback proxy in front of the emulator that can hold the answer to chosen requests after the
 * emulator has applied them: "the service did it, but the answer never came back in time".
 */
export interface DelayProxy {
  url: string;
  /** The next `times` requests whose path ends with `suffix` get their answer `ms` late. */
  holdAnswer(suffix: string, ms: number, times?: number): void;
  close(): Promise<void>;
}

export async function startDelayProxy(target: string): Promise<DelayProxy> {
  const holds: { suffix: string; ms: number; left: number }[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const hold = holds.find((h) => h.left > 0 && path.endsWith(h.suffix));
    if (hold) hold.left -= 1;
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const send = () => {
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          };
          if (hold) setTimeout(send, hold.ms).unref();
          else send();
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    holdAnswer(suffix, ms, times = 1) {
      holds.push({ suffix, ms, left: times });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface HarnessOptions extends Partial<Omit<AppOptions, 'config'>> {
  /** Put a DelayProxy between the app and the emulator. */
  delayProxy?: boolean;
  /** Variables over the harness's own configuration (LOG_LEVEL, STORE_URL...). */
  env?: Record<string, string>;
  /** The simulated workspace's event delivery: its retry schedule and acknowledgement limit. */
  slack?: StartFakeSlackOptions;
}

export interface Harness {
  /** The app's configuration, as loaded from the harness's variables. */
  config: Config;
  emu: RunningEmulator;
  slack: FakeSlack;
  app: RunningApp;
  proxy: DelayProxy | undefined;
  logger: Logger & { lines: string[] };
  /** The app's Bolt endpoint. */
  eventsUrl: string;
  sender: SlackSender;
  oauthApp: { client_id: string; client_secret: string };
  /** Maps a URL on PUBLIC_URL to the app's loopback address. */
  local(url: string): string;
  /** A Slack user (in the fake) with no service account linked. */
  addSlackUser(person: PersonInput): void;
  /** The Slack user added with this e-mail. */
  slackIdFor(email: string): string | undefined;
  /** A Slack user linked to a fresh service user through the emulator's token shortcut. */
  link(person: PersonInput): Promise<LinkedPerson>;
  /** Sends `/split <text>` and waits for its first answer on the response_url. */
  split(text: string, options?: CommandOptions & { timeoutMs?: number }): Promise<SplitOutcome>;
  serviceCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export interface SplitOutcome {
  status: number;
  ackBody: string;
  responseUrl: string;
  /** The first post to the response_url. */
  answer: ResponseUrlPost;
  /** Every post to this response_url so far. */
  answers(): ResponseUrlPost[];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const emu = await startEmulator();
  const slack = await startFakeSlack(options.slack);
  const proxy = options.delayProxy ? await startDelayProxy(emu.url) : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'split-harness-'));
  const oauthApp = (
    await control(emu.url, 'POST', 'apps', {
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
      name: 'Split for Slack',
    })
  ).body as { client_id: string; client_secret: string };
  const serviceBase = proxy?.url ?? emu.url;
  // The app's own client at Slack, for Sign in with Slack before the service's consent.
  const slackClient = slack.addOidcClient({
    redirectUris: [`${PUBLIC_URL}/oauth/slack/callback`],
    name: 'Split',
  });
  const config = loadConfig({
    SLACK_BOT_TOKEN: slack.team.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    SLACK_WEB_URL: slack.origin,
    SLACK_CLIENT_ID: slackClient.clientId,
    SLACK_CLIENT_SECRET: slackClient.clientSecret,
    SERVICE_API_URL: `${serviceBase}/api/v3.0`,
    SERVICE_AUTHORIZE_URL: `${emu.url}/oauth/authorize`,
    SERVICE_TOKEN_URL: `${serviceBase}/oauth/token`,
    SERVICE_CLIENT_ID: oauthApp.client_id,
    SERVICE_CLIENT_SECRET: oauthApp.client_secret,
    PUBLIC_URL,
    PORT: '0',
    STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
    ...options.env,
  });
  const logger = quietLogger();
  const { delayProxy: _ignored, env: _env, slack: _slack, ...appOptions } = options;
  const app = await startApp({
    config,
    // Given a destination, the app's own logger writes there (the test reads its lines).
    ...(options.logDestination ? {} : { logger }),
    slackRetries: 0,
    serviceTimeoutMs: 1_500,
    serviceRetries: 0,
    reconcileDelayMs: 0,
    // The service in a test is the emulator on loopback: a request it has not applied within a
    // second and a half was never taken, so an unknown outcome settles quickly.
    serviceSettleMs: 1_500,
    // Daily DMs are sent when a test runs the runner at a time it chooses, never by a timer.
    digest: { scheduler: false },
    ...appOptions,
  });
  const eventsUrl = `${app.url}/slack/events`;
  const slackIdsByEmail = new Map<string, string>();
  const sender = slackSender({ appUrl: eventsUrl, signingSecret: SIGNING_SECRET, fake: slack });

  const addSlackUser = (p: PersonInput) => {
    if (p.email) slackIdsByEmail.set(p.email, p.slackId);
    slack.addUser({
      id: p.slackId,
      name: p.first_name.toLowerCase(),
      real_name: [p.first_name, p.last_name].filter(Boolean).join(' '),
      ...(p.email ? { email: p.email } : {}),
      tz: p.tz ?? 'Europe/Paris',
      ...(p.locale ? { locale: p.locale } : {}),
    });
  };
  let seq = 0;

  const harness: Harness = {
    config,
    emu,
    slack,
    app,
    proxy,
    logger,
    eventsUrl,
    sender,
    oauthApp,
    local: (url) => url.replace(PUBLIC_URL, app.url),
    addSlackUser,
    slackIdFor: (email) => slackIdsByEmail.get(email),
    async link(p) {
      seq += 1;
      const email =
        p.email ?? `${p.first_name.toLowerCase()}.${seq}.${Date.now().toString(36)}@example.com`;
      addSlackUser({ ...p, email });
      const created = await createUser(emu.url, {
        email,
        first_name: p.first_name,
        ...(p.last_name ? { last_name: p.last_name } : {}),
        ...(p.default_currency ? { default_currency: p.default_currency } : {}),
      });
      const token = (
        await control(emu.url, 'POST', 'tokens', {
          user_id: created.user.id,
          client_id: oauthApp.client_id,
        })
      ).body as { access_token: string };
      const name = [p.first_name, p.last_name].filter(Boolean).join(' ');
      await app.deps.tokens.set(
        { team_id: TEAM, user_id: p.slackId },
        {
          access_token: token.access_token,
          token_type: 'bearer',
          service_user_id: created.user.id,
          name,
          linked_at: new Date().toISOString(),
        },
      );
      return {
        slackId: p.slackId,
        serviceId: created.user.id,
        email,
        name,
        accessToken: token.access_token,
        apiKey: created.api_key,
      };
    },
    async split(text, o = {}) {
      const id = randomBytes(8).toString('hex');
      const responseUrl = slack.responseUrl({ id });
      const response = await sender.command({ ...o, text, response_url: responseUrl });
      const ackBody = await response.text();
      const answer = await slack.waitForResponse((p) => p.id === id, o.timeoutMs ?? 5_000);
      return {
        status: response.status,
        ackBody,
        responseUrl,
        answer,
        answers: () => slack.responses.filter((p) => p.id === id),
      };
    },
    serviceCounts: () => requestCounts(emu.url),
    async close() {
      await app.stop();
      await Promise.allSettled([emu.close(), slack.close(), proxy?.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The text of every section, header and context block of a message, joined. */
export function blocksText(blocks: unknown): string {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.text === 'string') out.push(record.text);
      for (const [k, v] of Object.entries(record))
        if (k !== 'text' || typeof v !== 'string') walk(v);
    }
  };
  walk(blocks);
  return out.join('\n');
}

export interface ConsentResult {
  /** The app's page at the end of the dance. */
  page: { status: number; body: string };
  /** The URL the Connect button carried. */
  connectUrl: string;
}

/** The URL of the Connect button in a message's blocks. */
export function connectButtonUrl(blocks: unknown): string {
  const text = JSON.stringify(blocks);
  const match = /"url":"([^"]+)"/.exec(text);
  if (!match) throw new Error(`no Connect button in ${text.slice(0, 300)}`);
  return match[1]!;
}

/**
 * Sign in with Slack as a browser does it: open the sign-in page the app redirected to, with the
 * workspace session of `slackId` (the person signed in to Slack in this browser), and press
 * Continue or Cancel. Returns where Slack sends the browser back (the app's URL on PUBLIC_URL).
 */
/** What a browser going through linking needs of a running world: its servers and addresses. */
export type LinkingWorld = Pick<Harness, 'emu' | 'slack' | 'local' | 'slackIdFor'>;

export async function slackSignIn(
  h: LinkingWorld,
  authorizeUrl: string,
  slackId: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<string> {
  const session = h.slack.signInBrowser(slackId);
  const page = await fetch(authorizeUrl, { headers: { cookie: session } });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: ${html}`);
  const form = html
    .split('<form')
    .slice(1)
    .find((f) => f.includes(`value="${decision}"`));
  if (!form) throw new Error(`no ${decision} button on the sign-in page: ${html.slice(0, 300)}`);
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  }
  fields.set('decision', decision);
  const back = await fetch(new URL(form.match(/action="([^"]+)"/)![1]!, authorizeUrl), {
    method: 'POST',
    headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  const location = back.headers.get('location');
  if (back.status !== 302 || !location) throw new Error(`sign-in answered ${back.status}`);
  return location;
}

/** The `name=value` of the app's cookie in a response's Set-Cookie. */
export function appCookie(response: Response): string {
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

export interface SignedIn {
  /** The app's cookie after /oauth/start (the link's state only). */
  startCookie: string;
  /** The Slack sign-in page's URL the app sent the browser to. */
  authorizeUrl: string;
  /** The app's answer when the browser came back from Slack. */
  back: Response;
}

/**
 * A browser opens the Connect URL and signs in with Slack as `slackId` (Continue, or Cancel with
 * 'deny'), then comes back to the app: `back` is the app's answer (a 302 to the service's consent
 * when the right person signed in, otherwise a page).
 */
export async function throughSlack(
  h: LinkingWorld,
  connectUrl: string,
  slackId: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<SignedIn> {
  const start = await fetch(h.local(connectUrl), { redirect: 'manual' });
  if (start.status !== 302)
    throw new Error(`start answered ${start.status}: ${await start.text()}`);
  const startCookie = appCookie(start);
  const authorizeUrl = start.headers.get('location')!;
  const returned = await slackSignIn(h, authorizeUrl, slackId, decision);
  const back = await fetch(h.local(returned), {
    headers: { cookie: startCookie },
    redirect: 'manual',
  });
  return { startCookie, authorizeUrl, back };
}

/**
 * The real consent dance, as a browser does it: open the Connect URL (the app sets its cookie and
 * redirects to Slack), sign in with Slack as the person with this e-mail (or `slackId`), come
 * back to the app (which checks who signed in and sends the browser on), sign in on the
 * emulator's page by e-mail, press Allow, and follow the redirect back to the app's
 * /oauth/callback with the cookie.
 */
export async function consentDance(
  h: LinkingWorld,
  connectUrl: string,
  who: { email: string; first_name?: string; slackId?: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<ConsentResult & { cookie: string; callbackUrl: string }> {
  const slackId = who.slackId ?? h.slackIdFor(who.email);
  if (!slackId) throw new Error(`no Slack user with the e-mail ${who.email}`);
  const { back: toConsent } = await throughSlack(h, connectUrl, slackId);
  if (toConsent.status !== 302)
    throw new Error(`the sign-in callback answered ${toConsent.status}: ${await toConsent.text()}`);
  const cookie = appCookie(toConsent);
  const authorize = new URL(toConsent.headers.get('location')!);
  const page = await raw<string>(h.emu.url, `${authorize.pathname}${authorize.search}`);
  let form = parseForm(page.body);
  let reply = await submitForm(h.emu.url, form, { email: who.email });
  if (reply.body.includes('first_name')) {
    form = parseForm(reply.body);
    reply = await submitForm(h.emu.url, form, {
      email: who.email,
      first_name: who.first_name ?? 'New',
    });
  }
  form = parseForm(reply.body);
  const decided = await submitForm(h.emu.url, form, { decision });
  const callbackUrl = decided.headers.get('location')!;
  const back = await fetch(h.local(callbackUrl), { headers: { cookie }, redirect: 'manual' });
  return {
    page: { status: back.status, body: await back.text() },
    connectUrl,
    cookie,
    callbackUrl,
  };
}
