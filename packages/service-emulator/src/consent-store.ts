import { CODE_TTL_MS, newSecret } from './auth.js';
import type { Clock } from './types.js';

/** One authorization in progress between the consent page and the person's decision. */
export interface Pending {
  id: string;
  /** Rotated on every page; a form post must carry the one of the page it came from. */
  csrf: string;
  client_id: string;
  expires_at: number;
  user_id?: number;
  oauth2?: {
    redirect_uri?: string;
    state?: string;
    code_challenge?: string;
    code_challenge_method?: 'S256' | 'plain';
    /** The e-mail the client expects to sign in, to pre-fill the sign-in form with. */
    login_hint?: string;
  };
  oauth1?: { request_token: string };
}

/** How long the consent screens remember who signed in (the emulator_session cookie). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'emulator_session';

/**
 * Authorizations in progress and signed-in browser sessions, kept in memory only (a restart just
 * means signing in again).
 */
export class ConsentStore {
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, { user_id: number; expires_at: number }>();

  constructor(private readonly clock: Clock) {}

  create(input: Omit<Pending, 'id' | 'csrf' | 'expires_at'>): Pending {
    const now = this.clock.now().getTime();
    if (this.pending.size > 1000) {
      for (const [id, old] of this.pending) if (old.expires_at < now) this.pending.delete(id);
    }
    const entry: Pending = { ...input, id: newSecret(18), csrf: '', expires_at: now + CODE_TTL_MS };
    this.pending.set(entry.id, entry);
    return entry;
  }

  find(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (entry && entry.expires_at < this.clock.now().getTime()) {
      this.pending.delete(id);
      return undefined;
    }
    return entry;
  }

  delete(id: string): void {
    this.pending.delete(id);
  }

  reset(): void {
    this.pending.clear();
    this.sessions.clear();
  }

  startSession(userId: number): string {
    const id = newSecret(24);
    this.sessions.set(id, {
      user_id: userId,
      expires_at: this.clock.now().getTime() + SESSION_TTL_MS,
    });
    return id;
  }

  sessionUser(id: string | undefined): number | undefined {
    const session = id ? this.sessions.get(id) : undefined;
    if (!session) return undefined;
    if (session.expires_at < this.clock.now().getTime()) {
      this.sessions.delete(id!);
      return undefined;
    }
    return session.user_id;
  }

  endSession(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }
}
