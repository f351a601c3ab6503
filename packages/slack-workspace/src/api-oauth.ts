/**
 * `oauth.v2.access`: the end of an install (a code from the install page for the team's bot
 * token) and, with token rotation, a refresh. Like the Sign in with Slack methods it takes no bot
 * token: the app authenticates with its client id and secret, as form fields (what Bolt's
 * installer sends) or HTTP Basic (what Slack's reference prefers).
 */
import { basic, type OpenMethod } from './api-openid.js';
import { optionalStr, SlackError } from './http-util.js';
import type { Installs } from './install.js';

export function installMethods(installs: Installs): Map<string, OpenMethod> {
  return new Map<string, OpenMethod>([
    [
      'oauth.v2.access',
      ({ args, authorization }) => {
        const fromHeader = basic(authorization);
        const clientId = optionalStr(args, 'client_id') ?? fromHeader.id;
        const clientSecret = optionalStr(args, 'client_secret') ?? fromHeader.secret;
        const grantType = optionalStr(args, 'grant_type') ?? 'authorization_code';
        if (grantType === 'refresh_token') {
          return installs.refresh({
            clientId,
            clientSecret,
            refreshToken: optionalStr(args, 'refresh_token'),
          });
        }
        if (grantType !== 'authorization_code') throw new SlackError('unsupported_grant_type');
        return installs.exchange({
          clientId,
          clientSecret,
          code: optionalStr(args, 'code'),
          redirectUri: optionalStr(args, 'redirect_uri'),
        });
      },
    ],
  ]);
}
