/**
 * A bare HTTP "app" on loopback that records exactly what the workspace sends (headers and raw
 * body) and answers as a test tells it, including late.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Form fields of a command, or the decoded interactivity payload / event envelope. */
  payload: Record<string, unknown>;
}

export interface Answer {
  status?: number;
  delayMs?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface RawApp {
  url: string;
  received: Received[];
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

function decode(body: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType === 'application/json') return JSON.parse(body) as Record<string, unknown>;
  const form = new URLSearchParams(body);
  const payload = form.get('payload');
  return payload ? (JSON.parse(payload) as Record<string, unknown>) : Object.fromEntries(form);
}

export async function startRawApp(): Promise<RawApp> {
  const app: RawApp = {
    url: '',
    received: [],
    answer: () => ({}),
    close: async () => undefined,
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const received = {
      headers: req.headers,
      body,
      payload: decode(body, req.headers['content-type']),
    };
    app.received.push(received);
    const answer = app.answer(received);
    const reply = () => {
      if (res.destroyed) return;
      if (answer.json !== undefined) {
        res.writeHead(answer.status ?? 200, {
          'content-type': 'application/json',
          ...answer.headers,
        });
        res.end(JSON.stringify(answer.json));
      } else {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.text ?? '');
      }
    };
    if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  app.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return app;
}

/** A Web API call as the app makes it: JSON body, bot token in the Authorization header. */
export async function callApi(
  apiUrl: string,
  token: string,
  method: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await response.json()) as Record<string, unknown>;
}
