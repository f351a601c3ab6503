/**
 * Linking a Slack user to their service account: Sign in with Slack proves who is in the browser,
 * then the service's OAuth 2.0 consent.
 *
 *   Connect button -> GET /oauth/start?state=S   sets a cookie holding S, redirects to Slack
 *   Slack sign-in  -> GET /oauth/slack/callback?code=K&state=O
 *                     the cookie must hold S and O must be this link's; K is exchanged for an
 *                     id_token, whose team and user must be the ones S was made for; then the
 *                     cookie also holds the proof of that, and the browser goes to consent
 *   consent        -> GET /oauth/callback?code=C&state=S
 *                     the cookie must hold S and its proof (the same browser, signed in as the
 *                     right person), S must be known, fresh and unused; then C is exchanged, the
 *                     person is read, the token is stored, and `onLinked` DMs them and carries
 *                     out what was pending.
 *
 * The state is bound server-side to the Slack team and user (link-states.ts); the callbacks never
 * take a Slack id from the URL. So a link opened by anyone else, even in a browser it was sent
 * to, ends at Slack's sign-in with someone else's identity and is refused. Any refusal stores
 * nothing, leaves the link usable by its person, and answers a page saying what to do. A person
 * has one link at a time: the prompt for a new command replaces the link of the one before
 * (which then says so), so only the latest command waits.
 * The consent uses PKCE (S256): each link state holds its own code_verifier, sealed in the store;
 * its challenge goes with the consent request and the verifier with the code exchange, so a code
 * that leaks from the callback's URL cannot be exchanged without it.
 *
 * Each page is in the language of the Slack user the link was made for (their Slack locale, read
 * through the directory), or, when the page cannot tell whose link it is, in the browser's
 * (Accept-Language), else in English.
 *
 * No stale prompt: Slack sends the click on a Connect prompt's button (which opens the link) with
 * a response_url of that message; it is kept with the link state, and once the person is linked
 * the prompt is replaced through it with the account it now books into.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@slack/bolt';
import { MAX_COMMAND_CHARS } from '../core/command/index.js';
import { ServiceBaseException } from '../service/index.js';
import type { ServiceTokenRecord, SlackUserKey, TokenStore } from '../store/index.js';
import type { ConsumeResult, LinkStates, PendingCommand } from '../store/link-states.js';
import { LINK_STATE_TTL_MS } from '../store/link-states.js';
import { type Voice, voiceFor } from '../voice/index.js';
import type { Directory } from './directory.js';
import { lookupBudget } from './lookups.js';
import { browserLocale, type Page, type Pages, pagesFor } from './pages.js';
import type { ServiceFactory } from './service.js';
import { createSlackSignIn, type SlackSignInOptions, sameText } from './sign-in.js';

export const START_PATH = '/oauth/start';
export const SIGN_IN_CALLBACK_PATH = '/oauth/slack/callback';
export const CALLBACK_PATH = '/oauth/callback';
const COOKIE = 'split_link_state';

interface LinkingOptions {
  /** Public base URL, no trailing slash. */
  publicUrl: string;
  /** Registered with the service: `${publicUrl}/oauth/callback`. */
  redirectUrl: string;
  states: LinkStates;
  tokens: TokenStore;
  service: ServiceFactory;
  directory: Directory;
  logger: Logger;
  /** Sign in with Slack: the Slack app's client, Slack's pages, and the token method. */
  slack: Omit<SlackSignInOptions, 'now'>;
  now?: () => number;
  /**
   * After the token is stored and before the page says so: keeps the command that sent the
   * person here as durable work, to be carried out once (`key` names this linking, used once).
   * Throws when it cannot be kept.
   */
  keepPending(user: SlackUserKey, pending: PendingCommand, key: string): Promise<void>;
  /**
   * After the page: DM the person, naming the account (with its e-mail when the service gave
   * one) and what becomes of the command they had typed, if any.
   */
  onLinked(
    user: SlackUserKey,
    record: ServiceTokenRecord,
    pending?: { text: string; kept: boolean },
    serviceEmail?: string,
  ): Promise<void>;
  /**
   * Replaces the Connect prompt whose button the person clicked (`responseUrl`, Slack's for that
   * message) with the account they are now linked to. Throws when Slack refuses.
   */
  replacePrompt(user: SlackUserKey, responseUrl: string, record: ServiceTokenRecord): Promise<void>;
}

export interface Linking {
  /**
   * The Connect button's URL for this person, remembering the command to carry out after (one
   * of at most MAX_COMMAND_CHARS; a new one replaces the link that carried an earlier one).
   */
  connectUrl(user: SlackUserKey, pending?: PendingCommand): Promise<string>;
  /**
   * `user` clicked the Connect button of a prompt for the link with `state`: its message is
   * replaced through `responseUrl` once they are linked (right away if they already are).
   */
  promptClicked(state: string, user: SlackUserKey, responseUrl: string): Promise<void>;
  start(req: IncomingMessage, res: ServerResponse): Promise<void>;
  signedIn(req: IncomingMessage, res: ServerResponse): Promise<void>;
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
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The cookie: the link's state, then (once signed in with Slack) a dot and the proof. */
function heldLink(req: IncomingMessage): { state: string; proof: string | undefined } | undefined {
  const value = cookieValue(req, COOKIE);
  if (!value) return undefined;
  const [state, proof] = value.split('.');
  return { state: state ?? '', proof };
}

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** The page for a link that cannot be used. */
function refusal(pages: Pages, reason: 'unknown' | 'expired' | 'used' | 'replaced'): Page {
  switch (reason) {
    case 'unknown':
      return pages.unknownState();
    case 'expired':
      return pages.expiredState();
    case 'replaced':
      return pages.replacedState();
    case 'used':
      return pages.usedState();
  }
}

/** Whom a link was made for, when the store still knows. */
function ownerOf(found: ConsumeResult): SlackUserKey | undefined {
  if (found.ok) return { team_id: found.link.team_id, user_id: found.link.user_id };
  return found.reason === 'unknown' ? undefined : found.user;
}

type LinkState = Extract<ConsumeResult, { ok: true }>['link'];

/** An error code as a provider sends it back in a redirect; anything else is not shown. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

export function createLinking(options: LinkingOptions): Linking {
  const { states, tokens, service, directory, logger } = options;
  const signIn = createSlackSignIn({ ...options.slack, now: options.now ?? Date.now });
  const secure = options.publicUrl.startsWith('https:');
  const cookie = (value: string, maxAgeS: number) =>
    `${COOKIE}=${encodeURIComponent(value)}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure ? '; Secure' : ''}`;
  const clearCookie = cookie('', 0);

  /** The voice of the link's person when known and Slack gives their locale, else the browser's. */
  async function voiceOf(req: IncomingMessage, user: SlackUserKey | undefined): Promise<Voice> {
    if (user) {
      // A page speaks of one person, the link's own: one lookup at most.
      const person = await directory
        .slackUser(user.team_id, user.user_id, lookupBudget(1))
        .catch(() => undefined);
      if (person?.locale) return voiceFor({ locale: person.locale, tz: person.tz });
    }
    return voiceFor({ locale: browserLocale(req.headers['accept-language']) });
  }
  const pagesOf = async (req: IncomingMessage, user?: SlackUserKey) =>
    pagesFor(await voiceOf(req, user));

  /** Something broke on our side: said in the browser's language, whatever it was. */
  async function failed(req: IncomingMessage, res: ServerResponse, what: string, error: unknown) {
    logger.error({ msg: '{what}: {error}', what, error: (error as Error).message });
    if (res.headersSent) return;
    try {
      sendPage(res, (await pagesOf(req)).failure());
    } catch {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', ...NO_STORE });
      res.end('Something went wrong. Please try again in a minute.\n');
    }
  }

  /**
   * The link the callback's state names, used up, and the pages in its person's language; the
   * refusal is sent instead (and undefined returned) when this browser may not complete it.
   */
  async function consumedLink(
    req: IncomingMessage,
    res: ServerResponse,
    state: string | null,
  ): Promise<{ state: string; link: LinkState; pages: Pages } | undefined> {
    if (!state) {
      sendPage(res, (await pagesOf(req)).missingState(), { 'set-cookie': clearCookie });
      return undefined;
    }
    const held = heldLink(req);
    if (held === undefined || !sameText(held.state, state)) {
      // A state the browser did not start with: refused before it is even looked up, so a
      // link sent to someone else cannot use up (or complete) another person's linking.
      sendPage(res, (await pagesOf(req)).otherBrowser());
      return undefined;
    }
    if (held.proof === undefined || !sameText(held.proof, signIn.proof(state))) {
      // Looked up without being used: a stale link says so, a live one stays usable.
      const found = await states.peek(state);
      const pages = await pagesOf(req, ownerOf(found));
      sendPage(res, found.ok ? pages.notSignedIn() : refusal(pages, found.reason));
      return undefined;
    }
    const consumed = await states.consume(state);
    const pages = await pagesOf(req, ownerOf(consumed));
    if (!consumed.ok) {
      sendPage(res, refusal(pages, consumed.reason), { 'set-cookie': clearCookie });
      return undefined;
    }
    return { state, link: consumed.link, pages };
  }

  /** The code the service granted; the page sent instead when it sent an error or nothing. */
  function grantedCode(
    res: ServerResponse,
    pages: Pages,
    query: URLSearchParams,
  ): string | undefined {
    const error = query.get('error');
    if (error) {
      // Only an error code is shown: the URL is anyone's to write, the page is ours.
      sendPage(
        res,
        error === 'access_denied'
          ? pages.denied()
          : pages.providerError(
              ERROR_CODE.test(error) ? { problem: 'said', text: error } : { problem: 'unreadable' },
            ),
        { 'set-cookie': clearCookie },
      );
      return undefined;
    }
    const code = query.get('code');
    if (!code) sendPage(res, pages.missingCode(), { 'set-cookie': clearCookie });
    return code || undefined;
  }

  /**
   * The code traded for a token, stored with the service user it names; the page sent instead
   * (and undefined returned) when the service refuses.
   */
  async function linkAccount(
    res: ServerResponse,
    pages: Pages,
    user: SlackUserKey,
    code: string,
    link: LinkState,
  ): Promise<{ record: ServiceTokenRecord; serviceEmail: string | undefined } | undefined> {
    try {
      const token = await service.forApp().getOAuth2AccessToken(code, options.redirectUrl, {
        code_verifier: link.code_verifier,
      });
      const client = service.forLink(token);
      const me = await client.getCurrentUser();
      const record: ServiceTokenRecord = {
        access_token: token.access_token,
        token_type: token.token_type,
        service_user_id: me.id,
        name: [me.first_name, me.last_name].filter(Boolean).join(' '),
        linked_at: new Date().toISOString(),
      };
      await tokens.set(user, record);
      directory.forget(user);
      directory.rememberProfile(user, me);
      return { record, serviceEmail: me.email };
    } catch (caught) {
      if (!(caught instanceof ServiceBaseException)) throw caught;
      logger.warn({
        msg: 'linking: the service refused the consent: {caught}',
        caught: caught.message,
      });
      const said = caught.errors?.base?.[0];
      sendPage(
        res,
        pages.providerError(
          said !== undefined
            ? { problem: 'said', text: said }
            : caught.http_status
              ? { problem: 'http', status: caught.http_status }
              : { problem: 'timeout' },
        ),
        { 'set-cookie': clearCookie },
      );
      return undefined;
    }
  }

  /** The /split typed before linking, kept to run now; false when it could not be. */
  async function keepPending(
    user: SlackUserKey,
    pending: PendingCommand,
    state: string,
  ): Promise<boolean> {
    try {
      await options.keepPending(user, pending, state);
      return true;
    } catch (keepError) {
      logger.error({
        msg: 'could not keep the pending /split: {keepError}',
        keepError: (keepError as Error).message,
      });
      return false;
    }
  }

  /** The prompt clicked for this link (kept when Slack posted the click) says it is done. */
  async function replacePrompt(user: SlackUserKey, state: string, record: ServiceTokenRecord) {
    const prompt = await states.promptOf(state).catch(() => undefined);
    if (prompt) {
      await options.replacePrompt(user, prompt, record).catch((replaceError: Error) =>
        logger.warn({
          msg: 'could not replace the Connect prompt: {replaceError}',
          replaceError: replaceError.message,
        }),
      );
    }
  }

  return {
    async connectUrl(user, pending) {
      // A command longer than the parser reads would only be refused after linking: not kept,
      // and no earlier one waits in its place either.
      const kept = pending && (pending.text.length <= MAX_COMMAND_CHARS ? pending : null);
      const state = await states.create(user, kept);
      return `${options.publicUrl}${START_PATH}?state=${encodeURIComponent(state)}`;
    },

    async promptClicked(state, user, responseUrl) {
      const noted = await states.notePrompt(state, user, responseUrl);
      if (noted !== 'used') return;
      // Linked through this link before Slack's click arrived: the prompt is replaced now.
      const record = await tokens.get(user);
      if (record) await options.replacePrompt(user, responseUrl, record);
    },

    async start(req, res) {
      try {
        const state = new URL(req.url ?? '/', 'http://app').searchParams.get('state');
        if (!state) return sendPage(res, (await pagesOf(req)).missingState());
        const found = await states.peek(state);
        if (!found.ok)
          return sendPage(res, refusal(await pagesOf(req, ownerOf(found)), found.reason));
        res.writeHead(302, {
          location: signIn.authorizeUrl(state, found.link.team_id),
          'set-cookie': cookie(state, Math.ceil(LINK_STATE_TTL_MS / 1000)),
          ...NO_STORE,
        });
        res.end();
      } catch (error) {
        await failed(req, res, 'linking: the start page failed', error);
      }
    },

    async signedIn(req, res) {
      try {
        const query = new URL(req.url ?? '/', 'http://app').searchParams;
        const oidcState = query.get('state');
        if (!oidcState) return sendPage(res, (await pagesOf(req)).missingState());
        const held = heldLink(req);
        if (!held) return sendPage(res, (await pagesOf(req)).otherBrowser());
        if (!sameText(oidcState, signIn.oidcState(held.state))) {
          return sendPage(res, (await pagesOf(req)).signInStateMismatch());
        }
        const found = await states.peek(held.state);
        const pages = await pagesOf(req, ownerOf(found));
        if (!found.ok)
          return sendPage(res, refusal(pages, found.reason), { 'set-cookie': clearCookie });
        const { link } = found;
        const error = query.get('error');
        if (error) {
          // Only an error code is shown: the URL is anyone's to write, the page is ours.
          return sendPage(
            res,
            error === 'access_denied'
              ? pages.signInCancelled()
              : pages.signInFailed(
                  ERROR_CODE.test(error)
                    ? { problem: 'slack_error', code: error }
                    : { problem: 'unreadable' },
                ),
          );
        }
        const code = query.get('code');
        if (!code) return sendPage(res, pages.missingCode());
        const outcome = await signIn.finish(code, held.state);
        if (!outcome.ok) {
          logger.warn({
            msg: 'sign in with Slack failed ({reason}): {detail}',
            reason: outcome.reason,
            detail: outcome.detail,
          });
          return sendPage(res, pages.signInFailed(outcome.why));
        }
        const who = outcome.identity;
        if (who.team_id !== link.team_id || who.user_id !== link.user_id) {
          logger.warn({
            msg: 'refused linking {team_id}:{user_id}: the browser is signed in to Slack as {team_id2}:{user_id2}',
            team_id: link.team_id,
            user_id: link.user_id,
            team_id2: who.team_id,
            user_id2: who.user_id,
          });
          return sendPage(res, pages.signInMismatch());
        }
        const email =
          who.email ??
          (await directory
            .slackUser(link.team_id, link.user_id, lookupBudget(1))
            .then((person) => person.email)
            .catch(() => undefined));
        const { auth_url } = service
          .forApp()
          .getOAuth2AuthorizeURL(options.redirectUrl, held.state, {
            code_verifier: link.code_verifier,
            ...(email ? { login_hint: email } : {}),
          });
        res.writeHead(302, {
          location: auth_url,
          'set-cookie': cookie(
            `${held.state}.${signIn.proof(held.state)}`,
            Math.ceil(LINK_STATE_TTL_MS / 1000),
          ),
          ...NO_STORE,
        });
        res.end();
      } catch (error) {
        await failed(req, res, 'sign in with Slack failed', error);
      }
    },

    async callback(req, res) {
      try {
        const query = new URL(req.url ?? '/', 'http://app').searchParams;
        const consumed = await consumedLink(req, res, query.get('state'));
        if (!consumed) return;
        const { state, link, pages } = consumed;
        const code = grantedCode(res, pages, query);
        if (code === undefined) return;
        const user = { team_id: link.team_id, user_id: link.user_id };
        const linked = await linkAccount(res, pages, user, code, link);
        if (!linked) return;
        const { record, serviceEmail } = linked;
        const kept = link.pending ? await keepPending(user, link.pending, state) : false;
        const pending = link.pending ? (kept ? 'kept' : 'not kept') : undefined;
        sendPage(res, pages.connected(record.name, pending), { 'set-cookie': clearCookie });
        logger.info({
          msg: 'linked {team_id}:{user_id} to service user {service_user_id}',
          team_id: link.team_id,
          user_id: link.user_id,
          service_user_id: record.service_user_id,
        });
        await replacePrompt(user, state, record);
        await options.onLinked(
          user,
          record,
          link.pending ? { text: link.pending.text, kept } : undefined,
          serviceEmail,
        );
      } catch (error) {
        await failed(req, res, 'linking: the consent callback failed', error);
      }
    },
  };
}
