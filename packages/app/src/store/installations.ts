/**
 * The app's installations in each Slack workspace (or Enterprise Grid org), when it is installed
 * into many through Slack's OAuth v2. What Slack returned at install is kept whole, sealed with the
 * same AES-256-GCM as the service tokens (the record's key as associated data): it holds the bot
 * token and, with token rotation, the refresh token.
 *
 * The record's shape is Bolt's `Installation`; this module only needs to know where it goes, so it
 * keeps it as given.
 */
import type Keyv from 'keyv';
import { createSealer, type Sealed } from './seal.js';
import type { TokenStoreLogger } from './token-store.js';

/** Which installation: a workspace's own, or an org-wide one on Enterprise Grid. */
export interface InstallationScope {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall: boolean;
}

export interface Installations<T> {
  /** The record, or undefined when there is none or it cannot be decrypted. */
  get(scope: InstallationScope): Promise<T | undefined>;
  set(scope: InstallationScope, record: T): Promise<void>;
  /** True when a record was there. */
  delete(scope: InstallationScope): Promise<boolean>;
  /**
   * Remembers that a workspace belongs to an org whose org-wide installation serves it, so that
   * work done outside a request, which knows only the workspace, finds the org's installation.
   */
  rememberOrg(teamId: string, enterpriseId: string): Promise<void>;
  /** The org remembered for a workspace. */
  orgOf(teamId: string): Promise<string | undefined>;
}

export class InstallationScopeError extends Error {
  override name = 'InstallationScopeError';
}

/** `E:<enterprise>` for an org-wide install, `T:<team>` for a workspace's. */
export function installationKey(scope: InstallationScope): string {
  if (scope.isEnterpriseInstall) {
    if (!scope.enterpriseId) throw new InstallationScopeError('an org install needs its org id');
    return `E:${scope.enterpriseId}`;
  }
  if (!scope.teamId) throw new InstallationScopeError('a workspace install needs its team id');
  return `T:${scope.teamId}`;
}

export const orgOfKey = (teamId: string) => `org-of:${teamId}`;

export function createInstallations<T>(
  keyv: Keyv,
  key: Buffer,
  options: { logger?: TokenStoreLogger } = {},
): Installations<T> {
  const sealer = createSealer(key);
  const logger = options.logger ?? { warn: (...m: unknown[]) => console.warn(...m) };
  return {
    async get(scope) {
      const id = installationKey(scope);
      const sealed = (await keyv.get(id)) as Sealed | undefined;
      if (sealed === undefined || sealed === null) return undefined;
      try {
        return JSON.parse(sealer.open(`installation:${id}`, sealed)) as T;
      } catch {
        logger.warn({
          msg: 'installation {id} could not be decrypted (tampered, or written with another ENCRYPTION_KEY); the app must be installed there again',
          id,
        });
        return undefined;
      }
    },
    async set(scope, record) {
      const id = installationKey(scope);
      await keyv.set(id, sealer.seal(`installation:${id}`, JSON.stringify(record)));
    },
    async delete(scope) {
      return keyv.delete(installationKey(scope));
    },
    async rememberOrg(teamId, enterpriseId) {
      await keyv.set(orgOfKey(teamId), { enterprise_id: enterpriseId });
    },
    async orgOf(teamId) {
      const found = (await keyv.get(orgOfKey(teamId))) as { enterprise_id?: string } | undefined;
      return found?.enterprise_id ?? undefined;
    },
  };
}
