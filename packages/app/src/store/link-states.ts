/**
 * OAuth `state` values for linking a Slack user to their service account: random (256 bits),
 * bound server-side to the Slack team and user who asked, usable once, and valid for 10 minutes.
 * The record is kept a while longer than it is valid so that a late or replayed link gets a page
 * that says what happened ("expired", "already used") rather than "unknown".
 *
 * Only a hash of the state is used as the store key, so a copy of the store holds no usable link,
 * and the PKCE verifier is sealed with the tokens' key, so a copy cannot finish a consent either.
 */
import { createHash, randomBytes } from 'node:crypto';
import type Keyv from 'keyv';
import type { Claims } from './claims.js';
import { createSealer, type Sealed } from './seal.js';
import type { SlackUserKey } from './token-store.js';

export const LINK_STATE_TTL_MS = 10 * 60_000;
/** How long a record stays readable after it stops being valid (for the "expired" page). */
const KEEP_MS = 24 * 60 * 60_000;

/**
 * Where a command written as a message is answered: a mention in its conversation's thread (a
 * mention of its own has its answer threaded under it), a DM in that DM (and its thread, if any).
 */
export interface TypedWhere {
  kind: 'mention' | 'im';
  thread_ts?: string;
  /** The mention was a reply in a thread, whose first message "split this" reads. */
  in_thread?: boolean;
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

/** The record as kept: the verifier only sealed, with the record's store key as its context. */
type StoredLinkState = Omit<LinkState, 'code_verifier'> & { sealed_verifier: Sealed };

/** A link that cannot be used names whom it was made for, when it is known (for their language). */
export type ConsumeResult =
  | { ok: true; link: LinkState }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'expired' | 'used'; user: SlackUserKey };

export interface LinkStates {
  create(user: SlackUserKey, pending?: PendingCommand): Promise<string>;
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
  /** The response_url kept by notePrompt, if the link is known and one was kept. */
  promptOf(state: string): Promise<string | undefined>;
}

function storeKey(state: string): string {
  return createHash('sha256').update(state).digest('base64url');
}

/** 43 base64url characters: what `create` hands out. Anything else is not worth a lookup. */
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function createLinkStates(options: {
  keyv: Keyv;
  claims: Claims;
  /** The key that seals service tokens (32 bytes). */
  key: Buffer;
  ttlMs?: number;
  now?: () => number;
}): LinkStates {
  const { keyv, claims } = options;
  const ttlMs = options.ttlMs ?? LINK_STATE_TTL_MS;
  const now = options.now ?? Date.now;
  const sealer = createSealer(options.key);

  function stored(id: string, link: LinkState): StoredLinkState {
    const { code_verifier, ...rest } = link;
    return { ...rest, sealed_verifier: sealer.seal(`link-state:${id}`, code_verifier) };
  }

  /**
   * A record whose verifier does not open (written under another key, or tampered with) reads as
   * unknown: the person asks for a new link, which is all they could do with it anyway.
   */
  async function read(state: string): Promise<LinkState | undefined> {
    if (!STATE_SHAPE.test(state)) return undefined;
    const id = storeKey(state);
    const record = (await keyv.get(id)) as StoredLinkState | undefined;
    if (!record) return undefined;
    const { sealed_verifier, ...rest } = record;
    try {
      return { ...rest, code_verifier: sealer.open(`link-state:${id}`, sealed_verifier) };
    } catch {
      return undefined;
    }
  }

  return {
    async create(user, pending) {
      const state = randomBytes(32).toString('base64url');
      const record: LinkState = {
        team_id: user.team_id,
        user_id: user.user_id,
        created_at: now(),
        code_verifier: randomBytes(32).toString('base64url'),
        ...(pending ? { pending } : {}),
      };
      const id = storeKey(state);
      await keyv.set(id, stored(id, record), ttlMs + KEEP_MS);
      return state;
    },
    async peek(state) {
      const link = await read(state);
      if (!link) return { ok: false, reason: 'unknown' };
      const user = { team_id: link.team_id, user_id: link.user_id };
      if (link.used_at !== undefined) return { ok: false, reason: 'used', user };
      if (now() - link.created_at > ttlMs) return { ok: false, reason: 'expired', user };
      return { ok: true, link };
    },
    async notePrompt(state, user, responseUrl) {
      const link = await read(state);
      if (!link || link.team_id !== user.team_id || link.user_id !== user.user_id) return 'unknown';
      if (link.used_at !== undefined) return 'used';
      if (now() - link.created_at > ttlMs) return 'unknown';
      // Slack posts the click as the browser opens the link, long before the consent comes back
      // and consume() writes the record again.
      const id = storeKey(state);
      await keyv.set(id, stored(id, { ...link, prompt_url: responseUrl }), ttlMs + KEEP_MS);
      return 'noted';
    },
    async promptOf(state) {
      return (await read(state))?.prompt_url;
    },
    async consume(state) {
      const link = await read(state);
      if (!link) return { ok: false, reason: 'unknown' };
      const user = { team_id: link.team_id, user_id: link.user_id };
      if (!(await claims.claim(`link-state:${storeKey(state)}`, ttlMs + KEEP_MS))) {
        return { ok: false, reason: 'used', user };
      }
      if (now() - link.created_at > ttlMs) return { ok: false, reason: 'expired', user };
      // The claim alone decides who consumes; the mark only lets peek() tell a reused link apart.
      const id = storeKey(state);
      await keyv.set(id, stored(id, { ...link, used_at: now() }), ttlMs + KEEP_MS);
      return { ok: true, link };
    },
  };
}
