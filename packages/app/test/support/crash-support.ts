/**
 * A world for crash tests and bench/faults.ts: the expense emulator and the fake Slack in this
 * process, the app in child processes (test/slack/app-child.ts) that can be killed with SIGKILL
 * and started again on the same SQLite store, as a restarted deployment would be.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { call, control, createUser, type Loose } from '@split/service-emulator/testing';
import type { AppOptions } from '../../src/compose.js';
import { createOffers, type Offers } from '../../src/slack/shared/offers.js';
import { createSigner, openStore } from '../../src/store/index.js';
import { type FakeSlack, type ResponseUrlPost, startFakeSlack } from './fake-slack.js';
import { PUBLIC_URL, SIGNING_SECRET, TEAM } from './harness.js';
import { send, slashCommand, viewSubmission } from './slack-requests.js';

/** What app-child.ts starts: the environment main.ts would read, and startApp's options. */
export interface ChildSpec {
  env: Record<string, string>;
  options: Omit<AppOptions, 'config' | 'logger'>;
}

export interface AppChild {
  eventsUrl: string;
  /** The process, for reading its memory. */
  pid: number;
  /** SIGKILL: nothing is flushed, nothing is finished. */
  kill(): Promise<void>;
  /** A clean stop (stdin closed), waiting for the exit. */
  stop(): Promise<void>;
}

export interface Sent {
  id: string;
  trigger_id: string;
  response_url: string;
  text: string;
  status: number;
}

/** An expense form submitted (a view_submission); `viewId` is what makes a resubmit the same. */
export interface FormSent {
  viewId: string;
  description: string;
  status: number;
}

export interface CrashWorld {
  emu: RunningEmulator;
  slack: FakeSlack;
  /** Ann's API key at the emulator, for reading her expenses. */
  annKey: string;
  /** The SQLite store the app children share. */
  storeUrl: string;
  /** Signs what the app would have handed to Ann's client, under the children's key. */
  offers: Offers;
  /** Starts the app; `env` changes its variables (e.g. SLACK_API_URL) for this start only. */
  start(options?: ChildSpec['options'], env?: Record<string, string>): Promise<AppChild>;
  /**
   * Sends `/split <text>` as Ann, or as `user_id` (a given trigger id: a redelivery); resolves
   * with the ack.
   */
  command(app: AppChild, text: string, redeliver?: Sent, user_id?: string): Promise<Sent>;
  /**
   * Submits the expense form as Ann (given `again`: the same form, a double click), with the
   * Slack file ids chosen as its receipt.
   */
  submitForm(
    app: AppChild,
    description: string,
    again?: FormSent,
    files?: string[],
  ): Promise<FormSent>;
  /** How many expense messages the app posted for a description booked through the form. */
  formAnswers(description: string): number;
  /** Every answer to a sent command, in order. */
  answers(sent: Sent): ResponseUrlPost[];
  /** Ann's live expenses by description. */
  expenses(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./app-child.ts', import.meta.url));

export async function startCrashWorld(): Promise<CrashWorld> {
  const emu = await startEmulator();
  const slack = await startFakeSlack();
  const dir = await mkdtemp(join(tmpdir(), 'split-crash-'));
  const storeUrl = `sqlite://${join(dir, 'app.sqlite')}`;
  const encryptionKey = randomBytes(32).toString('hex');
  const offers = createOffers(createSigner(Buffer.from(encryptionKey, 'hex')), () => new Date());
  const ann = { team_id: TEAM, user_id: 'U0ANN' };
  const oauthApp = (
    await control(emu.url, 'POST', 'apps', {
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
      name: 'Split for Slack',
    })
  ).body as { client_id: string; client_secret: string };

  // Ann and Bob, linked in the store the children share.
  const store = await openStore(storeUrl, { encryptionKey, dataDir: dir });
  let annKey = '';
  for (const [slackId, first_name] of [
    ['U0ANN', 'Ann'],
    ['U0BOB', 'Bob'],
  ] as const) {
    const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
    slack.addUser({ id: slackId, name: first_name.toLowerCase(), real_name: first_name, email });
    const created = await createUser(emu.url, { email, first_name });
    const token = (
      await control(emu.url, 'POST', 'tokens', {
        user_id: created.user.id,
        client_id: oauthApp.client_id,
      })
    ).body as { access_token: string };
    await store.tokens.set(
      { team_id: TEAM, user_id: slackId },
      {
        access_token: token.access_token,
        token_type: 'bearer',
        service_user_id: created.user.id,
        name: first_name,
        linked_at: new Date().toISOString(),
      },
    );
    if (slackId === 'U0ANN') annKey = created.api_key;
  }
  await store.close();

  // Sign in with Slack is part of linking: the app needs its own client at Slack to start.
  const slackClient = slack.addOidcClient({
    redirectUris: [`${PUBLIC_URL}/oauth/slack/callback`],
    name: 'Split',
  });
  const env: Record<string, string> = {
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
  };
  const children = new Set<ChildProcess>();

  const start = async (
    options: ChildSpec['options'] = {},
    changed: Record<string, string> = {},
  ): Promise<AppChild> => {
    const spec: ChildSpec = { env: { ...env, ...changed }, options };
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(spec)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.add(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    void exited.then(() => children.delete(child));
    const lines = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the app did not start in 30 s')), 30_000);
      lines.on('line', (line) => {
        if (!line.startsWith('ready ')) return;
        clearTimeout(timer);
        resolve(line.slice('ready '.length));
      });
      void exited.then(() => reject(new Error('the app exited before it was ready')));
    });
    return {
      eventsUrl: `${url}/slack/events`,
      pid: child.pid as number,
      async kill() {
        child.kill('SIGKILL');
        await exited;
      },
      async stop() {
        child.stdin!.end();
        await exited;
      },
    };
  };

  return {
    emu,
    slack,
    annKey,
    storeUrl,
    offers,
    start,
    async command(app, text, redeliver, user_id = 'U0ANN') {
      // A redelivery is the same request again: same trigger id, same response_url.
      const id = redeliver?.id ?? randomBytes(8).toString('hex');
      const trigger_id = redeliver?.trigger_id ?? slack.issueTrigger();
      const response_url = redeliver?.response_url ?? slack.responseUrl({ id });
      const response = await send(
        app.eventsUrl,
        SIGNING_SECRET,
        slashCommand({ text, user_id, trigger_id, response_url }),
      );
      await response.text();
      return { id, trigger_id, response_url, text, status: response.status };
    },
    async submitForm(app, description, again, files = []) {
      const viewId = again?.viewId ?? `V${randomBytes(6).toString('hex').toUpperCase()}`;
      const response = await send(
        app.eventsUrl,
        SIGNING_SECRET,
        viewSubmission({
          id: viewId,
          user_id: 'U0ANN',
          callback_id: 'expense_form',
          private_metadata: offers.make(
            'modal',
            ann,
            JSON.stringify({ v: 1, c: 'C0001', z: 'UTC' }),
          ),
          values: formValues(description, files),
        }),
      );
      await response.text();
      return { viewId, description, status: response.status };
    },
    formAnswers: (description) =>
      slack
        .callsTo('chat.postMessage')
        .filter((c) => c.args.channel === 'C0001' && String(c.args.text).includes(description))
        .length,
    answers: (sent) => slack.responses.filter((p) => p.id === sent.id),
    async expenses() {
      const all = (await call(emu.url, annKey, 'GET', 'get_expenses', { limit: 0 })).body
        .expenses as Loose[];
      const counts = new Map<string, number>();
      for (const e of all) {
        if (e.deleted_at) continue;
        counts.set(e.description, (counts.get(e.description) ?? 0) + 1);
      }
      return counts;
    },
    async close() {
      for (const child of children) child.kill('SIGKILL');
      await Promise.allSettled([emu.close(), slack.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The form's state as Slack sends it: 20 EUR, Ann pays, Ann and Bob share equally, yesterday. */
function formValues(
  description: string,
  files: string[],
): Record<string, Record<string, Record<string, unknown>>> {
  const leaf = (id: string, v: Record<string, unknown>) => ({ [id]: { [id]: v } });
  const option = (value: string) => ({
    selected_option: { text: { type: 'plain_text', text: value }, value },
  });
  const yesterday = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
  return {
    ...leaf('form_amount', { type: 'plain_text_input', value: '20' }),
    ...leaf('form_currency', { type: 'external_select', ...option('EUR') }),
    ...leaf('form_description', { type: 'plain_text_input', value: description }),
    ...leaf('form_date', { type: 'datepicker', selected_date: yesterday }),
    ...leaf('form_category', { type: 'external_select', selected_option: null }),
    ...leaf('form_group', { type: 'static_select', selected_option: null }),
    ...leaf('form_participants', {
      type: 'multi_users_select',
      selected_users: ['U0ANN', 'U0BOB'],
    }),
    ...leaf('form_payer', { type: 'users_select', selected_user: 'U0ANN' }),
    ...leaf('form_split', { type: 'radio_buttons', ...option('equal') }),
    ...leaf('form_notes', { type: 'plain_text_input', value: null }),
    ...leaf('form_repeat', { type: 'static_select', ...option('never') }),
    ...leaf('form_receipt', { type: 'file_input', files: files.map((id) => ({ id })) }),
  };
}

/** Waits until `check` holds, polling; throws with `what` after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
