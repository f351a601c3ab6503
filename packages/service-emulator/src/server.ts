import type { IncomingMessage, ServerResponse } from 'node:http';
import { consentGet, consentPost } from './consent.js';
import type { Emulator, Exchange } from './context.js';
import { handleControl } from './control.js';
import { defaultFaultBody, type Fault } from './faults.js';
import {
  HttpError,
  isFormBody,
  NOT_FOUND,
  NOT_LOGGED_IN,
  parseBody,
  parseFormPairs,
  sendHtml,
  sendJson,
} from './http.js';
import { Ledger } from './ledger.js';
import { accessTokenEndpoint, requestTokenEndpoint, tokenEndpoint } from './oauth.js';
import { baseStringUri, verifyOAuth1 } from './oauth1.js';
import { indexPage } from './pages.js';
import { RECEIPT_PATH, serveReceipt } from './receipts.js';
import { sameOriginRefusal } from './same-origin.js';
import { emptyParams, type Params, type UploadedFile } from './types.js';

const API_PATH = /^\/api\/v3\.0\/([A-Za-z0-9_]+)(?:\/([^/]*))?\/?$/;

/** The two verbs an older client library used instead of POST; the service tolerates them. */
const ALTERNATE_VERBS = new Map([
  ['PUT update_user', 'POST'],
  ['DELETE delete_friend', 'POST'],
]);

export interface Actor {
  userId: number;
  clientId: string | null;
  kind: 'api_key' | 'oauth2' | 'oauth1';
  /** Last four characters of the credential, never the credential. */
  hint: string;
}

export function createRequestListener(
  emu: Emulator,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handleRequest(emu, req, res);
  };
}

async function handleRequest(
  emu: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const startedAt = process.hrtime.bigint();
  const rawUrl = req.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const ex: Exchange = {
    req,
    res,
    method: req.method ?? 'GET',
    pathname: queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt),
    search: queryAt === -1 ? '' : rawUrl.slice(queryAt + 1),
    startedAt,
    actorId: null,
  };
  if (ex.pathname === '/__emulator' || ex.pathname.startsWith('/__emulator/')) {
    await guard(ex, async () => {
      const refusal = sameOriginRefusal(req, emu.host);
      if (refusal) throw refusal;
      const receipt = ex.method === 'GET' ? RECEIPT_PATH.exec(ex.pathname) : null;
      if (receipt) {
        await serveReceipt(emu, ex, receipt[1]!, authenticate(emu, ex, [])?.userId);
        return;
      }
      await handleControl(emu, ex);
    });
    return;
  }
  await guard(ex, async () => {
    const fault = emu.faults.take(ex.method, ex.pathname);
    if (fault && (await applyFault(fault, ex))) return;
    await route(emu, ex);
  });
  const routeKey = ex.op ? `${ex.method} /api/v3.0/${ex.op}` : `${ex.method} ${ex.pathname}`;
  emu.log.record(
    {
      method: ex.method,
      path: ex.pathname,
      ...(ex.op ? { op: ex.op } : {}),
      status: res.headersSent ? res.statusCode : 0,
      actor_id: ex.actorId,
      at: emu.clock.now().toISOString(),
    },
    routeKey,
  );
}

/** Runs a handler, turning HttpError into its answer and anything else into a 500. */
async function guard(ex: Exchange, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (ex.res.headersSent || ex.res.destroyed) return;
    if (error instanceof HttpError) {
      sendJson(ex.res, ex.startedAt, error.status, error.body, error.headers);
      return;
    }
    console.error('emulator: unexpected error', error);
    sendJson(ex.res, ex.startedAt, 500, { errors: { base: ['Internal server error'] } });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Applies a fault. True when it answered (or dropped) the request. A latency-only fault answers
 * false and leaves its delay in `ex.latencyMs`, which the route sleeps once it has read the body:
 * like a slow server, the whole request is received, then handled late, so a client that gives
 * up waiting still has its write applied (and logged) - the case clients must reconcile.
 */
async function applyFault(fault: Fault, ex: Exchange): Promise<boolean> {
  const answers = fault.drop || fault.status !== undefined;
  if (!answers) {
    ex.latencyMs = fault.latency_ms ?? 0;
    return false;
  }
  if (fault.latency_ms) await sleep(fault.latency_ms);
  if (fault.drop) {
    ex.req.socket.destroy();
    return true;
  }
  if (fault.status === undefined) return false;
  const headers: Record<string, string> = {};
  const retryAfter = fault.retry_after ?? (fault.status === 429 ? 60 : undefined);
  if (retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(retryAfter));
  // A body is left unread: closing the connection spares reading the rest of an upload.
  if (ex.req.headers['content-length'] !== undefined || ex.req.headers['transfer-encoding']) {
    headers.Connection = 'close';
  }
  sendJson(
    ex.res,
    ex.startedAt,
    fault.status,
    fault.body ?? defaultFaultBody(fault.status),
    headers,
  );
  return true;
}

async function route(emu: Emulator, ex: Exchange): Promise<void> {
  const api = API_PATH.exec(ex.pathname);
  if (api) {
    await routeApi(emu, ex, api[1]!, api[2]);
    return;
  }
  // OAuth pages and endpoints: their bodies are small, so the delay simply comes first.
  if (ex.latencyMs) await sleep(ex.latencyMs);
  switch (`${ex.method} ${ex.pathname}`) {
    case 'GET /oauth/authorize':
    case 'GET /authorize':
      consentGet(emu, ex);
      return;
    case 'POST /oauth/authorize':
    case 'POST /authorize':
      await consentPost(emu, ex);
      return;
    case 'POST /oauth/token':
      await tokenEndpoint(emu, ex);
      return;
    case 'POST /oauth/request_token':
      await requestTokenEndpoint(emu, ex);
      return;
    case 'POST /oauth/access_token':
      await accessTokenEndpoint(emu, ex);
      return;
    case 'GET /':
      sendHtml(ex.res, ex.startedAt, 200, indexPage());
      return;
  }
  throw new HttpError(404, NOT_FOUND);
}

function queryParams(search: string): Params {
  const params = emptyParams();
  if (search === '') return params;
  for (const [key, value] of new URLSearchParams(search)) params[key] = value;
  return params;
}

async function routeApi(
  emu: Emulator,
  ex: Exchange,
  op: string,
  rawId: string | undefined,
): Promise<void> {
  const operation = Object.hasOwn(Ledger.operations, op) ? Ledger.operations[op] : undefined;
  const method = ALTERNATE_VERBS.get(`${ex.method} ${op}`) ?? ex.method;
  const hasBody = operation?.method === 'POST' && method === 'POST';
  // A write's delay comes after its body is read (below); everything else waits first.
  if (ex.latencyMs && !hasBody) await sleep(ex.latencyMs);
  if (op === 'get_request_token' && ex.method === 'POST' && rawId === undefined) {
    await requestTokenEndpoint(emu, ex);
    return;
  }
  if (op === 'get_access_token' && ex.method === 'POST' && rawId === undefined) {
    await accessTokenEndpoint(emu, ex);
    return;
  }
  if (op === 'test' && ex.method === 'GET' && rawId === undefined) {
    await whoAmI(emu, ex);
    return;
  }
  if (!operation) throw new HttpError(404, NOT_FOUND);
  if (method !== operation.method) throw new HttpError(404, NOT_FOUND);
  ex.op = op;
  let pathId: string | undefined;
  if (rawId !== undefined && rawId !== '') {
    try {
      pathId = decodeURIComponent(rawId);
    } catch {
      throw new HttpError(404, NOT_FOUND);
    }
  }

  let params = queryParams(ex.search);
  let files: UploadedFile[] = [];
  let formPairs: [string, string][] = [];
  if (operation.method === 'POST') {
    const body = await parseBody(ex.req);
    if (ex.latencyMs) await sleep(ex.latencyMs);
    // Rails merges the query string into a POST's parameters; the body wins on a clash.
    params = Object.assign(emptyParams(), params, body.params);
    files = body.files;
    formPairs = isFormBody(ex.req) ? body.formPairs : [];
  }
  const actor = authenticate(emu, ex, formPairs);
  if (actor) ex.actorId = actor.userId;
  if (operation.auth && !actor) throw new HttpError(401, NOT_LOGGED_IN);

  const result = emu.ledger.handle({
    op,
    ...(pathId !== undefined ? { pathId } : {}),
    method: operation.method,
    params,
    files,
    ...(actor ? { actorId: actor.userId } : {}),
  });
  // Reads wait too: what they show may include a change whose own answer is still waiting.
  await emu.durable();
  sendJson(ex.res, ex.startedAt, result.status, result.body, {
    'Content-Disposition': 'inline; filename="response.json"',
  });
}

/**
 * Finds who a request acts for: a personal API key or OAuth 2.0 token as Bearer, or an OAuth 1.0a
 * signature made with an access token. Undefined for missing or invalid credentials.
 */
export function authenticate(
  emu: Emulator,
  ex: Exchange,
  formPairs: [string, string][],
): Actor | undefined {
  const header = ex.req.headers.authorization;
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) {
    const grant = emu.auth.findBearer(bearer[1]!);
    if (!grant || !emu.ledger.getUser(grant.user_id)) return undefined;
    return { userId: grant.user_id, clientId: grant.client_id, kind: grant.kind, hint: grant.hint };
  }
  if (/^OAuth\s/i.test(header)) {
    const verified = verifyOAuth1(
      {
        method: ex.method,
        baseUri: baseStringUri(ex.req, ex.pathname),
        header,
        pairs: [...parseFormPairs(ex.search), ...formPairs],
      },
      emu.auth,
      emu.clock,
      'access',
    );
    const userId = verified?.token?.user_id;
    if (userId === undefined || !emu.ledger.getUser(userId)) return undefined;
    return {
      userId,
      clientId: verified!.app.client_id,
      kind: 'oauth1',
      hint: verified!.token!.token.slice(-4),
    };
  }
  return undefined;
}

/**
 * GET /api/v3.0/test, the service's undocumented "who am I". The real one echoes the caller's
 * token in full; this one shows only its last four characters, because the answer is meant for
 * eyes and logs (debug output, request recorders) where a live credential should never appear,
 * and the caller already holds the token anyway.
 */
async function whoAmI(emu: Emulator, ex: Exchange): Promise<void> {
  const actor = authenticate(emu, ex, []);
  if (!actor) throw new HttpError(401, NOT_LOGGED_IN);
  ex.actorId = actor.userId;
  ex.op = 'test';
  const token =
    actor.kind === 'oauth1'
      ? { oauth_token: `…${actor.hint}`, token_type: 'oauth1' }
      : { access_token: `…${actor.hint}`, token_type: 'bearer' };
  await emu.durable();
  sendJson(ex.res, ex.startedAt, 200, {
    client_id: actor.clientId,
    token,
    request_url: `http://${ex.req.headers.host ?? 'localhost'}${ex.pathname}`,
    params: queryParams(ex.search),
  });
}
