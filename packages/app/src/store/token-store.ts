import type Keyv from 'keyv';
import { createSealer, type Sealed } from './seal.js';

/** What is kept for one Slack user's link to their expense-service account. */
export interface ServiceTokenRecord {
  access_token: string;
  /** As the token endpoint returned it, usually 'bearer'. */
  token_type: string;
  /** The service's user id (get_current_user). */
  service_user_id: number;
  /** Display name on the service, for "Connected as <name>". */
  name: string;
  /** ISO 8601 time of linking. */
  linked_at: string;
}

/** Slack user identity: (team or enterprise id, user id). */
export interface SlackUserKey {
  team_id: string;
  user_id: string;
}

export interface TokenStore {
  /** The record, or undefined when not linked or when the stored record cannot be decrypted. */
  get(user: SlackUserKey): Promise<ServiceTokenRecord | undefined>;
  set(user: SlackUserKey, record: ServiceTokenRecord): Promise<void>;
  /** True when a record was there. */
  delete(user: SlackUserKey): Promise<boolean>;
}

export interface TokenStoreLogger {
  warn(...message: unknown[]): void;
}

export function tokenKey(user: SlackUserKey): string {
  return `${user.team_id}:${user.user_id}`;
}

/**
 * Service tokens encrypted at rest with AES-256-GCM: a fresh random 12-byte IV per write, and the
 * record's key (team:user) as additional authenticated data, so a record copied onto another
 * user's key does not decrypt either.
 *
 * A record that fails authentication (tampered, or written under another ENCRYPTION_KEY) reads as
 * absent and a warning is logged without any token material: the person is simply asked to
 * connect again, which overwrites it. Failing loudly instead would lock them out of the app
 * until an operator intervened.
 */
export function createTokenStore(
  keyv: Keyv,
  key: Buffer,
  options: { logger?: TokenStoreLogger } = {},
): TokenStore {
  const sealer = createSealer(key);
  const logger = options.logger ?? { warn: (...m: unknown[]) => console.warn(...m) };

  return {
    async get(user) {
      const id = tokenKey(user);
      const sealed = (await keyv.get(id)) as Sealed | undefined;
      if (sealed === undefined || sealed === null) return undefined;
      try {
        return JSON.parse(sealer.open(id, sealed)) as ServiceTokenRecord;
      } catch {
        logger.warn({
          msg: 'token record {id} could not be decrypted (tampered, or written with another ENCRYPTION_KEY); treating the user as not connected',
          id,
        });
        return undefined;
      }
    },
    async set(user, record) {
      const id = tokenKey(user);
      await keyv.set(id, sealer.seal(id, JSON.stringify(record)));
    },
    async delete(user) {
      return keyv.delete(tokenKey(user));
    },
  };
}
