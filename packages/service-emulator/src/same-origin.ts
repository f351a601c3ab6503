/**
 * The control plane has no credentials, so what keeps a web page the developer happens to visit
 * from driving it is the browser: a page elsewhere can send a "simple" cross-site POST (a form,
 * text/plain) without asking, and a DNS name rebound to 127.0.0.1 makes its requests look
 * same-origin to the browser. Neither passes here: the Host must be this server's own address, an
 * Origin (browsers send one with every cross-site write) must be this server's, and a body must be
 * JSON, which no cross-site page may send without a preflight this server never grants.
 */
import type { IncomingMessage } from 'node:http';
import { errorsBody, HttpError } from './http.js';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/** Bind addresses that mean "every interface": no name of their own to answer to. */
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** The Host header values that address this server: loopback names and the bound host, with the port. */
export function allowedHosts(bindHost: string, port: number): string[] {
  const bound = bindHost.toLowerCase();
  const names = new Set(LOOPBACK);
  if (!WILDCARDS.has(bound))
    names.add(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound);
  const withPort = [...names].map((name) => `${name}:${port}`);
  // A browser leaves the default port out of Host.
  return port === 80 ? [...withPort, ...names] : withPort;
}

function isJson(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Why a control-plane request is refused (403 or 415), or undefined when it may go on. */
export function sameOriginRefusal(req: IncomingMessage, bindHost: string): HttpError | undefined {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  // A refused body is never read: closing the connection spares reading it.
  const refuse = (status: number, message: string) =>
    new HttpError(status, errorsBody(message), hasBody ? { Connection: 'close' } : {});
  const allowed = allowedHosts(bindHost, req.socket.localPort ?? 0);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.includes(host)) {
    return refuse(
      403,
      `The control plane answers only requests addressed to this server (${allowed.join(', ')}), not to Host ${JSON.stringify(req.headers.host ?? '')}`,
    );
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
    return refuse(
      403,
      `The control plane refuses cross-origin requests: Origin ${JSON.stringify(origin)} is not http://${host}`,
    );
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return undefined;
  const type = req.headers['content-type'];
  if ((type !== undefined || hasBody) && !isJson(type ?? '')) {
    return refuse(
      415,
      `The control plane takes JSON only: send the body with Content-Type: application/json (got ${type === undefined ? 'none' : JSON.stringify(type)})`,
    );
  }
  return undefined;
}
