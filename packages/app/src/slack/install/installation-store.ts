/**
 * Bolt's InstallationStore over the store's `installations` namespace, with token rotation done
 * here rather than in Bolt: Bolt refreshes inside its `authorize` only, with no guard, while work
 * outside requests (queued commands, the daily DM) needs fresh tokens too, and two replicas
 * refreshing at once would both spend the same single-use refresh token, one of them losing.
 *
 * So every fetch hands out an installation whose bot token has more than REFRESH_WINDOW_S left
 * (Bolt then has nothing to refresh). A refresh is done by the one replica that claims it in the
 * shared store; the others wait for the new installation to appear there.
 */
import { createHash } from 'node:crypto';
import type { Installation, InstallationQuery, InstallationStore, Logger } from '@slack/bolt';
import { Lru } from '../../core/lru.js';
import type { Claims, InstallationScope, Installations } from '../../store/index.js';
import { NotInstalledError } from '../runtime/team-clients.js';

/** Bolt's own window: a token with less than two hours left is refreshed. */
export const REFRESH_WINDOW_S = 2 * 60 * 60;
/** How long a replica may take to refresh before another may try with the same refresh token. */
const REFRESH_CLAIM_MS = 30_000;
const WAIT_STEP_MS = 100;

/** What oauth.v2.access answers to grant_type=refresh_token. */
interface RefreshAnswer {
  access_token?: string | undefined;
  refresh_token?: string | undefined;
  expires_in?: number | undefined;
}

export interface InstalledTeams extends InstallationStore {
  /** The installation serving a workspace (its own, else its org's), fresh; else NotInstalledError. */
  forTeam(team_id: string): Promise<Installation>;
  /** Removes one installation; true when there was one. */
  remove(scope: InstallationScope): Promise<boolean>;
}

interface InstalledTeamsOptions {
  installations: Installations<unknown>;
  claims: Claims;
  /** oauth.v2.access with grant_type=refresh_token and the app's client credentials. */
  refresh(refreshToken: string): Promise<RefreshAnswer>;
  /** Milliseconds since the epoch. */
  now(): number;
  logger: Logger;
  /** How long a replica waits for another's refresh before giving up; 10 s by default. */
  waitMs?: number;
}

function scopeOf(installation: Installation): InstallationScope {
  return {
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
  };
}

function scopeOfQuery(query: InstallationQuery<boolean>): InstallationScope {
  return {
    teamId: query.teamId,
    enterpriseId: query.enterpriseId,
    isEnterpriseInstall: query.isEnterpriseInstall === true,
  };
}

const hashOf = (token: string) =>
  createHash('sha256').update(token).digest('base64url').slice(0, 22);

export function createInstalledTeams(options: InstalledTeamsOptions): InstalledTeams {
  const { installations, claims, logger } = options;
  const waitMs = options.waitMs ?? 10_000;
  // Team and org pairs already written down: an org's requests name any of its teams, so capped;
  // one forgotten is only written down again.
  const orgsKnown = new Lru<string, true>(4_096);

  const expiring = (installation: Installation) => {
    const bot = installation.bot;
    if (!bot?.refreshToken || bot.expiresAt === undefined) return false;
    return bot.expiresAt - Math.floor(options.now() / 1000) <= REFRESH_WINDOW_S;
  };

  async function refreshed(scope: InstallationScope, stale: Installation): Promise<Installation> {
    const bot = stale.bot;
    if (!bot?.refreshToken) return stale;
    const used = bot.refreshToken;
    const label = scope.isEnterpriseInstall ? `org ${scope.enterpriseId}` : `team ${scope.teamId}`;
    // Keyed by the refresh token itself: each one is spent once, by whoever claims it.
    const claim = `install-refresh:${hashOf(used)}`;
    if (await claims.claim(claim, REFRESH_CLAIM_MS)) {
      try {
        const answer = await options.refresh(used);
        if (!answer.access_token || !answer.refresh_token || answer.expires_in === undefined)
          throw new Error('oauth.v2.access answered without a new token, refresh token or expiry');
        const next: Installation = {
          ...stale,
          bot: {
            ...bot,
            token: answer.access_token,
            refreshToken: answer.refresh_token,
            expiresAt: Math.floor(options.now() / 1000) + answer.expires_in,
          },
        };
        await installations.set(scope, next);
        logger.info({ msg: 'installation of {label}: bot token refreshed', label });
        return next;
      } catch (error) {
        await claims.release(claim).catch(() => undefined);
        throw new Error(`refreshing the bot token of ${label} failed: ${(error as Error).message}`);
      }
    }
    // Another replica is refreshing with this refresh token: its result lands in the store.
    for (let waited = 0; waited < waitMs; waited += WAIT_STEP_MS) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      const now = (await installations.get(scope)) as Installation | undefined;
      if (!now) throw new NotInstalledError(scope.teamId ?? scope.enterpriseId ?? '');
      if (now.bot?.refreshToken !== used) return now;
    }
    throw new Error(`the bot token of ${label} is being refreshed elsewhere and did not arrive`);
  }

  async function fresh(scope: InstallationScope): Promise<Installation | undefined> {
    const found = (await installations.get(scope)) as Installation | undefined;
    if (!found) return undefined;
    return expiring(found) ? refreshed(scope, found) : found;
  }

  return {
    async storeInstallation(installation) {
      await installations.set(scopeOf(installation), installation);
    },
    async fetchInstallation(query) {
      const scope = scopeOfQuery(query);
      const found = await fresh(scope);
      if (!found) throw new NotInstalledError(query.teamId ?? query.enterpriseId ?? '');
      if (scope.isEnterpriseInstall && query.teamId && query.enterpriseId) {
        const seen = `${query.teamId}:${query.enterpriseId}`;
        if (!orgsKnown.has(seen)) {
          await installations.rememberOrg(query.teamId, query.enterpriseId);
          orgsKnown.set(seen, true);
        }
      }
      return found;
    },
    async deleteInstallation(query) {
      await installations.delete(scopeOfQuery(query));
    },
    async forTeam(team_id) {
      const own = await fresh({ teamId: team_id, isEnterpriseInstall: false });
      if (own) return own;
      const org = await installations.orgOf(team_id);
      const orgWide = org
        ? await fresh({ enterpriseId: org, isEnterpriseInstall: true })
        : undefined;
      if (!orgWide) throw new NotInstalledError(team_id);
      return orgWide;
    },
    remove: (scope) => installations.delete(scope),
  };
}
