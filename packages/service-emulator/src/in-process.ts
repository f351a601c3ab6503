/**
 * The emulator answering in the caller's own process, through a `fetch` function instead of a
 * port: the same request handler, ledger, OAuth endpoints and control plane as `startEmulator`,
 * with each request handed to the handler as an in-memory message rather than read from a socket.
 * A client given this `fetch` (a service client, the control-plane helpers) talks to it as it
 * would over HTTP, in a fraction of a millisecond, and no server listens: unit tests use it.
 *
 * What a socket would add is not modelled: a `drop` fault rejects the fetch as a reset connection
 * would, and a request's AbortSignal rejects it as fetch does; bodies are whole, never streamed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ControllableClock } from './clock.js';
import { createEmulator } from './index.js';
import type { Ledger } from './ledger.js';
import { createRequestListener } from './server.js';
import type { Clock } from './types.js';

export interface InProcessEmulator {
  /** The address requests are made to: `http://localhost`; nothing listens there. */
  url: string;
  /** A fetch that the emulator answers, for a client's `fetch` option. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  ledger: Ledger;
  clock: ControllableClock;
}

const URL_BASE = 'http://localhost';

function resetError(): TypeError {
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}

/** An emulator with its state in memory, answering through the `fetch` it returns. */
export async function inProcessEmulator(
  options: { clock?: Clock } = {},
): Promise<InProcessEmulator> {
  const { emu } = await createEmulator({ ...options, host: 'localhost' });
  emu.ledger.baseUrl = URL_BASE;
  const listener = createRequestListener(emu);

  const answer = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body.length > 0 || !['GET', 'HEAD'].includes(request.method)) {
      headers['content-length'] = String(body.length);
    }
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        request.signal.removeEventListener('abort', aborted);
        outcome();
      };
      const aborted = () => settle(() => reject(request.signal.reason));
      if (request.signal.aborted) return aborted();
      request.signal.addEventListener('abort', aborted);

      const req = Readable.from(body.length > 0 ? [body] : []) as unknown as IncomingMessage & {
        complete: boolean;
      };
      Object.assign(req, {
        method: request.method,
        url: `${url.pathname}${url.search}`,
        headers,
        complete: false,
        socket: {
          localPort: 80,
          remoteAddress: '127.0.0.1',
          destroy: () => {
            req.destroy();
            settle(() => reject(resetError()));
          },
        },
      });
      req.on('end', () => {
        req.complete = true;
      });

      const sent: { status: number; headers: Record<string, string | string[]> } = {
        status: 200,
        headers: {},
      };
      const res = {
        statusCode: 200,
        headersSent: false,
        destroyed: false,
        setHeader(name: string, value: string | string[]) {
          sent.headers[name.toLowerCase()] = value;
        },
        writeHead(status: number, more: Record<string, string | number | string[]> = {}) {
          sent.status = status;
          res.statusCode = status;
          res.headersSent = true;
          for (const [name, value] of Object.entries(more)) {
            sent.headers[name.toLowerCase()] = Array.isArray(value) ? value : String(value);
          }
          return res;
        },
        end(chunk?: string | Buffer) {
          if (!res.headersSent) res.writeHead(res.statusCode);
          const out = new Headers();
          for (const [name, value] of Object.entries(sent.headers)) {
            for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
          }
          const empty = sent.status === 204 || sent.status === 304 || request.method === 'HEAD';
          const payload = empty || chunk === undefined ? null : Buffer.from(chunk);
          settle(() => resolve(new Response(payload, { status: sent.status, headers: out })));
          return res;
        },
      };
      listener(req, res as unknown as ServerResponse);
    });
  };

  return {
    url: URL_BASE,
    fetch: (input, init) => answer(new Request(input, init)),
    ledger: emu.ledger,
    clock: emu.clock,
  };
}
