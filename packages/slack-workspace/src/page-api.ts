/**
 * The page's JSON API under /workspace-api/: the state seen by one person, a stream of versions,
 * signing the browser in as that person (a same-origin POST, for Sign in with Slack), and what
 * that person does (turned into signed requests to the app by interactions.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_UPLOAD_BYTES } from './api-files.js';
import { sendFile } from './file-response.js';
import { isObject, readBody, send } from './http-util.js';
import {
  type AttachedFile,
  type Container,
  type Interactions,
  PageError,
  type ViewValues,
} from './interactions.js';
import { type Oidc, sessionCookie } from './oidc.js';
import { pageState, people } from './page-state.js';
import { pageWorkflows, workflowRoutes } from './page-workflows.js';
import { signInRefusal } from './same-origin.js';
import type { RouteHandler } from './server.js';
import type { WorkspaceState } from './state.js';
import type { AppFacts, Controls } from './types.js';
import type { Workflows } from './workflows.js';

const PREFIX = '/workspace-api/';

function text(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new PageError(`"${name}" is required.`);
  return value;
}

function optionalText(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new PageError(`"${name}" must be a string.`);
  return value;
}

function container(value: unknown): Container {
  if (isObject(value) && value.type === 'message') {
    const unfurl = optionalText(value, 'unfurl_url');
    return {
      type: 'message',
      channel: text(value, 'channel'),
      ts: text(value, 'ts'),
      ...(unfurl ? { unfurl_url: unfurl } : {}),
    };
  }
  if (isObject(value) && value.type === 'view')
    return { type: 'view', view_id: text(value, 'view_id') };
  throw new PageError(
    '"container" must be a message (channel, ts, and unfurl_url in a link preview) or a view (view_id).',
  );
}

function values(value: unknown): ViewValues {
  if (value === undefined) return {};
  if (!isObject(value)) throw new PageError('"values" must be view.state.values.');
  return value as ViewValues;
}

/** A file attached in the composer: its name, type and bytes in base64. */
function attachedFile(value: unknown): AttachedFile | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || typeof value.content_base64 !== 'string')
    throw new PageError('"file" must have a name, a mimetype and content_base64.');
  return {
    name: text(value, 'name'),
    mimetype: optionalText(value, 'mimetype') ?? 'application/octet-stream',
    content: Buffer.from(value.content_base64, 'base64'),
  };
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  // A message may carry an attached file, in base64 (a third more than its bytes).
  const raw = await readBody(req, Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 100_000);
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new PageError('The request body is not JSON.');
  }
  if (!isObject(parsed)) throw new PageError('The request body must be a JSON object.');
  return parsed;
}

/** Server-sent events: one `{"version":N}` now and after every change, coalesced per tick. */
function stream(state: WorkspaceState, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const write = (version: number) => res.write(`data: ${JSON.stringify({ version })}\n\n`);
  res.write('retry: 1000\n\n');
  write(state.version);
  let queued = false;
  const unsubscribe = state.onChange(() => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (!res.destroyed) write(state.version);
    });
  });
  // A comment now and then keeps proxies and browsers from dropping an idle stream.
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  const stop = () => {
    clearInterval(keepAlive);
    unsubscribe();
  };
  req.on('close', stop);
  res.on('close', stop);
}

export function createPageApi(
  state: WorkspaceState,
  act: Interactions,
  app: () => AppFacts,
  controls: Controls,
  oidc?: Oidc,
  workflows?: Workflows,
): RouteHandler {
  const acting = (as: string | null | undefined): string => {
    const humans = people(state);
    if (as === undefined || as === null || as === '') {
      const first = humans[0];
      if (!first) throw new PageError('This workspace has nobody in it yet.');
      return first.id;
    }
    if (!humans.some((u) => u.id === as))
      throw new PageError(`There is no person ${JSON.stringify(as)} in this workspace.`);
    return as;
  };

  const routes = new Map<string, (body: Record<string, unknown>) => Promise<unknown>>([
    [
      'message',
      async (body) => {
        const thread = optionalText(body, 'thread_ts');
        const file = attachedFile(body.file);
        await act.message({
          as: text(body, 'as'),
          channel: text(body, 'channel'),
          text: file ? (optionalText(body, 'text') ?? '') : text(body, 'text'),
          ...(thread ? { thread_ts: thread } : {}),
          ...(file ? { file } : {}),
        });
        return {};
      },
    ],
    [
      'message-edit',
      async (body) => {
        await act.editMessage({
          as: text(body, 'as'),
          channel: text(body, 'channel'),
          ts: text(body, 'ts'),
          text: text(body, 'text'),
        });
        return {};
      },
    ],
    [
      'message-delete',
      async (body) => {
        await act.deleteMessage({
          as: text(body, 'as'),
          channel: text(body, 'channel'),
          ts: text(body, 'ts'),
        });
        return {};
      },
    ],
    [
      'locale',
      async (body) => {
        await act.setLocale({ as: text(body, 'as'), locale: text(body, 'locale') });
        return {};
      },
    ],
    [
      'action',
      async (body) => {
        if (!isObject(body.action) || typeof body.action.action_id !== 'string')
          throw new PageError('"action" must be a block action with an action_id.');
        await act.action({
          as: text(body, 'as'),
          container: container(body.container),
          action: body.action,
          ...(body.state !== undefined ? { state: values(body.state) } : {}),
        });
        return {};
      },
    ],
    [
      'options',
      (body) =>
        act.options({
          as: text(body, 'as'),
          container: container(body.container),
          action_id: text(body, 'action_id'),
          block_id: text(body, 'block_id'),
          value: typeof body.value === 'string' ? body.value : '',
        }),
    ],
    [
      'view-submit',
      (body) =>
        act.submitView({
          as: text(body, 'as'),
          view_id: text(body, 'view_id'),
          values: values(body.values),
        }),
    ],
    [
      'view-close',
      async (body) => {
        await act.closeView({ as: text(body, 'as'), view_id: text(body, 'view_id') });
        return {};
      },
    ],
    [
      'shortcut',
      async (body) => {
        const channel = optionalText(body, 'channel');
        const ts = optionalText(body, 'ts');
        await act.shortcut({
          as: text(body, 'as'),
          callback_id: text(body, 'callback_id'),
          ...(channel ? { channel } : {}),
          ...(ts ? { ts } : {}),
        });
        return {};
      },
    ],
    ...(workflows
      ? workflowRoutes(workflows, (as) => acting(typeof as === 'string' ? as : undefined))
      : []),
    [
      'home-opened',
      async (body) => {
        const tab = body.tab === 'messages' ? 'messages' : 'home';
        await act.homeOpened({ as: text(body, 'as'), tab });
        return {};
      },
    ],
  ]);

  async function control(res: ServerResponse, name: 'digest' | 'reset'): Promise<void> {
    const run = controls[name];
    if (!run) {
      send(res, 404, { ok: false, error: `This workspace has no ${name} control.` });
      return;
    }
    try {
      const sent = await run();
      state.changed();
      // The page says what the digest did: how many DMs it sent.
      send(res, 200, { ok: true, ...(typeof sent === 'number' ? { sent } : {}) });
    } catch {
      // The sandbox's own error may carry configuration; the page gets a plain sentence.
      send(res, 500, { ok: false, error: `The ${name} control failed; see the sandbox's log.` });
    }
  }

  return async (req, res, url) => {
    const path = url.pathname.slice(PREFIX.length);
    try {
      if (req.method === 'GET' && path === 'state') {
        const as = acting(url.searchParams.get('as'));
        // Whether this browser is signed in as the acting person: when it is not, the page
        // signs it in with a POST (below). Reading never signs anyone in.
        const signed = oidc ? { signed_in: oidc.session(req.headers.cookie)?.user.id === as } : {};
        send(res, 200, {
          ok: true,
          ...pageState(state, app(), controls, as),
          workflows: pageWorkflows(workflows),
          ...signed,
        });
        return true;
      }
      if (path === 'sign-in' && oidc) {
        // The page's acting person is who is signed in to the workspace in this browser, as
        // Sign in with Slack sees it: a new person gets a new session cookie.
        const refusal = signInRefusal(req);
        if (refusal) {
          send(res, refusal.status, { ok: false, error: refusal.error });
          return true;
        }
        const as = acting(text(await jsonBody(req), 'as'));
        const headers: Record<string, string> = {};
        if (oidc.session(req.headers.cookie)?.user.id !== as) {
          headers['set-cookie'] = sessionCookie(oidc.signIn(as));
        }
        send(res, 200, { ok: true }, headers);
        return true;
      }
      if (req.method === 'GET' && path === 'events') {
        stream(state, req, res);
        return true;
      }
      const file = /^files\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && file) {
        const stored = state.files.get(decodeURIComponent(file[1]!));
        if (!stored) throw new PageError('There is no such file.');
        sendFile(res, stored);
        return true;
      }
      if (req.method !== 'POST') return false;
      if (path === 'control/digest' || path === 'control/reset') {
        await control(res, path === 'control/digest' ? 'digest' : 'reset');
        return true;
      }
      const route = routes.get(path);
      if (!route) return false;
      const result = await route(await jsonBody(req));
      send(res, 200, { ok: true, ...(isObject(result) ? result : {}) });
      return true;
    } catch (error) {
      if (error instanceof PageError) send(res, 400, { ok: false, error: error.message });
      else send(res, 500, { ok: false, error: 'The workspace failed to handle that request.' });
      return true;
    }
  };
}
