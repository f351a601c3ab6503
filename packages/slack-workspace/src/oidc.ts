/**
 * Sign in with Slack (OpenID Connect), the workspace's side: the apps registered as clients, who
 * is signed in to the workspace in which browser, the one-time codes the sign-in page hands out,
 * and the id_tokens and user tokens the code is exchanged for.
 *
 * A browser's session is a random cookie value mapped to a person here, never the person's id
 * itself, so that a test (or a person in the sandbox) cannot claim to be someone by editing a
 * cookie: they have to be signed in as them, which the page does for its "Acting as" person.
 * None of this is persisted: after a restart the page signs its person in again on its next
 * refresh, and the app registers its client again when it starts.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { WorkspaceState } from './state.js';
import type { User } from './types.js';

export const SESSION_COOKIE = 'ws_session';
/** How long a code from the sign-in page can be exchanged. */
export const OIDC_CODE_LIFE_MS = 10 * 60_000;
/** How long an id_token says it is valid. */
export const ID_TOKEN_LIFE_S = 60 * 60;
/** Sessions kept; the oldest go first (clients that drop cookies make a new one per visit). */
const MAX_SESSIONS = 1_000;

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Shown on the sign-in page. */
  name: string;
  /** Token rotation is on: installs get expiring bot tokens and refresh tokens. */
  tokenRotation?: boolean;
  /** Lifetime of a rotating token in seconds (Slack's is 12 hours). */
  tokenLifetimeS?: number;
  /** The app may be installed on a whole Enterprise Grid org (org_deploy_enabled). */
  orgDeploy?: boolean;
}

export interface OidcClientInput {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  name?: string;
  tokenRotation?: boolean;
  tokenLifetimeS?: number;
  orgDeploy?: boolean;
}

interface Session {
  userId: string;
  /** Sent with the sign-in page's buttons, so another site cannot press Continue for the person. */
  formToken: string;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  userId: string;
  teamId: string;
  nonce: string | undefined;
  issuedAt: number;
  used: boolean;
}

export interface Identity {
  userId: string;
  teamId: string;
}

export type ExchangeResult =
  | { ok: true; access_token: string; token_type: 'Bearer'; id_token: string }
  | { ok: false; error: string };

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export class Oidc {
  readonly clients = new Map<string, OidcClient>();
  private readonly sessions = new Map<string, Session>();
  private readonly grants = new Map<string, Grant>();
  private readonly userTokens = new Map<string, Identity>();
  private key: { kid: string; privateKey: KeyObject; jwk: Record<string, unknown> } | undefined;

  constructor(private readonly state: WorkspaceState) {}

  addClient(input: OidcClientInput): OidcClient {
    const client: OidcClient = {
      clientId:
        input.clientId ?? `${randomBytes(6).readUIntBE(0, 6)}.${randomBytes(6).readUIntBE(0, 6)}`,
      clientSecret: input.clientSecret ?? randomBytes(16).toString('hex'),
      redirectUris: [...input.redirectUris],
      name: input.name ?? 'the app',
      ...(input.tokenRotation ? { tokenRotation: true } : {}),
      ...(input.tokenLifetimeS !== undefined ? { tokenLifetimeS: input.tokenLifetimeS } : {}),
      ...(input.orgDeploy ? { orgDeploy: true } : {}),
    };
    this.clients.set(client.clientId, client);
    return client;
  }

  /** A new session for a person; the value goes in the SESSION_COOKIE cookie. */
  signIn(userId: string): string {
    const id = randomBytes(24).toString('base64url');
    this.sessions.set(id, { userId, formToken: randomBytes(24).toString('base64url') });
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(oldest);
    }
    return id;
  }

  /** The person a cookie header's session is for, when it names a live person. */
  session(cookieHeader: string | undefined): (Session & { id: string; user: User }) | undefined {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!id || !session) return undefined;
    const user = this.state.users.get(session.userId);
    if (!user || user.deleted || user.is_bot) return undefined;
    return { id, ...session, user };
  }

  /** Whether a code came from the sign-in page (used or not). */
  hasCode(code: string): boolean {
    return this.grants.has(code);
  }

  issueCode(grant: Omit<Grant, 'issuedAt' | 'used'>): string {
    const code = `${randomBytes(4).toString('hex')}.${randomBytes(24).toString('base64url')}`;
    this.grants.set(code, { ...grant, issuedAt: this.state.now(), used: false });
    return code;
  }

  /** Slack's openid.connect.token for grant_type authorization_code. */
  exchange(input: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    code: string | undefined;
    redirectUri: string | undefined;
  }): ExchangeResult {
    const client = input.clientId ? this.clients.get(input.clientId) : undefined;
    if (!client) return { ok: false, error: 'invalid_client_id' };
    if (input.clientSecret !== client.clientSecret)
      return { ok: false, error: 'bad_client_secret' };
    const grant = input.code ? this.grants.get(input.code) : undefined;
    if (!grant || grant.clientId !== client.clientId) return { ok: false, error: 'invalid_code' };
    if (grant.used || this.state.now() - grant.issuedAt > OIDC_CODE_LIFE_MS) {
      return { ok: false, error: 'invalid_grant' };
    }
    if (input.redirectUri !== grant.redirectUri) return { ok: false, error: 'bad_redirect_uri' };
    grant.used = true;
    const user = this.state.users.get(grant.userId);
    if (!user) return { ok: false, error: 'invalid_code' };
    const accessToken = `xoxp-${grant.teamId}-${randomBytes(16).toString('hex')}`;
    this.userTokens.set(accessToken, { userId: grant.userId, teamId: grant.teamId });
    return {
      ok: true,
      access_token: accessToken,
      token_type: 'Bearer',
      id_token: this.idToken(client, user, grant),
    };
  }

  /** openid.connect.userInfo for a user token from `exchange`. */
  userInfo(token: string | undefined): Record<string, unknown> | undefined {
    const identity = token ? this.userTokens.get(token) : undefined;
    const user = identity ? this.state.users.get(identity.userId) : undefined;
    if (!identity || !user) return undefined;
    const team = this.state.teams.get(identity.teamId);
    return {
      ...this.claims(user, identity.teamId),
      ...(team
        ? {
            'https://slack.com/team_name': team.name,
            'https://slack.com/team_domain': team.domain,
          }
        : {}),
    };
  }

  /** The JSON Web Key Set the id_tokens' signatures check against. */
  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [this.signingKey().jwk] };
  }

  private claims(user: User, teamId: string): Record<string, unknown> {
    const [given, ...family] = user.real_name.split(' ');
    return {
      sub: user.id,
      'https://slack.com/user_id': user.id,
      'https://slack.com/team_id': teamId,
      ...(user.email ? { email: user.email, email_verified: true } : {}),
      name: user.real_name,
      given_name: given ?? '',
      family_name: family.join(' '),
      locale: user.locale,
    };
  }

  private idToken(client: OidcClient, user: User, grant: Grant): string {
    const key = this.signingKey();
    const iat = Math.floor(this.state.now() / 1000);
    const header = b64url({ alg: 'RS256', typ: 'JWT', kid: key.kid });
    const payload = b64url({
      iss: this.state.origin,
      aud: client.clientId,
      iat,
      exp: iat + ID_TOKEN_LIFE_S,
      auth_time: Math.floor(grant.issuedAt / 1000),
      ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
      ...this.claims(user, grant.teamId),
    });
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key.privateKey);
    return `${header}.${payload}.${signature.toString('base64url')}`;
  }

  // Made on first use: most workspaces (every test that never signs anyone in) never need one,
  // and an RSA key takes a noticeable moment to generate.
  private signingKey() {
    if (!this.key) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const kid = randomBytes(8).toString('hex');
      this.key = {
        kid,
        privateKey,
        jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
      };
    }
    return this.key;
  }
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export function sessionCookie(value: string): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax`;
}
