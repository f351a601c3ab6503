/**
 * The workspace's one HTTP port: the Web API (`/api/<method>`), response_urls, private files,
 * the page's JSON API (`/workspace-api/`), Sign in with Slack's pages (`/openid/connect/`), the
 * install page (`/oauth/v2/authorize`) with their style sheet, the built page itself and the
 * icon of them all.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { handleUpload } from './api-files.js';
import { FAVICON_PATHS, serveFavicon } from './favicon.js';
import { PAGE_CSP, send } from './http-util.js';
import { PAGES_CSS, PAGES_CSS_PATH } from './oidc-page.js';
import { handleFile, handleResponseUrl } from './response-url.js';
import { hasBody, sameOriginRefusal } from './same-origin.js';
import type { WorkspaceState } from './state.js';
import type { WebApi } from './web-api.js';

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => Promise<boolean> | boolean;

const CONTENT_TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.map', 'application/json; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
]);

const MISSING_PAGE =
  'The workspace page is not built. Build it with npm run build (scripts/build-page.ts writes dist/page).';

async function servePage(res: ServerResponse, pageDir: string | undefined, file: string) {
  const candidates =
    file === 'index.html' || pageDir === undefined ? [file] : [join('assets', file), file];
  for (const candidate of candidates) {
    if (pageDir === undefined) break;
    try {
      const bytes = await readFile(join(pageDir, candidate));
      res.writeHead(200, {
        'content-type': CONTENT_TYPES.get(extname(file)) ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...(extname(file) === '.html' ? { 'content-security-policy': PAGE_CSP } : {}),
      });
      res.end(bytes);
      return;
    } catch {
      // Next candidate; the answer below covers a page that was never built.
    }
  }
  const status = file === 'index.html' ? 503 : 404;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(status === 503 ? MISSING_PAGE : 'Not found.');
}

export function createWorkspaceServer(
  state: WorkspaceState,
  api: WebApi,
  options: {
    /** The address the server is bound to: the page's API answers requests addressed to it. */
    host: string;
    pageDir?: string;
    pageApi?: RouteHandler;
    signIn?: RouteHandler;
    install?: RouteHandler;
  },
): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://workspace');
    const fail = (error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { ok: false, error: 'workspace_failure', detail: String(error) });
      else res.destroy();
    };
    const path = url.pathname;
    const apiMatch = /^\/api\/([A-Za-z0-9_.]+)$/.exec(path);
    const response = /^\/response\/([^/]+)$/.exec(path);
    const file = /^\/files\/([^/]+)\//.exec(path);
    const upload = /^\/upload\/v1\/([^/]+)\/([^/]+)$/.exec(path);
    const asset = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/.exec(path);
    if (apiMatch && (req.method === 'POST' || req.method === 'GET')) {
      api.handle(req, res, apiMatch[1]!, url.searchParams).catch(fail);
    } else if (response && req.method === 'POST') {
      handleResponseUrl(state, req, res, decodeURIComponent(response[1]!)).catch(fail);
    } else if (upload && req.method === 'POST') {
      handleUpload(state, req, res, upload[1]!, upload[2]!).catch(fail);
    } else if (file && req.method === 'GET') {
      handleFile(
        state,
        req,
        res,
        decodeURIComponent(file[1]!),
        /^\/files\/[^/]+\/thumb\//.test(path),
      );
    } else if (path.startsWith('/workspace-api/') && options.pageApi) {
      const refusal = sameOriginRefusal(req, options.host);
      if (refusal) {
        // The body is left unread: closing the connection spares reading it.
        send(
          res,
          refusal.status,
          { ok: false, error: refusal.error },
          hasBody(req) ? { connection: 'close' } : {},
        );
        return;
      }
      Promise.resolve(options.pageApi(req, res, url))
        .then((handled) => {
          if (!handled)
            send(res, 404, { ok: false, error: `No such endpoint: ${req.method} ${path}` });
        })
        .catch(fail);
    } else if (path.startsWith('/openid/connect/') && options.signIn) {
      Promise.resolve(options.signIn(req, res, url))
        .then((handled) => {
          if (!handled) send(res, 404, { ok: false, error: 'not_found' });
        })
        .catch(fail);
    } else if (path.startsWith('/oauth/v2/') && options.install) {
      Promise.resolve(options.install(req, res, url))
        .then((handled) => {
          if (!handled) send(res, 404, { ok: false, error: 'not_found' });
        })
        .catch(fail);
    } else if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      servePage(res, options.pageDir, 'index.html').catch(fail);
    } else if (req.method === 'GET' && path === PAGES_CSS_PATH) {
      res.writeHead(200, {
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      res.end(PAGES_CSS);
    } else if (req.method === 'GET' && asset) {
      servePage(res, options.pageDir, asset[1]!).catch(fail);
    } else if (req.method === 'GET' && FAVICON_PATHS.has(path)) {
      serveFavicon(res);
    } else {
      send(res, 404, { ok: false, error: 'not_found' });
    }
  });
}
