export {
  type ChannelBinding,
  type ChannelBindings,
  type ChannelKey,
  createChannelBindings,
} from './bindings.js';
export { type Claims, type CreateClaimsOptions, createClaims } from './claims.js';
export {
  type BalanceSnapshot,
  createDigestPreferences,
  DEFAULT_DIGEST_HOUR,
  type DigestChoices,
  DigestPreferenceError,
  type DigestPreferences,
  type DigestSubscription,
  type DigestUserKey,
  digestKey,
  isValidTimeZone,
  SNAPSHOT_TTL_MS,
} from './digest.js';
export {
  decodeEncryptionKey,
  EncryptionKeyError,
  KEY_FILE_NAME,
  type LoadEncryptionKeyOptions,
  loadEncryptionKey,
} from './encryption-key.js';
export { type BookedRecord, createExpenseStore, type ExpenseStore } from './expenses.js';
export { type ChannelFeed, type ChannelFeeds, createChannelFeeds } from './feeds.js';
export {
  createForget,
  deleteWhere,
  type Forget,
  type ForgetParts,
  type KeptAbout,
} from './forget.js';
export {
  createInstallations,
  type InstallationScope,
  InstallationScopeError,
  type Installations,
  installationKey,
} from './installations.js';
export {
  type CreateJobsOptions,
  createJobs,
  JOB_RETENTION_MS,
  type Job,
  type Jobs,
  PERSON_FIELD,
} from './jobs.js';
export {
  type CreateKeyvOptions,
  createKeyv,
  DEFAULT_STORE_URL,
  type StoreKind,
  StoreUrlError,
  storeKind,
} from './keyv.js';
export {
  type ConsumeResult,
  createLinkStates,
  LINK_STATE_TTL_MS,
  type LinkState,
  type LinkStates,
  type PendingCommand,
  type TypedWhere,
} from './link-states.js';
export { NAMESPACES, type OpenStoreOptions, openStore, type Store } from './open.js';
export {
  createUserPreferences,
  type UserPreferenceStore,
  type UserPreferences,
} from './preferences.js';
export type { Sealed, Sealer } from './seal.js';
export { createSigner, type Signer, type Verified } from './signer.js';
export {
  createSplitDefaults,
  type DefaultPart,
  type GroupCurrency,
  type GroupKey,
  groupCurrencyKey,
  type SplitDefault,
  type SplitDefaults,
  splitDefaultKey,
} from './split-defaults.js';
export { sqliteFile } from './sqlite.js';
export {
  createTokenStore,
  type ServiceTokenRecord,
  type SlackUserKey,
  type TokenStore,
  type TokenStoreLogger,
  tokenKey,
} from './token-store.js';
export { TtlCache } from './ttl-cache.js';
