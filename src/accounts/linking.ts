/**
 * Linking a Slack user to their service account with the service's OAuth 2.0 consent.
 *
 *   Connect button -> GET /oauth/start?state=S   sets a cookie holding S, redirects to consent
 *   consent        -> GET /oauth/callback?code=C&state=S
 *                     the cookie must hold S (the sign-in finishes in the browser that began it),
 *                     S must be known, fresh and unused; then C is exchanged, the person is read,
 *                     the token is stored, and `onLinked` DMs them and carries out what was pending.
 *
 * The state is bound server-side to the Slack team and user (link-states.ts); the callback never
 * takes a Slack id from the URL. Any refusal stores nothing and answers a page saying what to do.
 * PKCE is not used: the service client's OAuth 2.0 helpers do not send a code_verifier.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@slack/bolt';
import { ServiceBaseException } from '../service/index.js';
import type { ServiceTokenRecord, SlackUserKey, TokenStore } from '../store/index.js';
import type { LinkStates, PendingCommand } from '../store/link-states.js';
import { LINK_STATE_TTL_MS } from '../store/link-states.js';
import type { Directory } from './directory.js';
import { type Page, pages } from './pages.js';
import type { ServiceFactory } from './service.js';

export const START_PATH = '/oauth/start';
export const CALLBACK_PATH = '/oauth/callback';
const COOKIE = 'split_link_state';

export interface LinkingOptions {
  /** Public base URL, no trailing slash. */
  publicUrl: string;
  /** Registered with the service: `${publicUrl}/oauth/callback`. */
  redirectUrl: string;
  states: LinkStates;
  tokens: TokenStore;
  service: ServiceFactory;
  directory: Directory;
  logger: Logger;
  /** After the token is stored: DM the person and carry out the pending command. */
  onLinked(user: SlackUserKey, record: ServiceTokenRecord, pending?: PendingCommand): Promise<void>;
}

export interface Linking {
  /** The Connect button's URL for this person, remembering the command to carry out after. */
  connectUrl(user: SlackUserKey, pending?: PendingCommand): Promise<string>;
  start(req: IncomingMessage, res: ServerResponse): Promise<void>;
  callback(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function sendPage(
  res: ServerResponse,
  page: Page,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    ...headers,
  });
  res.end(page.html);
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  // Lengths differ only for forged values; equal-length compare does not leak where they differ.
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const refusal = {
  unknown: pages.unknownState,
  expired: pages.expiredState,
  used: pages.usedState,
} as const;

export function createLinking(options: LinkingOptions): Linking {
  const { states, tokens, service, directory, logger } = options;
  const secure = options.publicUrl.startsWith('https:');
  const cookie = (value: string, maxAgeS: number) =>
    `${COOKIE}=${encodeURIComponent(value)}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure ? '; Secure' : ''}`;
  const clearCookie = cookie('', 0);

  return {
    async connectUrl(user, pending) {
      const state = await states.create(user, pending);
      return `${options.publicUrl}${START_PATH}?state=${encodeURIComponent(state)}`;
    },

    async start(req, res) {
      try {
        const state = new URL(req.url ?? '/', 'http://app').searchParams.get('state');
        if (!state) return sendPage(res, pages.missingState());
        const found = await states.peek(state);
        if (!found.ok) return sendPage(res, refusal[found.reason]());
        const email = await directory
          .slackUser(found.link.team_id, found.link.user_id)
          .then((person) => person.email)
          .catch(() => undefined);
        const { auth_url } = service.forApp().getOAuth2AuthorizeURL(options.redirectUrl, state, {
          code_verifier: found.link.code_verifier,
          ...(email ? { login_hint: email } : {}),
        });
        res.writeHead(302, {
          location: auth_url,
          'set-cookie': cookie(state, Math.ceil(LINK_STATE_TTL_MS / 1000)),
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        });
        res.end();
      } catch (error) {
        logger.error(`oauth start failed: ${(error as Error).message}`);
        sendPage(res, pages.failure());
      }
    },

    async callback(req, res) {
      try {
        const query = new URL(req.url ?? '/', 'http://app').searchParams;
        const state = query.get('state');
        if (!state) return sendPage(res, pages.missingState(), { 'set-cookie': clearCookie });
        const held = cookieValue(req, COOKIE);
        if (held === undefined || !sameText(held, state)) {
          // A state the browser did not start with: refused before it is even looked up, so a
          // link sent to someone else cannot use up (or complete) another person's linking.
          return sendPage(res, pages.otherBrowser());
        }
        const consumed = await states.consume(state);
        if (!consumed.ok) {
          return sendPage(res, refusal[consumed.reason](), { 'set-cookie': clearCookie });
        }
        const { link } = consumed;
        const error = query.get('error');
        if (error) {
          return sendPage(
            res,
            error === 'access_denied' ? pages.denied() : pages.providerError(error),
            {
              'set-cookie': clearCookie,
            },
          );
        }
        const code = query.get('code');
        if (!code) return sendPage(res, pages.missingCode(), { 'set-cookie': clearCookie });

        let record: ServiceTokenRecord;
        try {
          const token = await service.forApp().getOAuth2AccessToken(code, options.redirectUrl, {
            code_verifier: link.code_verifier,
          });
          const client = service.forLink(token);
          const me = await client.getCurrentUser();
          record = {
            access_token: token.access_token,
            token_type: token.token_type,
            service_user_id: me.id,
            name: [me.first_name, me.last_name].filter(Boolean).join(' '),
            linked_at: new Date().toISOString(),
          };
          const user = { team_id: link.team_id, user_id: link.user_id };
          await tokens.set(user, record);
          directory.forget(user);
          directory.rememberProfile(user, me);
        } catch (caught) {
          if (caught instanceof ServiceBaseException) {
            logger.warn(`oauth callback: the service refused the sign-in: ${caught.message}`);
            const detail =
              caught.errors?.base?.[0] ??
              (caught.http_status ? `HTTP ${caught.http_status}` : 'no answer in time');
            return sendPage(res, pages.providerError(detail), { 'set-cookie': clearCookie });
          }
          throw caught;
        }
        sendPage(res, pages.connected(record.name, link.pending !== undefined), {
          'set-cookie': clearCookie,
        });
        logger.info(
          `linked ${link.team_id}:${link.user_id} to service user ${record.service_user_id}`,
        );
        await options.onLinked(
          { team_id: link.team_id, user_id: link.user_id },
          record,
          link.pending,
        );
      } catch (error) {
        logger.error(`oauth callback failed: ${(error as Error).message}`);
        if (!res.headersSent) sendPage(res, pages.failure());
      }
    },
  };
}
