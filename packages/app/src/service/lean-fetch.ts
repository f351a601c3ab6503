/**
 * A `fetch` for the app's own API calls (the service's REST API and Slack's Web API), over
 * node:http(s) with kept-alive connections.
 *
 * Node's global fetch builds web streams, an AbortController and a Request for every call: on a
 * small JSON call it costs two to three times the CPU of node:http, and the daily DM makes four
 * such calls per person, which made HTTP the largest part of a replica's CPU per DM. This one
 * buffers the answer and hands back a Response read from the buffer (see bufferedResponse).
 *
 * What it does as fetch does: the default headers that matter to a server (`accept`,
 * `user-agent` and `accept-encoding` as Node's fetch sends them, compressed answers decoded), a
 * string body's `text/plain;charset=UTF-8` when no content type is given, `content-length: 0` on
 * a POST without a body, redirects (`follow`, at most 20, with fetch's method changes, and
 * `Authorization` dropped when the origin changes; `error` rejects; `manual` returns the 3xx),
 * the abort signal (rejecting with its reason, before or during the call), and network failures
 * as a `TypeError('fetch failed')` whose `cause` carries the socket error's `code`. A body other
 * than a string (a form with a file, a stream) or a URL other than http(s) goes to the global
 * fetch.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { FetchLike } from './request.js';

export interface LeanFetch extends FetchLike {
  /** Closes the kept-alive connections. */
  close(): void;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** As long as undici keeps an idle connection, so that a server's own idle close is not raced. */
const IDLE_MS = 4_000;

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** Lower-cased header names to values, from any HeadersInit. */
function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!init) return out;
  if (init instanceof Headers || Array.isArray(init)) {
    new Headers(init).forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(init)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : String(value);
  }
  return out;
}

function decode(encoding: string | undefined, body: Buffer): Promise<Buffer> {
  const coding = encoding?.trim().toLowerCase();
  const inflate =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.gunzip
      : coding === 'deflate'
        ? zlib.inflate
        : coding === 'br'
          ? zlib.brotliDecompress
          : undefined;
  if (!inflate || body.length === 0) return Promise.resolve(body);
  return new Promise((resolve, reject) => {
    inflate(body, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const utf8 = new TextDecoder();

/**
 * A Response whose body is already in memory. `new Response(bytes)` wraps the bytes in a web
 * stream, which costs several times what reading them does; this one reads `text`, `json` and
 * `arrayBuffer` straight from the bytes (UTF-8 with a leading BOM dropped, once only, as a
 * Response does), and makes a plain Response of them only when asked for anything else (`body`,
 * `blob`, `formData`, `clone`), which then answers for the body from there on.
 */
function bufferedResponse(
  bytes: Buffer | null,
  init: ResponseInit,
  url: string,
  redirected: boolean,
): Response {
  const response = new Response(null, init);
  let used = false;
  let plain: Response | undefined;
  /** The same body as a plain Response; undefined once the body was read here. */
  const asPlain = () => {
    if (plain === undefined && !used) plain = new Response(bytes, init);
    return plain;
  };
  const whole = () => {
    const found = asPlain();
    if (found) return found;
    throw new TypeError('Body is unusable: Body has already been read');
  };
  const take = () => {
    // A Response without a body reads as empty every time, as fetch's does.
    if (bytes === null) return Buffer.alloc(0);
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return bytes ?? Buffer.alloc(0);
  };
  const methods: Pick<Response, 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData' | 'clone'> = {
    text: async () => (plain ? plain.text() : utf8.decode(take())),
    json: async () => (plain ? plain.json() : JSON.parse(utf8.decode(take()))),
    arrayBuffer: async () => {
      if (plain) return plain.arrayBuffer();
      const read = take();
      const copy = new ArrayBuffer(read.length);
      new Uint8Array(copy).set(read);
      return copy;
    },
    blob: async () => whole().blob(),
    formData: async () => whole().formData(),
    clone: () => {
      const copy = whole().clone();
      Object.defineProperties(copy, { url: { value: url }, redirected: { value: redirected } });
      return copy;
    },
  };
  Object.defineProperties(response, {
    url: { value: url },
    redirected: { value: redirected },
    body: { get: () => asPlain()?.body ?? null },
    bodyUsed: { get: () => plain?.bodyUsed ?? used },
  });
  return Object.assign(response, methods);
}

interface Sent {
  status: number;
  statusText: string;
  rawHeaders: string[];
  location: string | undefined;
  body: Buffer;
}

export interface LeanFetchOptions {
  /**
   * Certificates to trust for https instead of Node's bundle (a private CA; the tests' own
   * throwaway one). Node's NODE_EXTRA_CA_CERTS applies as well when this is not given.
   */
  ca?: string | Buffer;
}

export function createLeanFetch(settings: LeanFetchOptions = {}): LeanFetch {
  const options = { keepAlive: true, timeout: IDLE_MS };
  const agents = {
    'http:': new http.Agent(options),
    'https:': new https.Agent({ ...options, ...(settings.ca ? { ca: settings.ca } : {}) }),
  };

  function once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Sent> {
    return new Promise((resolve, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => {
        fail(signal?.reason);
        request.destroy();
      };
      const request = transport.request(
        url,
        { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) => fail(fetchFailed(error)));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const raw = Buffer.concat(chunks);
            const coding = response.headers['content-encoding'];
            decode(method === 'HEAD' ? undefined : coding, raw).then(
              (decoded) => {
                if (settled) return;
                settled = true;
                signal?.removeEventListener('abort', onAbort);
                resolve({
                  status,
                  statusText: response.statusMessage ?? '',
                  rawHeaders: response.rawHeaders,
                  location: response.headers.location,
                  body: decoded,
                });
              },
              (error: unknown) => fail(fetchFailed(error)),
            );
          });
        },
      );
      request.on('error', (error) => fail(signal?.aborted ? signal.reason : fetchFailed(error)));
      signal?.addEventListener('abort', onAbort, { once: true });
      request.end(body);
    });
  }

  const leanFetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input);
    const body = init.body;
    if (
      (body !== undefined && body !== null && typeof body !== 'string') ||
      (url.protocol !== 'http:' && url.protocol !== 'https:')
    ) {
      return fetch(input, init);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    let method = (init.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers);
    headers.accept ??= '*/*';
    headers['user-agent'] ??= 'node';
    headers['accept-encoding'] ??= 'gzip, deflate';
    let payload = typeof body === 'string' ? body : undefined;
    if (payload !== undefined) headers['content-type'] ??= 'text/plain;charset=UTF-8';
    for (let redirects = 0; ; redirects++) {
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      else if (method !== 'GET' && method !== 'HEAD') headers['content-length'] = '0';
      const sent = await once(url, method, headers, payload, signal);
      const redirect = init.redirect ?? 'follow';
      if (
        REDIRECT_STATUSES.has(sent.status) &&
        sent.location !== undefined &&
        redirect !== 'manual'
      ) {
        if (redirect === 'error') throw fetchFailed(new Error('unexpected redirect'));
        if (redirects >= MAX_REDIRECTS) throw fetchFailed(new Error('redirect count exceeded'));
        const next = new URL(sent.location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw fetchFailed(new Error('URL scheme must be a HTTP(S) scheme'));
        }
        if (sent.status === 303 ? method !== 'HEAD' : method === 'POST' && sent.status <= 302) {
          method = 'GET';
          payload = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        if (next.origin !== url.origin) delete headers.authorization;
        url = next;
        continue;
      }
      if (sent.status < 200 || sent.status > 599) {
        throw fetchFailed(new Error(`status ${sent.status} is not one fetch answers with`));
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < sent.rawHeaders.length; i += 2) {
        responseHeaders.append(sent.rawHeaders[i]!, sent.rawHeaders[i + 1]!);
      }
      return bufferedResponse(
        NULL_BODY_STATUSES.has(sent.status) || method === 'HEAD' ? null : sent.body,
        { status: sent.status, statusText: sent.statusText, headers: responseHeaders },
        url.href,
        redirects > 0,
      );
    }
  };
  return Object.assign(leanFetch, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
