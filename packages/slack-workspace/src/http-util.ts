/** Small HTTP and argument helpers shared by the workspace's endpoints. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A Slack platform error: HTTP 200 with `ok:false`, the error string and any extra fields. */
export class SlackError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/** Form fields @slack/web-api JSON-stringifies; decoded so tests read objects. */
const JSON_FIELDS = new Set(['blocks', 'view', 'attachments', 'metadata', 'user_auth_blocks']);

export async function readBody(req: IncomingMessage, limit = 5_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Web API arguments from the query, a form or a JSON body; keys may be anything the caller sent. */
export function parseArgs(
  raw: string,
  contentType: string | undefined,
  query: URLSearchParams,
): Record<string, unknown> {
  const args: Record<string, unknown> = Object.create(null);
  for (const [key, value] of query) args[key] = value;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (raw !== '') {
    if (type === 'application/json') {
      Object.assign(args, JSON.parse(raw) as Record<string, unknown>);
    } else {
      for (const [key, value] of new URLSearchParams(raw)) args[key] = value;
    }
  }
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (JSON_FIELDS.has(key) && typeof value === 'string') {
      try {
        args[key] = JSON.parse(value);
      } catch {
        // Left as the string; the method reports invalid_arguments / invalid_blocks.
      }
    }
  }
  return args;
}

export function str(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (value === undefined || value === null || value === '') {
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: [`[ERROR] missing required field: ${name}`] },
    });
  }
  return String(value);
}

export function optionalStr(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * The Content-Security-Policy of every HTML page the workspace serves (the page, sign-in,
 * install): scripts and styles only from files on this origin, never inline, so text an app or a
 * person wrote that slips into the markup cannot run. Images may also come from https URLs, as
 * Block Kit image blocks name them. No form-action: the sign-in and install forms end in a
 * redirect to the app, which form-action would block.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "img-src 'self' data: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Answers JSON for objects and HTML (under PAGE_CSP) for strings. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const html = typeof body === 'string';
  const text = html ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': html ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    ...(html ? { 'content-security-policy': PAGE_CSP } : {}),
    ...headers,
  });
  res.end(text);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
