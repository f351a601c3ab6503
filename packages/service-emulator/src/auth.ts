import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from './types.js';

/** An OAuth client registered through the control plane (the real service's "app"). */
export interface App {
  client_id: string;
  /** Kept in clear because OAuth 1.0a signs with it (HMAC needs the shared secret itself). */
  client_secret: string;
  redirect_uri: string;
  name: string;
  owner_id: number | null;
}

/** Who a Bearer credential acts for. Only the hash of the credential itself is ever stored. */
export interface BearerGrant {
  kind: 'api_key' | 'oauth2';
  user_id: number;
  client_id: string | null;
  /** The last four characters, enough to tell credentials apart in /test and the request log. */
  hint: string;
  /** Hash of the authorization code that produced it, so a replayed code can revoke it. */
  code?: string;
}

export interface AuthorizationCode {
  client_id: string;
  user_id: number;
  /** The redirect_uri the authorization request named, if it named one (RFC 6749). */
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: 'S256' | 'plain';
  expires_at: number;
  used: boolean;
}

export interface OAuth1Token {
  kind: 'request' | 'access';
  token: string;
  secret: string;
  client_id: string;
  user_id?: number;
  callback?: string;
  verifier?: string;
  expires_at?: number;
}

/** Authorization codes and OAuth 1.0a request tokens live ten minutes, as RFC 6749 advises. */
export const CODE_TTL_MS = 10 * 60 * 1000;

/**
 * OAuth 1.0a timestamps may differ from the server's clock by this much: the real service's own
 * error says "your device's clock is off by more than 12 hours".
 */
export const OAUTH1_WINDOW_MS = 12 * 60 * 60 * 1000;

export function newSecret(bytes = 30): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * One change to what the --data file keeps (apps, Bearer grants by hash, OAuth 1.0a access
 * tokens), as the journal records it. Never a Bearer credential itself: only its hash.
 */
export type AuthEffect =
  | { op: 'app'; app: App }
  | { op: 'bearer'; hash: string; grant: BearerGrant }
  | { op: 'drop_bearer'; hash: string }
  | { op: 'oauth1'; token: OAuth1Token }
  | { op: 'drop_oauth1'; token: string }
  | { op: 'reset' };

interface AuthSnapshot {
  apps: App[];
  bearers: [string, BearerGrant][];
  oauth1: OAuth1Token[];
}

/**
 * Every credential the emulator knows: apps, personal API keys, OAuth 2.0 access tokens and codes,
 * OAuth 1.0a tokens and the nonces already seen. Bearer credentials are kept as SHA-256 hashes, so
 * neither memory dumps nor the --data file hold a usable key.
 */
export class AuthStore {
  readonly apps = new Map<string, App>();
  private readonly bearers = new Map<string, BearerGrant>();
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly oauth1 = new Map<string, OAuth1Token>();
  private readonly nonces = new Map<string, number>();

  /** Receives every change to what the --data file keeps, in order, once it is applied. */
  journal: ((effect: AuthEffect) => void) | undefined;

  constructor(private readonly clock: Clock) {}

  reset(): void {
    this.clear();
    this.journal?.({ op: 'reset' });
  }

  private clear(): void {
    this.apps.clear();
    this.bearers.clear();
    this.codes.clear();
    this.oauth1.clear();
    this.nonces.clear();
  }

  /** Applies a journaled change again. */
  replay(effect: AuthEffect): void {
    switch (effect.op) {
      case 'app':
        this.apps.set(effect.app.client_id, effect.app);
        return;
      case 'bearer':
        this.bearers.set(effect.hash, effect.grant);
        return;
      case 'drop_bearer':
        this.bearers.delete(effect.hash);
        return;
      case 'oauth1':
        this.oauth1.set(effect.token.token, effect.token);
        return;
      case 'drop_oauth1':
        this.oauth1.delete(effect.token);
        return;
      case 'reset':
        this.clear();
        return;
    }
  }

  registerApp(input: { redirect_uri: string; name?: string; owner_id?: number | null }): App {
    const app: App = {
      client_id: newSecret(20),
      client_secret: newSecret(30),
      redirect_uri: input.redirect_uri,
      name: input.name ?? 'Untitled app',
      owner_id: input.owner_id ?? null,
    };
    this.apps.set(app.client_id, app);
    this.journal?.({ op: 'app', app: { ...app } });
    return app;
  }

  issueApiKey(userId: number): string {
    return this.issueBearer({ kind: 'api_key', user_id: userId, client_id: null });
  }

  issueAccessToken(userId: number, clientId: string, codeHash?: string): string {
    const grant: Omit<BearerGrant, 'hint'> = {
      kind: 'oauth2',
      user_id: userId,
      client_id: clientId,
    };
    if (codeHash) grant.code = codeHash;
    return this.issueBearer(grant);
  }

  private issueBearer(grant: Omit<BearerGrant, 'hint'>): string {
    const secret = newSecret(30);
    const hash = hashSecret(secret);
    const stored = { ...grant, hint: secret.slice(-4) };
    this.bearers.set(hash, stored);
    this.journal?.({ op: 'bearer', hash, grant: { ...stored } });
    return secret;
  }

  findBearer(secret: string): BearerGrant | undefined {
    return this.bearers.get(hashSecret(secret));
  }

  /** Revokes an access token or API key; true when it existed. */
  revoke(secret: string): boolean {
    const hash = hashSecret(secret);
    if (this.bearers.delete(hash)) {
      this.journal?.({ op: 'drop_bearer', hash });
      return true;
    }
    const token = this.oauth1.get(secret);
    if (!token) return false;
    this.deleteOAuth1Token(secret);
    return true;
  }

  revokeTokensFromCode(codeHash: string): void {
    for (const [hash, grant] of this.bearers) {
      if (grant.code !== codeHash) continue;
      this.bearers.delete(hash);
      this.journal?.({ op: 'drop_bearer', hash });
    }
  }

  issueCode(input: Omit<AuthorizationCode, 'expires_at' | 'used'>): string {
    const code = newSecret(24);
    this.codes.set(hashSecret(code), {
      ...input,
      expires_at: this.clock.now().getTime() + CODE_TTL_MS,
      used: false,
    });
    return code;
  }

  findCode(code: string): { hash: string; record: AuthorizationCode } | undefined {
    const hash = hashSecret(code);
    const record = this.codes.get(hash);
    return record ? { hash, record } : undefined;
  }

  issueRequestToken(clientId: string, callback: string): OAuth1Token {
    const token: OAuth1Token = {
      kind: 'request',
      token: newSecret(20),
      secret: newSecret(30),
      client_id: clientId,
      callback,
      expires_at: this.clock.now().getTime() + CODE_TTL_MS,
    };
    this.oauth1.set(token.token, token);
    return token;
  }

  issueOAuth1AccessToken(clientId: string, userId: number): OAuth1Token {
    const token: OAuth1Token = {
      kind: 'access',
      token: newSecret(20),
      secret: newSecret(30),
      client_id: clientId,
      user_id: userId,
    };
    this.oauth1.set(token.token, token);
    this.journal?.({ op: 'oauth1', token: { ...token } });
    return token;
  }

  findOAuth1Token(token: string): OAuth1Token | undefined {
    const found = this.oauth1.get(token);
    if (found?.expires_at !== undefined && found.expires_at < this.clock.now().getTime()) {
      this.oauth1.delete(token);
      return undefined;
    }
    return found;
  }

  deleteOAuth1Token(token: string): void {
    const found = this.oauth1.get(token);
    this.oauth1.delete(token);
    // Request tokens live ten minutes and are never saved; only access tokens are.
    if (found?.kind === 'access') this.journal?.({ op: 'drop_oauth1', token });
  }

  /**
   * Records a nonce; false when the same one was already used with the same consumer, token and
   * timestamp (RFC 5849). Nonces older than the timestamp window can never be replayed (the
   * timestamp check refuses them first), so they are forgotten.
   */
  useNonce(key: string, timestampMs: number): boolean {
    if (this.nonces.has(key)) return false;
    this.nonces.set(key, timestampMs);
    if (this.nonces.size > 10_000) {
      const oldest = this.clock.now().getTime() - OAUTH1_WINDOW_MS;
      for (const [seen, at] of this.nonces) if (at < oldest) this.nonces.delete(seen);
    }
    return true;
  }

  /** Apps, Bearer grants (hashed) and OAuth 1.0a access tokens; codes and nonces are transient. */
  toJSON(): AuthSnapshot {
    return {
      apps: [...this.apps.values()],
      bearers: [...this.bearers],
      oauth1: [...this.oauth1.values()].filter((token) => token.kind === 'access'),
    };
  }

  load(data: unknown): void {
    this.clear();
    const snapshot = data as Partial<AuthSnapshot> | undefined;
    for (const app of snapshot?.apps ?? []) this.apps.set(app.client_id, app);
    for (const [hash, grant] of snapshot?.bearers ?? []) this.bearers.set(hash, grant);
    for (const token of snapshot?.oauth1 ?? []) this.oauth1.set(token.token, token);
  }
}
