/**
 * Installing an app into a team through Slack's OAuth v2, the workspace's side: the one-time codes
 * the install page hands out, `oauth.v2.access` turning one into the team's bot token, and token
 * rotation (an access token that expires, refreshed with a single-use refresh token).
 *
 * The app is one of the Sign in with Slack clients (a Slack app has one client id and secret for
 * both). A client with `tokenRotation` gets expiring tokens, as an app with rotation turned on
 * does; one with `orgDeploy` may be installed on a whole Enterprise Grid org.
 */
import { randomBytes } from 'node:crypto';
import { SlackError } from './http-util.js';
import type { Oidc, OidcClient } from './oidc.js';
import { randomId, type WorkspaceState } from './state.js';
import type { Team } from './types.js';

/** How long a code from the install page can be exchanged (Slack: ten minutes). */
export const INSTALL_CODE_LIFE_MS = 10 * 60_000;
/** Slack's lifetime of a rotating access token: twelve hours. */
export const ROTATING_TOKEN_LIFE_S = 12 * 60 * 60;

interface InstallGrant {
  clientId: string;
  /** As given to the authorize page; the exchange must repeat it. */
  redirectUri: string | undefined;
  teamId: string;
  userId: string;
  scopes: string[];
  /** Installed on the team's whole org. */
  org: boolean;
  issuedAt: number;
  used: boolean;
}

interface Refresh {
  clientId: string;
  /** The team, or the org for an org-wide install. */
  holder: Team;
  used: boolean;
}

export class Installs {
  private readonly grants = new Map<string, InstallGrant>();
  private readonly refreshTokens = new Map<string, Refresh>();
  /** Access token -> when it stops working (workspace clock, ms); absent: never. */
  readonly expiries = new Map<string, number>();

  constructor(
    private readonly state: WorkspaceState,
    private readonly oidc: Oidc,
  ) {}

  issueCode(grant: Omit<InstallGrant, 'issuedAt' | 'used'>): string {
    const code = `${randomBytes(4).toString('hex')}.${randomBytes(24).toString('base64url')}`;
    this.grants.set(code, { ...grant, issuedAt: this.state.now(), used: false });
    return code;
  }

  private client(clientId: string | undefined, clientSecret: string | undefined): OidcClient {
    const client = clientId ? this.oidc.clients.get(clientId) : undefined;
    if (!client) throw new SlackError('invalid_client_id');
    if (clientSecret !== client.clientSecret) throw new SlackError('bad_client_secret');
    return client;
  }

  /** oauth.v2.access with grant_type authorization_code. */
  exchange(input: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    code: string | undefined;
    redirectUri: string | undefined;
  }): Record<string, unknown> {
    const client = this.client(input.clientId, input.clientSecret);
    if (!input.code) throw new SlackError('invalid_code');
    const grant = this.grants.get(input.code);
    if (!grant) {
      // A Sign in with Slack code is not an install code.
      if (this.oidc.hasCode(input.code)) throw new SlackError('oauth_authorization_url_mismatch');
      throw new SlackError('invalid_code');
    }
    if (grant.clientId !== client.clientId) throw new SlackError('invalid_code');
    if (grant.used || this.state.now() - grant.issuedAt > INSTALL_CODE_LIFE_MS)
      throw new SlackError('invalid_code');
    if (grant.redirectUri !== undefined && input.redirectUri !== grant.redirectUri)
      throw new SlackError('bad_redirect_uri');
    grant.used = true;
    const team = this.state.teams.get(grant.teamId);
    if (!team) throw new SlackError('invalid_code');
    const holder = grant.org ? this.orgHolder(team, grant.scopes) : team;
    holder.scopes = [...grant.scopes];
    const token = this.mint(client, holder);
    return {
      ...this.tokenAnswer(client, holder, token),
      authed_user: { id: grant.userId },
    };
  }

  /** oauth.v2.access with grant_type refresh_token (token rotation). */
  refresh(input: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    refreshToken: string | undefined;
  }): Record<string, unknown> {
    const client = this.client(input.clientId, input.clientSecret);
    const found = input.refreshToken ? this.refreshTokens.get(input.refreshToken) : undefined;
    if (!found || found.used || found.clientId !== client.clientId)
      throw new SlackError('invalid_refresh_token');
    // Single use: a second refresh with the same token fails, as at Slack.
    found.used = true;
    return this.tokenAnswer(client, found.holder, this.mint(client, found.holder));
  }

  /** A new bot token for the team (or org); with rotation, expiring, with a refresh token. */
  private mint(client: OidcClient, holder: Team): { access: string; refresh?: string } {
    const prefix = client.tokenRotation ? 'xoxe.xoxb' : 'xoxb';
    const access = `${prefix}-${holder.id}-${randomBytes(12).toString('hex')}`;
    holder.botToken = access;
    this.state.tokens.set(access, holder);
    if (!client.tokenRotation) return { access };
    this.expiries.set(access, this.state.now() + this.lifeS(client) * 1000);
    const refresh = `xoxe-1-${randomBytes(24).toString('hex')}`;
    this.refreshTokens.set(refresh, { clientId: client.clientId, holder, used: false });
    return { access, refresh };
  }

  private lifeS(client: OidcClient): number {
    return client.tokenLifetimeS ?? ROTATING_TOKEN_LIFE_S;
  }

  private tokenAnswer(
    client: OidcClient,
    holder: Team,
    token: { access: string; refresh?: string },
  ) {
    const enterprise = holder.enterprise_id
      ? { id: holder.enterprise_id, name: this.state.enterprises.get(holder.enterprise_id) ?? '' }
      : null;
    const org = holder.org === true;
    return {
      access_token: token.access,
      token_type: 'bot',
      scope: holder.scopes.join(','),
      bot_user_id: holder.botUserId,
      app_id: holder.appId,
      team: org ? null : { id: holder.id, name: holder.name },
      enterprise,
      is_enterprise_install: org,
      ...(token.refresh ? { refresh_token: token.refresh, expires_in: this.lifeS(client) } : {}),
    };
  }

  /** The org-wide installation's record: one bot for every team of the org. */
  private orgHolder(team: Team, scopes: string[]): Team {
    const enterpriseId = team.enterprise_id;
    if (!enterpriseId) throw new SlackError('invalid_code');
    const known = this.state.orgInstalls.get(enterpriseId);
    if (known) return known;
    const holder: Team = {
      id: enterpriseId,
      name: this.state.enterprises.get(enterpriseId) ?? enterpriseId,
      domain: enterpriseId.toLowerCase(),
      botToken: '',
      botUserId: randomId('U0BOT', 6),
      botId: randomId('B0', 8),
      appId: team.appId,
      scopes,
      enterprise_id: enterpriseId,
      org: true,
    };
    this.state.orgInstalls.set(enterpriseId, holder);
    return holder;
  }

  /** Whether a token has expired (rotation) by the workspace's clock. */
  expired(token: string): boolean {
    const until = this.expiries.get(token);
    return until !== undefined && this.state.now() >= until;
  }

  /** Uninstalling: every token the team's (or org's) installation holds stops working. */
  revokeAll(holder: Team): void {
    for (const [token, team] of this.state.tokens) {
      if (team === holder) this.state.tokens.delete(token);
    }
    for (const [token, refresh] of this.refreshTokens) {
      if (refresh.holder === holder) this.refreshTokens.delete(token);
    }
  }
}
