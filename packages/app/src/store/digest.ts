/**
 * Daily-DM subscriptions, one record per Slack user (team, user) in a Keyv namespace of their own.
 * Opt-in only: a person without a record, or with `enabled: false`, is never sent anything.
 *
 * Both the app (settings, the pause button) and the runner (snapshot, last day) write the record;
 * each write re-reads the record just before it and changes only its own fields, so that the two
 * writers do not undo each other except within that short read-write window.
 */
import type Keyv from 'keyv';

/**
 * What the last DM showed, kept so that the next one can say what changed: friend id -> name and
 * amount per currency (integer minor units, positive = the friend owes me).
 */
export interface BalanceSnapshot {
  friends: Record<string, { name: string; amounts: Record<string, number> }>;
}

/**
 * Zones found valid so far. The daily DM checks every person's Slack zone, and building an
 * Intl.DateTimeFormat to ask costs far more than a lookup. Intl reads a zone in any case
 * (`europe/paris`), so only a name spelled as Intl itself spells it is kept: the set is bounded by
 * the zones the runtime knows, whatever strings come in. Another spelling is still valid, and is
 * asked again each time.
 */
const knownZones = new Set<string>();

/** True when `timeZone` is an IANA zone this runtime knows (Intl refuses the others). */
export function isValidTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone === '') return false;
  if (knownZones.has(timeZone)) return true;
  let spelled: string;
  try {
    spelled = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  if (spelled === timeZone) knownZones.add(timeZone);
  return true;
}

export interface DigestUserKey {
  team_id: string;
  user_id: string;
}

export interface DigestSubscription extends DigestUserKey {
  enabled: boolean;
  /** Local hour, 0-23. */
  hour: number;
  /** IANA zone from Slack's users.info `tz`, refreshed when a DM is sent. */
  tz: string;
  /** Set by the "Pause daily DM" button; resume() clears it. */
  paused: boolean;
  /** Send even when nothing is owed and nothing changed. */
  always: boolean;
  /** Last local day (yyyy-MM-dd) handled: sent, or found with nothing to say. */
  last_day: string | null;
  /** ISO time of the last DM actually sent. */
  last_sent_at: string | null;
  /** Balances as the last DM showed them. */
  snapshot: BalanceSnapshot | null;
  /** ISO time the snapshot was taken; older than `SNAPSHOT_TTL_MS`, it is dropped. */
  snapshot_at?: string | null;
  /** The DM channel id conversations.open returned, kept to save the call on later days. */
  dm_channel: string | null;
  /**
   * `linked_at` of the service token found revoked, once the person has been told; null when
   * not. A new link has another `linked_at`, so reconnecting resumes the DM without a reset.
   */
  revoked_notified: string | null;
}

/** What the person chooses; the rest of the record belongs to the runner. */
export type DigestChoices = Pick<
  DigestSubscription,
  'enabled' | 'hour' | 'tz' | 'paused' | 'always'
>;

export const DEFAULT_DIGEST_HOUR = 9;

/**
 * A snapshot only serves the next DM's "what changed", and it names friends and amounts; one this
 * old (the DM off or paused all that time) is dropped, and the next DM starts afresh.
 */
export const SNAPSHOT_TTL_MS = 14 * 24 * 60 * 60_000;

export class DigestPreferenceError extends Error {
  override name = 'DigestPreferenceError';
}

export interface DigestPreferences {
  get(user: DigestUserKey): Promise<DigestSubscription | undefined>;
  /** Changes the person's choices (validated), creating a disabled record first if needed. */
  set(user: DigestUserKey, choices: Partial<DigestChoices>): Promise<DigestSubscription>;
  /** Turns the DM on at `hour` (default 9) local time in `tz`, and un-pauses it. */
  enable(
    user: DigestUserKey,
    options: { tz: string; hour?: number; always?: boolean },
  ): Promise<DigestSubscription>;
  /** Turns the DM off; the record stays, so turning it on again keeps "what changed". */
  disable(user: DigestUserKey): Promise<DigestSubscription | undefined>;
  pause(user: DigestUserKey): Promise<DigestSubscription | undefined>;
  resume(user: DigestUserKey): Promise<DigestSubscription | undefined>;
  /** Forgets the person entirely. */
  delete(user: DigestUserKey): Promise<boolean>;
  /** The runner's update: re-reads, applies `change` to the fresh record, writes it back. */
  update(
    user: DigestUserKey,
    change: (current: DigestSubscription) => Partial<DigestSubscription>,
  ): Promise<DigestSubscription | undefined>;
  /**
   * Every subscription, a page at a time from the store (Keyv's iterator: keyset pages on
   * PostgreSQL, SCAN on Redis, LIMIT/OFFSET pages on SQLite), never all of them in memory.
   * A record written during the walk may be seen or not; the runner's next tick catches it.
   */
  iterate(): AsyncGenerator<DigestSubscription>;
}

export function digestKey(user: DigestUserKey): string {
  return `${user.team_id}:${user.user_id}`;
}

function checkChoices(choices: Partial<DigestChoices>): void {
  if (
    choices.hour !== undefined &&
    !(Number.isInteger(choices.hour) && choices.hour >= 0 && choices.hour <= 23)
  ) {
    throw new DigestPreferenceError(`hour must be a whole hour from 0 to 23, got ${choices.hour}`);
  }
  if (choices.tz !== undefined && !isValidTimeZone(choices.tz)) {
    throw new DigestPreferenceError(`"${choices.tz}" is not an IANA time zone`);
  }
}

function fresh(user: DigestUserKey, tz: string): DigestSubscription {
  return {
    team_id: user.team_id,
    user_id: user.user_id,
    enabled: false,
    hour: DEFAULT_DIGEST_HOUR,
    tz,
    paused: false,
    always: false,
    last_day: null,
    last_sent_at: null,
    snapshot: null,
    dm_channel: null,
    revoked_notified: null,
  };
}

/** `keyv` must have a namespace of its own: iterate() walks every key in it. */
export function createDigestPreferences(
  keyv: Keyv,
  options: { now?: () => Date } = {},
): DigestPreferences {
  const now = options.now ?? (() => new Date());
  const read = async (user: DigestUserKey) =>
    (await keyv.get(digestKey(user))) as DigestSubscription | undefined;
  const write = async (record: DigestSubscription) => {
    await keyv.set(digestKey(record), record);
    return record;
  };
  const modify = async (
    user: DigestUserKey,
    change: (current: DigestSubscription) => Partial<DigestSubscription>,
  ) => {
    const current = await read(user);
    if (!current) return undefined;
    const changed = change(current);
    const stamped =
      'snapshot' in changed && !('snapshot_at' in changed)
        ? { snapshot_at: changed.snapshot ? now().toISOString() : null }
        : {};
    return write({
      ...current,
      ...changed,
      ...stamped,
      team_id: user.team_id,
      user_id: user.user_id,
    });
  };

  /**
   * The runner walks every record each minute, so the walk is where old snapshots go. One from
   * before snapshots were dated is dated now and lives its full time from here.
   */
  const expireSnapshot = async (record: DigestSubscription): Promise<DigestSubscription> => {
    if (record.snapshot === null) return record;
    const at = record.snapshot_at ? Date.parse(record.snapshot_at) : Number.NaN;
    if (Number.isNaN(at)) {
      return (await modify(record, () => ({ snapshot_at: now().toISOString() }))) ?? record;
    }
    if (now().getTime() - at <= SNAPSHOT_TTL_MS) return record;
    return (await modify(record, () => ({ snapshot: null, snapshot_at: null }))) ?? record;
  };

  const setChoices = async (user: DigestUserKey, choices: Partial<DigestChoices>) => {
    checkChoices(choices);
    const current = (await read(user)) ?? fresh(user, choices.tz ?? 'UTC');
    return write({ ...current, ...choices });
  };

  return {
    get: read,
    set: setChoices,
    async enable(user, options) {
      const choices: Partial<DigestChoices> = {
        enabled: true,
        paused: false,
        tz: options.tz,
        ...(options.hour !== undefined ? { hour: options.hour } : {}),
        ...(options.always !== undefined ? { always: options.always } : {}),
      };
      return setChoices(user, choices);
    },
    disable: (user) => modify(user, () => ({ enabled: false })),
    pause: (user) => modify(user, () => ({ paused: true })),
    resume: (user) => modify(user, () => ({ paused: false })),
    delete: (user) => keyv.delete(digestKey(user)),
    update: modify,
    async *iterate() {
      if (!keyv.iterator) {
        throw new DigestPreferenceError('this Keyv store cannot be iterated');
      }
      for await (const [, value] of keyv.iterator(undefined)) {
        const record = value as DigestSubscription | undefined;
        if (record && typeof record === 'object' && typeof record.user_id === 'string') {
          yield await expireSnapshot(record);
        }
      }
    },
  };
}
