/**
 * The page's API has no credentials of its own (the page acts as whoever it names), so what keeps
 * a web page elsewhere from acting in the workspace is the browser: a page on another site can
 * send a "simple" cross-site POST (a form, text/plain) without asking, and a DNS name rebound to
 * 127.0.0.1 makes its requests look same-origin to the browser. Neither passes here: the Host must
 * be this server's own address, an Origin (browsers send one with every cross-site write) must be
 * this server's, and a body must be JSON, which no cross-site page may send without a preflight
 * this server never grants.
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/** Bind addresses that mean "every interface": no name of their own to answer to. */
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** The Host header values that address this server: loopback names and the bound host, with the port. */
export function allowedHosts(bindHost: string, port: number): string[] {
  const bound = bindHost.toLowerCase();
  const names = new Set(LOOPBACK);
  if (!WILDCARDS.has(bound)) {
    names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  }
  const withPort = [...names].map((name) => `${name}:${port}`);
  // A browser leaves the default port out of Host.
  return port === 80 ? [...withPort, ...names] : withPort;
}

export interface Refusal {
  status: 403 | 415;
  error: string;
}

function isJson(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Whether a request carries a body (which a refusal leaves unread). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Why a request to the page's API is refused, or undefined when it may go on. */
export function sameOriginRefusal(req: IncomingMessage, bindHost: string): Refusal | undefined {
  const allowed = allowedHosts(bindHost, req.socket.localPort ?? 0);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.includes(host)) {
    return {
      status: 403,
      error: `The workspace answers only requests addressed to it (${allowed.join(', ')}), not to Host ${JSON.stringify(req.headers.host ?? '')}.`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
    return {
      status: 403,
      error: `The workspace refuses cross-origin requests: Origin ${JSON.stringify(origin)} is not http://${host}.`,
    };
  }
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const type = req.headers['content-type'];
  if ((type !== undefined || hasBody(req)) && !isJson(type ?? '')) {
    return {
      status: 415,
      error: `The workspace takes JSON only: send the body with Content-Type: application/json (got ${type === undefined ? 'none' : JSON.stringify(type)}).`,
    };
  }
  return undefined;
}

/**
 * Why a request may not sign a browser in (set the workspace's session cookie), or undefined when
 * it may. Being signed in decides who Sign in with Slack says the browser is, so a page elsewhere
 * that could sign the browser in as someone else (a login CSRF) would have the person link or
 * install as them unawares. Only a POST the browser itself marks as coming from this origin may:
 * `Sec-Fetch-Site: same-origin`, or else an `Origin` that is this server's; a request with
 * neither mark, or with a mark naming another site, is refused. A GET never signs anyone in.
 */
export function signInRefusal(req: IncomingMessage): Refusal | undefined {
  if (req.method !== 'POST') {
    return { status: 403, error: 'The workspace signs a browser in only with a POST.' };
  }
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const own = `http://${(req.headers.host ?? '').toLowerCase()}`;
  if (site !== undefined && site !== 'same-origin') {
    return {
      status: 403,
      error: `The workspace signs a browser in only from its own pages, not from Sec-Fetch-Site ${JSON.stringify(site)}.`,
    };
  }
  if (origin !== undefined && origin.toLowerCase() !== own) {
    return {
      status: 403,
      error: `The workspace signs a browser in only from its own pages: Origin ${JSON.stringify(origin)} is not ${own}.`,
    };
  }
  if (site === undefined && origin === undefined) {
    return {
      status: 403,
      error:
        'The workspace signs a browser in only from its own pages: the request carries neither Origin nor Sec-Fetch-Site.',
    };
  }
  return undefined;
}
