/**
 * The Web API endpoint `/api/<method>`: token and scope checks, faults a test asked for, the
 * record of every call, and Slack's answer conventions (HTTP 200 with `ok:false` for platform
 * errors, 429 + Retry-After only on demand).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatMethods, type Method } from './api-chat.js';
import { directoryMethods } from './api-directory.js';
import { fileMethods } from './api-files.js';
import type { OpenMethod } from './api-openid.js';
import { threadMethods } from './api-threads.js';
import { unfurlMethods } from './api-unfurl.js';
import { viewMethods } from './api-views.js';
import { parseArgs, readBody, SlackError, send } from './http-util.js';
import type { WorkspaceState } from './state.js';
import type { AppFacts, RecordedCall, Team } from './types.js';

const METHOD_SCOPES = new Map<string, string[]>(
  Object.entries({
    'chat.postMessage': ['chat:write'],
    'chat.postEphemeral': ['chat:write'],
    'chat.update': ['chat:write'],
    'chat.delete': ['chat:write'],
    'chat.scheduleMessage': ['chat:write'],
    'chat.deleteScheduledMessage': ['chat:write'],
    'chat.unfurl': ['links:write'],
    'users.info': ['users:read'],
    'users.lookupByEmail': ['users:read.email'],
    'conversations.open': ['im:write'],
    'files.info': ['files:read'],
    'files.getUploadURLExternal': ['files:write'],
    'files.completeUploadExternal': ['files:write'],
    'team.info': ['team:read'],
  }),
);

type Fault =
  | { kind: 'rate'; retryAfter: number }
  | { kind: 'error'; error: string }
  | { kind: 'http'; status: number };

export interface WebApi {
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    query: URLSearchParams,
  ): Promise<void>;
  rateLimit(method: string, options?: { retryAfter?: number; times?: number }): void;
  rateLimitFor(method: string, seconds: number, options?: { team?: string }): void;
  fail(method: string, error: string, times?: number): void;
  httpError(method: string, status: number, times?: number): void;
}

/**
 * `open` methods take no bot token: they authenticate the caller themselves. `app` is the app's
 * manifest facts (chat.unfurl reads its unfurl domains).
 */
export function createWebApi(
  state: WorkspaceState,
  open: ReadonlyMap<string, OpenMethod> = new Map(),
  expired: (token: string) => boolean = () => false,
  app: () => AppFacts = () => ({ name: 'App', commands: [], shortcuts: [], scopes: [] }),
): WebApi {
  const methods = new Map<string, Method>(
    Object.entries({
      ...directoryMethods(state),
      ...chatMethods(state),
      ...threadMethods(state),
      ...unfurlMethods(state, app),
      ...viewMethods(state),
      ...fileMethods(state),
    }),
  );
  const faults = new Map<string, Fault[]>();
  /** Until when (workspace clock, ms) a method is over its limit: `${team or *} ${method}`. */
  const windows = new Map<string, number>();
  /** Seconds left of a window over `method` for this token's team, rounded up; 0 when none. */
  const windowLeft = (method: string, token: string | undefined): number => {
    const team = token === undefined ? undefined : state.tokens.get(token)?.id;
    const ends = [windows.get(`* ${method}`), team ? windows.get(`${team} ${method}`) : undefined];
    const end = Math.max(0, ...ends.filter((e): e is number => e !== undefined));
    return Math.max(0, Math.ceil((end - state.now()) / 1000));
  };

  const queueFault = (method: string, fault: Fault, times: number) => {
    const queue = faults.get(method) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    faults.set(method, queue);
  };

  function authenticate(token: string | undefined): Team {
    if (token === undefined || token === '') throw new SlackError('not_authed');
    const team = state.tokens.get(token);
    if (!team) throw new SlackError('invalid_auth');
    if (expired(token)) throw new SlackError('token_expired');
    return team;
  }

  /**
   * An org-wide installation's bot acts in every team of its org: the call is taken as made in
   * the team of the person or conversation it names (the org's first team when it names none).
   */
  function actingTeam(holder: Team, args: Record<string, unknown>): Team {
    if (!holder.org) return holder;
    const named = [args.user, args.user_id, args.users, args.channel].find(
      (v): v is string => typeof v === 'string',
    );
    const inOrg = (team: Team | undefined) =>
      team && team.enterprise_id === holder.enterprise_id && !team.org ? team : undefined;
    const userTeam = (id: string) => {
      const user = state.users.get(id);
      return user ? state.teams.get(user.team_id) : undefined;
    };
    let team: Team | undefined;
    if (named && /^[UW]/.test(named)) team = inOrg(userTeam(named));
    else if (named?.startsWith('D')) {
      const owner = [...state.dms].find(([, dm]) => dm === named)?.[0];
      team = owner ? inOrg(userTeam(owner)) : undefined;
    }
    team ??= [...state.teams.values()].find((t) => inOrg(t));
    if (!team) throw new SlackError('invalid_auth');
    return {
      ...team,
      botToken: holder.botToken,
      botUserId: holder.botUserId,
      botId: holder.botId,
      scopes: holder.scopes,
    };
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    query: URLSearchParams,
  ): Promise<void> {
    const raw = await readBody(req);
    const contentType = req.headers['content-type'];
    let args: Record<string, unknown>;
    try {
      args = parseArgs(raw, contentType, query);
    } catch {
      args = Object.create(null) as Record<string, unknown>;
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const call: RecordedCall = {
      method,
      token,
      args,
      contentType,
      at: state.now(),
      status: 200,
      response: {},
    };
    const reply = (status: number, body: Record<string, unknown>, headers = {}) => {
      call.status = status;
      call.response = body;
      state.calls.push(call);
      send(res, status, body, headers);
      state.notify();
    };

    // Over a method's limit, Slack answers every call of it with 429 until its window ends, and
    // Retry-After says how long that still is.
    const left = windowLeft(method, token);
    if (left > 0)
      return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(left) });
    const fault = faults.get(method)?.shift();
    if (fault?.kind === 'rate') {
      return reply(
        429,
        { ok: false, error: 'ratelimited' },
        { 'retry-after': String(fault.retryAfter) },
      );
    }
    if (fault?.kind === 'http') return reply(fault.status, { ok: false, error: 'fatal_error' });
    if (fault?.kind === 'error') return reply(200, { ok: false, error: fault.error });

    const openMethod = open.get(method);
    if (openMethod) {
      try {
        return reply(200, {
          ok: true,
          ...openMethod({ args, authorization: req.headers.authorization }),
        });
      } catch (error) {
        if (error instanceof SlackError)
          return reply(200, { ok: false, error: error.error, ...error.extra });
        return reply(200, { ok: false, error: 'internal_error', detail: String(error) });
      }
    }
    const handler = methods.get(method);
    if (!handler) return reply(200, { ok: false, error: 'unknown_method', req_method: method });
    try {
      const team = actingTeam(authenticate(token), args);
      const needed = (METHOD_SCOPES.get(method) ?? []).filter((s) => !team.scopes.includes(s));
      if (needed.length > 0) {
        throw new SlackError('missing_scope', {
          needed: needed.join(','),
          provided: team.scopes.join(','),
        });
      }
      const body = handler(args, team);
      reply(200, { ok: true, ...body }, { 'x-oauth-scopes': team.scopes.join(',') });
    } catch (error) {
      if (error instanceof SlackError)
        return reply(200, { ok: false, error: error.error, ...error.extra });
      reply(200, { ok: false, error: 'internal_error', detail: String(error) });
    }
  }

  return {
    handle,
    rateLimit(method, options = {}) {
      queueFault(method, { kind: 'rate', retryAfter: options.retryAfter ?? 1 }, options.times ?? 1);
    },
    rateLimitFor(method, seconds, options = {}) {
      windows.set(`${options.team ?? '*'} ${method}`, state.now() + seconds * 1_000);
    },
    fail(method, error, times = 1) {
      queueFault(method, { kind: 'error', error }, times);
    },
    httpError(method, status, times = 1) {
      queueFault(method, { kind: 'http', status }, times);
    },
  };
}
