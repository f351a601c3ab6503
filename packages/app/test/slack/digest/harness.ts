/**
 * Everything a digest run talks to, on loopback: the emulator (expense service), the fake Slack
 * Web API, and a store (SQLite in a temporary directory unless a URL is given). People are created
 * on the emulator, linked (an OAuth token issued through the control plane and kept in the token
 * store) and given a Slack user with a time zone.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webApi } from '@slack/bolt';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { type CreatedUser, call, control, someUser } from '@split/service-emulator/testing';
import type Keyv from 'keyv';
import { ServiceClient } from '../../../src/service/index.js';
import {
  createDigestPreferences,
  createDigestRunner,
  type DigestLogger,
  type DigestPreferences,
  type DigestRunner,
  type DigestRunnerOptions,
  type DigestSlackClient,
} from '../../../src/slack/digest/index.js';
import {
  type Claims,
  createClaims,
  createKeyv,
  createTokenStore,
  type TokenStore,
} from '../../../src/store/index.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';

export const silentLogger: DigestLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface Person {
  team_id: string;
  user_id: string;
  service: CreatedUser;
  access_token: string;
}

/** One app instance's view of the shared store: its own connections, as a replica would have. */
export interface Instance {
  preferences: DigestPreferences;
  tokens: TokenStore;
  claims: Claims;
  runner: DigestRunner;
  close(): Promise<void>;
}

export interface Harness {
  emu: RunningEmulator;
  slack: FakeSlack;
  storeUrl: string;
  /** The emulator's OAuth app, for issuing more tokens. */
  clientId: string;
  /** The first instance; `instance()` makes more on the same store. */
  app: Instance;
  instance(options?: Partial<DigestRunnerOptions>): Promise<Instance>;
  person(
    tz: string,
    options?: { hour?: number; always?: boolean; name?: string; locale?: string },
  ): Promise<Person>;
  /** An expense of `cost` paid by `payer` and shared equally with `other`. */
  lunch(payer: Person, other: Person, cost: string): Promise<void>;
  revoke(person: Person): Promise<void>;
  dms(person: Person): Array<{ text: string | undefined; blocks: unknown[] | undefined }>;
  close(): Promise<void>;
}

const KEY = randomBytes(32);

export function webClient(
  slack: FakeSlack,
  options: ConstructorParameters<typeof webApi.WebClient>[1] = {},
): DigestSlackClient {
  return new webApi.WebClient(slack.team.botToken, {
    slackApiUrl: slack.url,
    retryConfig: { retries: 0 },
    logLevel: webApi.LogLevel.ERROR,
    ...options,
  });
}

export async function startHarness(
  options: { storeUrl?: string; runner?: Partial<DigestRunnerOptions> } = {},
): Promise<Harness> {
  const dir = options.storeUrl ? undefined : await mkdtemp(join(tmpdir(), 'split-digest-'));
  const storeUrl = options.storeUrl ?? `sqlite://${join(dir!, 'app.sqlite')}`;
  // A namespace per harness keeps runs on a shared Redis apart.
  const run = randomUUID().slice(0, 8);
  const emu = await startEmulator();
  const slack = await startFakeSlack();
  const app = await control<{ client_id: string }>(emu.url, 'POST', 'apps', {
    redirect_uri: 'http://127.0.0.1/callback',
  });
  const clientId = app.body.client_id;
  // Tests pass the instant to runDue(); the injected clock is only its default.
  const clockNow = new Date();
  const instances: Instance[] = [];

  const instance = async (overrides: Partial<DigestRunnerOptions> = {}): Promise<Instance> => {
    const prefsKeyv: Keyv = await createKeyv(storeUrl, { namespace: `digest-${run}` });
    const tokensKeyv: Keyv = await createKeyv(storeUrl, { namespace: `tokens-${run}` });
    const preferences = createDigestPreferences(prefsKeyv);
    const tokens = createTokenStore(tokensKeyv, KEY);
    const claims = createClaims(storeUrl, { namespace: run });
    const runner = createDigestRunner({
      preferences,
      tokens,
      claims,
      slackFor: async () => webClient(slack),
      serviceClientFor: (record) =>
        new ServiceClient({
          baseUrl: `${emu.url}/api/v3.0`,
          oauth2AccessToken: record.access_token,
          retries: 0,
        }),
      clock: () => clockNow,
      concurrency: 4,
      logger: silentLogger,
      ...options.runner,
      ...overrides,
    });
    const made: Instance = {
      preferences,
      tokens,
      claims,
      runner,
      async close() {
        await claims.close();
        await prefsKeyv.disconnect();
        await tokensKeyv.disconnect();
      },
    };
    instances.push(made);
    return made;
  };
  const first = await instance();
  let counter = 0;

  return {
    emu,
    slack,
    storeUrl,
    clientId,
    app: first,
    instance,
    async person(tz, opts = {}) {
      counter += 1;
      const service = await someUser(emu.url, opts.name ?? `P${counter}`);
      const token = await control<{ access_token: string }>(emu.url, 'POST', 'tokens', {
        user_id: service.user.id,
        client_id: clientId,
      });
      const person: Person = {
        team_id: slack.team.id,
        user_id: `U${run.toUpperCase()}${counter}`,
        service,
        access_token: token.body.access_token,
      };
      slack.addUser({
        id: person.user_id,
        name: `p${counter}`,
        tz,
        ...(opts.locale ? { locale: opts.locale } : {}),
      });
      await first.tokens.set(person, {
        access_token: person.access_token,
        token_type: 'bearer',
        service_user_id: service.user.id,
        name: service.user.first_name,
        linked_at: new Date(0).toISOString(),
      });
      await first.preferences.enable(person, {
        tz,
        hour: opts.hour ?? 8,
        ...(opts.always !== undefined ? { always: opts.always } : {}),
      });
      return person;
    },
    async lunch(payer, other, cost) {
      const half = (Number(cost) / 2).toFixed(2);
      const reply = await call(emu.url, payer.service.api_key, 'POST', 'create_expense', {
        cost,
        description: 'Lunch',
        currency_code: 'USD',
        users__0__user_id: payer.service.user.id,
        users__0__paid_share: cost,
        users__0__owed_share: half,
        users__1__email: other.service.user.email,
        users__1__paid_share: '0',
        users__1__owed_share: half,
      });
      if (reply.status !== 200) throw new Error(`create_expense: ${reply.status}`);
    },
    async revoke(person) {
      await control(emu.url, 'POST', 'tokens/revoke', { access_token: person.access_token });
    },
    dms(person) {
      return slack.messages(person.user_id).map((m) => ({ text: m.text, blocks: m.blocks }));
    },
    async close() {
      for (const made of instances) await made.close().catch(() => undefined);
      await slack.close();
      await emu.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every text of a message's blocks, joined, for assertions on what a person reads. */
export function blockText(blocks: unknown[] | undefined): string {
  return JSON.stringify(blocks ?? []);
}
