/**
 * Every namespace the app keeps, opened together on the one backend STORE_URL names and closed
 * together. src/store/README.md lists each namespace's keys, values and lifetimes.
 */
import type Keyv from 'keyv';
import { type ChannelBindings, createChannelBindings } from './bindings.js';
import { type Claims, createClaims } from './claims.js';
import { createDigestPreferences, type DigestPreferences } from './digest.js';
import { loadEncryptionKey } from './encryption-key.js';
import { createExpenseStore, type ExpenseStore } from './expenses.js';
import { type ChannelFeeds, createChannelFeeds } from './feeds.js';
import { createForget, type Forget } from './forget.js';
import { createInstallations, type Installations } from './installations.js';
import { createJobs, type Jobs } from './jobs.js';
import { createKeyv } from './keyv.js';
import { createLinkStates, type LinkStates } from './link-states.js';
import { createUserPreferences, type UserPreferenceStore } from './preferences.js';
import { createSealer, type Sealer } from './seal.js';
import { createSigner, type Signer } from './signer.js';
import { createSplitDefaults, type SplitDefaults } from './split-defaults.js';
import { createTokenStore, type TokenStore, type TokenStoreLogger } from './token-store.js';

export interface OpenStoreOptions {
  /** ENCRYPTION_KEY as configured; absent: a key generated once and kept in `dataDir`. */
  encryptionKey?: string | undefined;
  dataDir: string;
  logger?: TokenStoreLogger;
  now?: () => Date;
}

/** `Draft` is the expense form's own shape, which the store keeps as written. */
export interface Store<Draft = unknown> {
  tokens: TokenStore;
  linkStates: LinkStates;
  bindings: ChannelBindings;
  preferences: UserPreferenceStore;
  expenses: ExpenseStore<Draft>;
  digest: DigestPreferences;
  /** Each group's default split. */
  splitDefaults: SplitDefaults;
  /** Channels that follow their group's activity. */
  feeds: ChannelFeeds;
  /** Set-if-absent claims shared by every replica: dedupe of commands, clicks and daily DMs. */
  claims: Claims;
  /** What is kept about a person, and removing it or a whole workspace's. */
  forget: Forget;
  /** Acknowledged work not yet carried out, durable across crashes and shared by replicas. */
  jobs: Jobs;
  /** The app's installation in each workspace or org (Bolt's `Installation`), sealed. */
  installations: Installations<unknown>;
  /** Signs the values the app hands to Slack clients, with a key derived from the store's. */
  signer: Signer;
  /** Seals secrets another part keeps for later (AES-256-GCM under the store's key). */
  sealer: Sealer;
  /** A cheap read (of a key never written), for readiness: rejects when the backend fails. */
  ping(): Promise<void>;
  /** Closes every namespace; safe to call more than once. */
  close(): Promise<void>;
}

/** Namespace names as they appear in the backend (Keyv prefixes every key with one). */
export const NAMESPACES = {
  tokens: 'service-tokens',
  linkStates: 'link-states',
  bindings: 'channel-groups',
  preferences: 'user-preferences',
  expenses: 'slack-expenses',
  digest: 'digest',
  splitDefaults: 'split-defaults',
  feeds: 'channel-feeds',
  claims: 'slack',
  jobs: 'slack',
  installations: 'installations',
} as const;

const PING_KEY = 'readiness-probe';

export async function openStore<Draft = unknown>(
  storeUrl: string,
  options: OpenStoreOptions,
): Promise<Store<Draft>> {
  const now = options.now ?? (() => new Date());
  const opened: Keyv[] = [];
  let claims: Claims | undefined;
  let jobs: Jobs | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await Promise.allSettled([
        ...opened.map((k) => k.disconnect()),
        claims?.close(),
        jobs?.close(),
      ]);
    })();
    return closing;
  };
  const open = async (namespace: string) => {
    const keyv = await createKeyv(storeUrl, { namespace });
    opened.push(keyv);
    return keyv;
  };
  try {
    claims = createClaims(storeUrl, { namespace: NAMESPACES.claims });
    jobs = createJobs(storeUrl, { namespace: NAMESPACES.jobs });
    const key = await loadEncryptionKey({
      encryptionKey: options.encryptionKey,
      dataDir: options.dataDir,
    });
    const keyvs = {
      tokens: await open(NAMESPACES.tokens),
      linkStates: await open(NAMESPACES.linkStates),
      bindings: await open(NAMESPACES.bindings),
      preferences: await open(NAMESPACES.preferences),
      expenses: await open(NAMESPACES.expenses),
      // A namespace of its own: the digest runner walks every key in it.
      digest: await open(NAMESPACES.digest),
      splitDefaults: await open(NAMESPACES.splitDefaults),
      // Walked whole by the feed poller.
      feeds: await open(NAMESPACES.feeds),
      installations: await open(NAMESPACES.installations),
    };
    const preferences = createUserPreferences(keyvs.preferences);
    const digest = createDigestPreferences(keyvs.digest, { now });
    const bindings = createChannelBindings(keyvs.bindings);
    return {
      tokens: createTokenStore(keyvs.tokens, key, {
        ...(options.logger ? { logger: options.logger } : {}),
      }),
      linkStates: createLinkStates({
        keyv: keyvs.linkStates,
        claims,
        key,
        now: () => now().getTime(),
      }),
      bindings,
      preferences,
      expenses: createExpenseStore<Draft>(keyvs.expenses),
      digest,
      splitDefaults: createSplitDefaults(keyvs.splitDefaults),
      feeds: createChannelFeeds(keyvs.feeds),
      claims,
      forget: createForget({
        ...keyvs,
        claims,
        jobs,
        preferenceStore: preferences,
        bindingStore: bindings,
        digestStore: digest,
      }),
      jobs,
      installations: createInstallations(keyvs.installations, key, {
        ...(options.logger ? { logger: options.logger } : {}),
      }),
      signer: createSigner(key),
      sealer: createSealer(key),
      ping: async () => {
        await keyvs.preferences.get(PING_KEY);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
