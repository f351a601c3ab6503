export { type Claims, type CreateClaimsOptions, createClaims } from './claims.js';
export {
  decodeEncryptionKey,
  EncryptionKeyError,
  KEY_FILE_NAME,
  type LoadEncryptionKeyOptions,
  loadEncryptionKey,
} from './encryption-key.js';
export {
  type CreateKeyvOptions,
  createKeyv,
  DEFAULT_STORE_URL,
  type StoreKind,
  StoreUrlError,
  sqliteFile,
  storeKind,
} from './keyv.js';
export {
  createTokenStore,
  type ServiceTokenRecord,
  type SlackUserKey,
  type TokenStore,
  type TokenStoreLogger,
  tokenKey,
} from './token-store.js';
