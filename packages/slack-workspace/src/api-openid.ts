/**
 * The Web API methods of Sign in with Slack. They take no bot token: `openid.connect.token`
 * authenticates the app by its client id and secret (form fields, or HTTP Basic), and
 * `openid.connect.userInfo` by the user token that exchange returned.
 */
import { optionalStr, SlackError } from './http-util.js';
import type { Oidc } from './oidc.js';

export interface OpenCall {
  args: Record<string, unknown>;
  /** The Authorization header as sent. */
  authorization: string | undefined;
}

export type OpenMethod = (call: OpenCall) => Record<string, unknown>;

export function basic(authorization: string | undefined): { id?: string; secret?: string } {
  const encoded = /^Basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
  if (!encoded) return {};
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

export function openIdMethods(oidc: Oidc): Map<string, OpenMethod> {
  return new Map<string, OpenMethod>([
    [
      'openid.connect.token',
      ({ args, authorization }) => {
        const grantType = optionalStr(args, 'grant_type') ?? 'authorization_code';
        if (grantType !== 'authorization_code') throw new SlackError('unsupported_grant_type');
        const fromHeader = basic(authorization);
        const answer = oidc.exchange({
          clientId: optionalStr(args, 'client_id') ?? fromHeader.id,
          clientSecret: optionalStr(args, 'client_secret') ?? fromHeader.secret,
          code: optionalStr(args, 'code'),
          redirectUri: optionalStr(args, 'redirect_uri'),
        });
        if (!answer.ok) throw new SlackError(answer.error);
        const { ok: _ok, ...body } = answer;
        return body;
      },
    ],
    [
      'openid.connect.userInfo',
      ({ authorization, args }) => {
        const token =
          /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1] ?? optionalStr(args, 'token');
        if (!token) throw new SlackError('not_authed');
        const info = oidc.userInfo(token);
        if (!info) throw new SlackError('invalid_auth');
        return info;
      },
    ],
  ]);
}
