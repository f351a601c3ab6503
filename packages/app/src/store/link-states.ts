/**
 * OAuth `state` values for linking a Slack user to their service account: random (256 bits),
 * bound server-side to the Slack team and user who asked, usable once, and valid for 10 minutes.
 *
 * A person has one record, whatever they send: the link they may use now (with the command to
 * carry out once linked) and a short list of the links they had before. A new prompt with a
 * command replaces the link, so only the latest command waits; a prompt without one (App Home, a
 * button, a reminder) hands out the same link again while it has most of its life ahead, so it
 * does not take the command away. So a person sending message after message leaves one record of
 * bounded size, not one per message. A replaced, used or expired link stays known for 24 hours
 * more, so that it gets a page that says what happened rather than "unknown".
 *
 * The state is the person's handle (an HMAC of team and user under the store's key, so it names
 * nobody) followed by the link's own random part; the handle finds the record, and the record
 * keeps only a hash of the whole state, so a copy of the store holds no usable link. The PKCE
 * verifier is sealed with the tokens' key, so a copy cannot finish a consent either; so is the
 * state itself, kept only to be handed out again.
 */
import { createHash, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type Keyv from 'keyv';
import type { Claims } from './claims.js';
import { createSealer, type Sealed } from './seal.js';
import type { SlackUserKey } from './token-store.js';

export const LINK_STATE_TTL_MS = 10 * 60_000;
/** How long a link stays known after it stops being valid (for the "expired" page). */
const KEEP_MS = 24 * 60 * 60_000;
/**
 * Earlier links remembered per person, newest first, to tell a used or expired one apart; any
 * older one of theirs reads as replaced, as long as the person's record is kept.
 */
export const MAX_PAST_LINKS = 10;

/**
 * Where a command written as a message is answered: a mention in its conversation's thread (a
 * mention of its own has its answer threaded under it), a DM in that DM (and its thread, if any).
 */
export interface TypedWhere {
  kind: 'mention' | 'im';
  thread_ts?: string;
  /** The mention was a reply in a thread, whose first message "split this" reads. */
  in_thread?: boolean;
  /** The message itself carries a photo (and `thread_ts` is its own ts): the form reads it. */
  photo?: boolean;
}

/** The command that sent the person to link their account, carried out once they are linked. */
export interface PendingCommand {
  text: string;
  channel_id: string;
  /** The command's response_url (valid 30 minutes from the command). */
  response_url?: string;
  /** Written as a message (a mention, a DM) rather than typed after /split. */
  typed?: TypedWhere;
  /** When the command was typed (ms since the epoch). */
  at: number;
}

export interface LinkState extends SlackUserKey {
  created_at: number;
  pending?: PendingCommand;
  /**
   * PKCE verifier (RFC 7636) for this link's consent request: kept server-side only, so a code
   * intercepted on its way back is worthless to anyone but this app.
   */
  code_verifier: string;
  /** Set once the state has been consumed, so the start route can say so before consent. */
  used_at?: number;
  /**
   * The response_url of the click on this link's Connect button (Slack sends one although the
   * button opens a URL): once linked, the prompt is replaced through it.
   */
  prompt_url?: string;
}

/** The person's link as kept: hashed, with the verifier and the state only sealed. */
interface StoredLink {
  hash: string;
  created_at: number;
  pending?: PendingCommand;
  used_at?: number;
  prompt_url?: string;
  sealed_verifier: Sealed;
  sealed_state: Sealed;
}

/** How a link that is no longer the person's current one ended. */
type Ended = 'replaced' | 'used' | 'expired';

interface PastLink {
  hash: string;
  created_at: number;
  ended: Ended;
}

/** One record per person, under their handle. */
interface PersonLinks extends SlackUserKey {
  current: StoredLink;
  past: PastLink[];
}

/** A link that cannot be used names whom it was made for, when it is known (for their language). */
export type ConsumeResult =
  | { ok: true; link: LinkState }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: Ended; user: SlackUserKey };

export interface LinkStates {
  /**
   * The person's link: a new one when `pending` is given (the command it carries replaces any
   * earlier one; `null` for a command that is not kept, so that none waits) or when theirs is
   * used, spent or half gone; otherwise the one they have.
   */
  create(user: SlackUserKey, pending?: PendingCommand | null): Promise<string>;
  /** Succeeds once per state, for the first caller across every process sharing the store. */
  consume(state: string): Promise<ConsumeResult>;
  /** Reads without consuming (the start route checks the link before sending the person on). */
  peek(state: string): Promise<ConsumeResult>;
  /**
   * Keeps `responseUrl` as where this link's prompt can be replaced, when the link is `user`'s
   * and still usable; says `used` when it was already used (the prompt can be replaced now).
   */
  notePrompt(
    state: string,
    user: SlackUserKey,
    responseUrl: string,
  ): Promise<'noted' | 'used' | 'unknown'>;
  /** The response_url kept by notePrompt, if the link is current and one was kept. */
  promptOf(state: string): Promise<string | undefined>;
}

const HANDLE_CHARS = 22;
/** 22 characters of handle, 43 of the link's own random part: what `create` hands out. */
const STATE_SHAPE = /^[A-Za-z0-9_-]{65}$/;

function hashOf(state: string): string {
  return createHash('sha256').update(state).digest('base64url');
}

type Found =
  | { at: 'current'; handle: string; record: PersonLinks; link: StoredLink }
  | { at: 'past'; record: PersonLinks; link: PastLink }
  /** The person's handle with a link no longer remembered: older than every one kept. */
  | { at: 'older'; record: PersonLinks };

export function createLinkStates(options: {
  keyv: Keyv;
  claims: Claims;
  /** The key that seals service tokens (32 bytes). */
  key: Buffer;
  ttlMs?: number;
  now?: () => number;
}): LinkStates {
  const { keyv, claims, key } = options;
  const ttlMs = options.ttlMs ?? LINK_STATE_TTL_MS;
  const keptMs = ttlMs + KEEP_MS;
  const now = options.now ?? Date.now;
  const sealer = createSealer(key);
  // Prepared once (see seal.ts).
  const handleKey = createSecretKey(key);

  const handleOf = (user: SlackUserKey) =>
    createHmac('sha256', handleKey)
      .update(`link-state-handle\0${user.team_id}\0${user.user_id}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const verifierContext = (handle: string, hash: string) => `link-state:${handle}:${hash}`;
  const stateContext = (handle: string, hash: string) => `link-state-url:${handle}:${hash}`;

  /**
   * One change at a time per person on this replica: two messages handled at once would
   * otherwise each write a record without the other's link. Entries go when their change ends.
   */
  const busy = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(handle: string, run: () => Promise<T>): Promise<T> {
    const next = (busy.get(handle) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => undefined);
    busy.set(handle, settled);
    void settled.then(() => {
      if (busy.get(handle) === settled) busy.delete(handle);
    });
    return next;
  }

  async function load(handle: string): Promise<PersonLinks | undefined> {
    return (await keyv.get(handle)) as PersonLinks | undefined;
  }

  /** Past links still worth telling apart, newest first, at most MAX_PAST_LINKS. */
  const recent = (past: PastLink[], at: number) =>
    past.filter((p) => at - p.created_at <= keptMs).slice(0, MAX_PAST_LINKS);

  async function save(handle: string, record: PersonLinks): Promise<void> {
    await keyv.set(handle, { ...record, past: recent(record.past, now()) }, keptMs);
  }

  async function find(state: string): Promise<Found | undefined> {
    if (!STATE_SHAPE.test(state)) return undefined;
    const handle = state.slice(0, HANDLE_CHARS);
    const record = await load(handle);
    // A record under a handle that is not its person's was put there by hand: not a link.
    if (!record?.current || handleOf(record) !== handle) return undefined;
    const hash = hashOf(state);
    if (record.current.hash === hash)
      return { at: 'current', handle, record, link: record.current };
    const past = recent(record.past ?? [], now()).find((p) => p.hash === hash);
    return past ? { at: 'past', record, link: past } : { at: 'older', record };
  }

  /**
   * The current link whole. A verifier that does not open (written under another key, or
   * tampered with) reads as unknown: the person asks for a new link, all they could do anyway.
   */
  function opened(found: Found & { at: 'current' }): LinkState | undefined {
    const { hash, sealed_verifier, sealed_state: _state, ...rest } = found.link;
    try {
      const code_verifier = sealer.open(verifierContext(found.handle, hash), sealed_verifier);
      return {
        team_id: found.record.team_id,
        user_id: found.record.user_id,
        ...rest,
        code_verifier,
      };
    } catch {
      return undefined;
    }
  }

  const expired = (link: { created_at: number }) => now() - link.created_at > ttlMs;

  /** What a state stands for, before any claim. */
  function judge(found: Found | undefined): ConsumeResult {
    if (!found) return { ok: false, reason: 'unknown' };
    const user = { team_id: found.record.team_id, user_id: found.record.user_id };
    if (found.at === 'past') return { ok: false, reason: found.link.ended, user };
    if (found.at === 'older') return { ok: false, reason: 'replaced', user };
    const link = opened(found);
    if (!link) return { ok: false, reason: 'unknown' };
    if (link.used_at !== undefined) return { ok: false, reason: 'used', user };
    if (expired(link)) return { ok: false, reason: 'expired', user };
    return { ok: true, link };
  }

  return {
    create(user, pending) {
      const handle = handleOf(user);
      return oneAtATime(handle, async () => {
        const before = await load(handle);
        const mine =
          before?.current && before.team_id === user.team_id && before.user_id === user.user_id
            ? before
            : undefined;
        const current = mine?.current;
        const at = now();
        if (
          pending === undefined &&
          current &&
          current.used_at === undefined &&
          at - current.created_at <= ttlMs / 2
        ) {
          try {
            return sealer.open(stateContext(handle, current.hash), current.sealed_state);
          } catch {
            // Not readable here: a new link below.
          }
        }
        const state = `${handle}${randomBytes(32).toString('base64url')}`;
        const hash = hashOf(state);
        const ended: Ended | undefined = !current
          ? undefined
          : current.used_at !== undefined
            ? 'used'
            : at - current.created_at > ttlMs
              ? 'expired'
              : 'replaced';
        await save(handle, {
          team_id: user.team_id,
          user_id: user.user_id,
          current: {
            hash,
            created_at: at,
            ...(pending ? { pending } : {}),
            sealed_verifier: sealer.seal(
              verifierContext(handle, hash),
              randomBytes(32).toString('base64url'),
            ),
            sealed_state: sealer.seal(stateContext(handle, hash), state),
          },
          past: [
            ...(current && ended
              ? [{ hash: current.hash, created_at: current.created_at, ended }]
              : []),
            ...(mine?.past ?? []),
          ],
        });
        return state;
      });
    },
    async peek(state) {
      return judge(await find(state));
    },
    async notePrompt(state, user, responseUrl) {
      if (!STATE_SHAPE.test(state)) return 'unknown';
      const handle = state.slice(0, HANDLE_CHARS);
      return oneAtATime(handle, async () => {
        const found = await find(state);
        if (
          !found ||
          found.record.team_id !== user.team_id ||
          found.record.user_id !== user.user_id
        )
          return 'unknown';
        const judged = judge(found);
        if (!judged.ok) return judged.reason === 'used' ? 'used' : 'unknown';
        if (found.at !== 'current') return 'unknown';
        // Slack posts the click as the browser opens the link, long before the consent comes
        // back and consume() writes the record again.
        await save(handle, {
          ...found.record,
          current: { ...found.link, prompt_url: responseUrl },
        });
        return 'noted';
      });
    },
    async promptOf(state) {
      const found = await find(state);
      return found?.at === 'current' ? found.link.prompt_url : undefined;
    },
    async consume(state) {
      if (!STATE_SHAPE.test(state)) return { ok: false, reason: 'unknown' };
      const handle = state.slice(0, HANDLE_CHARS);
      return oneAtATime(handle, async () => {
        const found = await find(state);
        const judged = judge(found);
        if (found?.at !== 'current' || (!judged.ok && judged.reason !== 'expired')) return judged;
        const user = { team_id: found.record.team_id, user_id: found.record.user_id };
        if (!(await claims.claim(`link-state:${found.link.hash}`, keptMs))) {
          return { ok: false, reason: 'used', user };
        }
        if (!judged.ok) return judged;
        // The claim alone decides who consumes; the mark only lets peek() tell a reused link apart.
        await save(handle, { ...found.record, current: { ...found.link, used_at: now() } });
        return judged;
      });
    },
  };
}
