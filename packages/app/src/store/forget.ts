/**
 * What the app keeps about one person or one workspace, and removing it: `/split disconnect`,
 * App Home's "Remove my data", `app_uninstalled` and `tokens_revoked` come here.
 *
 * Reading what is kept costs point reads only (App Home shows it on every open). Removing walks
 * the namespaces whose keys do not name the person (link states are keyed by an HMAC of team
 * and user; form drafts by person and view): a rare, explicit act, so the walk is acceptable. Keys
 * are collected first and deleted after, because SQLite's iterator pages by offset and would skip
 * rows deleted under it.
 *
 * Preferences and channel bindings are cached for a minute on each replica; removal goes through
 * those stores, so this replica forgets at once and the others within the minute.
 *
 * The durable jobs and the claims go too: a workspace's every job (queued, running or finished)
 * and every claim whose key names the team; a person's jobs (what they typed or submitted and
 * was not yet answered) and the claims whose keys name them. A redelivered request after that
 * finds no link or no installation, so removing a claim early books nothing twice.
 */
import type Keyv from 'keyv';
import type { ChannelBinding, ChannelBindings } from './bindings.js';
import type { Claims } from './claims.js';
import type { DigestPreferences } from './digest.js';
import { installationKey, orgOfKey } from './installations.js';
import type { Jobs } from './jobs.js';
import type { UserPreferenceStore } from './preferences.js';
import type { SlackUserKey } from './token-store.js';

/** What is kept about one person (or was, when returned by `forgetPerson`). */
export interface KeptAbout {
  /** The sealed token of their expense-service account. */
  token: boolean;
  /** Their default group. */
  preferences: boolean;
  /** Their daily-DM subscription, and whether it holds a snapshot of their balances. */
  digest: { snapshot: boolean } | null;
  /** The record of the last expense they booked from Slack (for `/split undo`). */
  lastBooked: boolean;
  /** Connect links not yet expired or forgotten (counted only when removing). */
  linkStates?: number;
  /** Expense forms left open (counted only when removing). */
  drafts?: number;
  /** Their commands and forms not yet answered (counted only when removing). */
  jobs?: number;
  /** Claims naming them: today's DM, reminders, clicks (counted only when removing). */
  claims?: number;
  /** Channel feeds that read their notifications, and groups' default splits naming them. */
  feeds?: number;
  splitDefaults?: number;
}

export interface Forget {
  /** Point reads: what App Home shows. */
  about(user: SlackUserKey): Promise<KeptAbout>;
  /** Removes everything kept for the person; says what there was. */
  forgetPerson(user: SlackUserKey): Promise<KeptAbout>;
  /** Removes everything kept for the workspace; returns how many records went. */
  forgetWorkspace(team_id: string): Promise<number>;
}

export interface ForgetParts {
  tokens: Keyv;
  linkStates: Keyv;
  bindings: Keyv;
  preferences: Keyv;
  expenses: Keyv;
  digest: Keyv;
  splitDefaults: Keyv;
  feeds: Keyv;
  installations: Keyv;
  claims: Pick<Claims, 'forget'>;
  jobs: Pick<Jobs, 'forget'>;
  /** Through the stores that cache, so that this replica forgets at once too. */
  preferenceStore: UserPreferenceStore;
  bindingStore: ChannelBindings;
  digestStore: DigestPreferences;
}

const personKey = (user: SlackUserKey) => `${user.team_id}:${user.user_id}`;

/**
 * Deletes every record `match` picks, through `remove` when a store caches what it reads;
 * returns how many there were.
 */
export async function deleteWhere(
  keyv: Keyv,
  match: (key: string, value: unknown) => boolean,
  remove: (key: string) => Promise<unknown> = (key) => keyv.delete(key),
): Promise<number> {
  const keys = (await entriesWhere(keyv, match)).map(([key]) => key);
  for (const key of keys) await remove(key);
  return keys.length;
}

/** The records `match` picks, read whole before anything is changed. */
async function entriesWhere(
  keyv: Keyv,
  match: (key: string, value: unknown) => boolean,
): Promise<[string, unknown][]> {
  if (!keyv.iterator) throw new Error('this store cannot be walked, so nothing was removed');
  const found: [string, unknown][] = [];
  for await (const [key, value] of keyv.iterator(undefined)) {
    if (typeof key === 'string' && match(key, value)) found.push([key, value]);
  }
  return found;
}

function ownedBy(value: unknown, team_id: string, user_id?: string): boolean {
  if (!value || typeof value !== 'object') return false;
  const record = value as { team_id?: unknown; user_id?: unknown };
  return record.team_id === team_id && (user_id === undefined || record.user_id === user_id);
}

/** Whether a default split was saved by the person or gives them a part. */
function splitNames(value: unknown, user: SlackUserKey): boolean {
  const saved = value as { set_by?: unknown; parts?: { slack_id?: unknown }[] } | null;
  return (
    saved?.set_by === user.user_id ||
    (saved?.parts ?? []).some((part) => part?.slack_id === user.user_id)
  );
}

/**
 * A channel's group stays bound when the person who bound it removes their data (the channel
 * is everyone's); only their name on it goes.
 */
async function forgetBinder(parts: ForgetParts, user: SlackUserKey): Promise<number> {
  const prefix = `${user.team_id}:`;
  const theirs = (await entriesWhere(
    parts.bindings,
    (key, value) =>
      key.startsWith(prefix) && (value as ChannelBinding | null)?.bound_by === user.user_id,
  )) as [string, ChannelBinding][];
  for (const [key, { bound_by: _dropped, ...binding }] of theirs) {
    await parts.bindingStore.set(
      { team_id: user.team_id, channel_id: key.slice(prefix.length) },
      binding,
    );
  }
  return theirs.length;
}

export function createForget(parts: ForgetParts): Forget {
  const about = async (user: SlackUserKey): Promise<KeptAbout> => {
    const [token, prefs, digest, last] = await Promise.all([
      parts.tokens.has(personKey(user)),
      parts.preferences.has(personKey(user)),
      parts.digestStore.get(user),
      parts.expenses.has(`last:${personKey(user)}`),
    ]);
    return {
      token,
      preferences: prefs,
      digest: digest ? { snapshot: digest.snapshot !== null } : null,
      lastBooked: last,
    };
  };
  return {
    about,
    async forgetPerson(user) {
      const kept = await about(user);
      const drafts = `draft:${personKey(user)}:`;
      const inTeam = (key: string) => key.startsWith(`${user.team_id}:`);
      const [linkStates, expenseRecords, jobs, claims, feeds, splitDefaults] = await Promise.all([
        deleteWhere(parts.linkStates, (_, value) => ownedBy(value, user.team_id, user.user_id)),
        deleteWhere(
          parts.expenses,
          (key) => key.startsWith(drafts) || key === `last:${personKey(user)}`,
        ),
        parts.jobs.forget(user.team_id, user.user_id),
        parts.claims.forget(user.team_id, user.user_id),
        // A feed reads its owner's notifications: without them it stops.
        deleteWhere(
          parts.feeds,
          (key, value) => inTeam(key) && (value as { user_id?: unknown }).user_id === user.user_id,
        ),
        // A default split names each member by Slack id: one naming them can't be kept.
        deleteWhere(parts.splitDefaults, (key, value) => inTeam(key) && splitNames(value, user)),
        forgetBinder(parts, user),
        parts.tokens.delete(personKey(user)),
        parts.preferenceStore.delete(user),
        parts.digestStore.delete(user),
      ]);
      // The last-booked record may have expired between the read and the walk.
      return {
        ...kept,
        linkStates,
        drafts: Math.max(0, expenseRecords - (kept.lastBooked ? 1 : 0)),
        jobs,
        claims,
        feeds,
        splitDefaults,
      };
    },
    async forgetWorkspace(team_id) {
      const prefix = `${team_id}:`;
      const inTeam = (key: string) => key.startsWith(prefix);
      const rest = (key: string) => key.slice(prefix.length);
      const counts = await Promise.all([
        deleteWhere(parts.tokens, inTeam),
        deleteWhere(parts.digest, inTeam),
        deleteWhere(parts.splitDefaults, inTeam),
        deleteWhere(parts.feeds, inTeam),
        deleteWhere(parts.preferences, inTeam, (key) =>
          parts.preferenceStore.delete({ team_id, user_id: rest(key) }),
        ),
        deleteWhere(parts.bindings, inTeam, (key) =>
          parts.bindingStore.delete({ team_id, channel_id: rest(key) }),
        ),
        deleteWhere(parts.linkStates, (_, value) => ownedBy(value, team_id)),
        deleteWhere(
          parts.expenses,
          (key) => key.startsWith(`draft:${prefix}`) || key.startsWith(`last:${prefix}`),
        ),
        parts.jobs.forget(team_id),
        parts.claims.forget(team_id),
        // The workspace's own installation; an org-wide one stays while the org keeps the app.
        ...[
          installationKey({ teamId: team_id, isEnterpriseInstall: false }),
          orgOfKey(team_id),
        ].map(async (key) => Number(await parts.installations.delete(key))),
      ]);
      return counts.reduce((a, b) => a + b, 0);
    },
  };
}
