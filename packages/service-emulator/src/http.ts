import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import busboy from 'busboy';
import { emptyParams, type Params, type UploadedFile } from './types.js';

/** A request that must end with a specific status and body, thrown from deep inside a handler. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

/** The real service's error envelope for everything but 401. */
export function errorsBody(message: string): { errors: { base: string[] } } {
  return { errors: { base: [message] } };
}

export const NOT_FOUND = errorsBody('Invalid API Request: record not found');
export const NOT_LOGGED_IN = { error: 'Invalid API request: you are not logged in' };

/** Form and JSON bodies are small on the real service; receipts are images, so multipart gets more room. */
export const FORM_LIMIT_BYTES = 1024 * 1024;
export const MULTIPART_LIMIT_BYTES = 5 * 1024 * 1024;

export interface ParsedBody {
  params: Params;
  files: UploadedFile[];
  /**
   * Name/value pairs of a form-urlencoded body exactly as sent (duplicates kept): OAuth 1.0a
   * signs these, and only these, of all body kinds (RFC 5849).
   */
  formPairs: [string, string][];
}

const EMPTY_BODY: ParsedBody = { params: emptyParams(), files: [], formPairs: [] };

/**
 * How much of a refused body is still read, and thrown away, after the 413. A client usually
 * sends its whole body before it reads the answer; if the connection were closed with its data
 * unread, the kernel would reset it and the client would see a broken connection instead of the
 * 413. Bodies beyond this are not worth reading: their connection is closed after the answer.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const discarding = new WeakSet<IncomingMessage>();

/** Keeps reading a refused body to its end (or closes the connection past DRAIN_LIMIT_BYTES). */
function discardRest(req: IncomingMessage): void {
  if (discarding.has(req)) return;
  discarding.add(req);
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

/**
 * The 413 for a body over `limit`. What the client still has to send is read and discarded when
 * it is not much (see DRAIN_LIMIT_BYTES), else the connection closes after the answer.
 */
export function requestTooLarge(req: IncomingMessage, limit: number): HttpError {
  const body = errorsBody(
    `Request body is too large (the limit is ${Math.round(limit / 1024)} KB)`,
  );
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
    return new HttpError(413, body, { Connection: 'close' });
  }
  discardRest(req);
  return new HttpError(413, body);
}

/** The client went away before its body arrived; nothing is applied and nobody hears the answer. */
export function requestAborted(): HttpError {
  return new HttpError(400, errorsBody('The request body was not received completely'));
}

export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(requestTooLarge(req, limit));
  }
  // A stream destroyed before we listen never emits again: settle now instead of hanging.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed || req.readableAborted) return Promise.reject(requestAborted());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.off('data', onData);
        chunks.length = 0;
        reject(requestTooLarge(req, limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      reject(requestAborted());
    });
    req.on('close', () => {
      if (done) return;
      done = true;
      reject(requestAborted());
    });
  });
}

/**
 * How deeply JSON bodies may nest: Rails parses JSON with Ruby's parser, which refuses more than
 * 100 levels by default. Deeper input would also overflow the stack of anything that
 * walks it recursively (flattening, serialising an injected fault's body).
 */
export const MAX_JSON_DEPTH = 100;

function nestingExceeds(root: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) return true;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1 });
    }
  }
  return false;
}

/** Parses a JSON request body; a 400 in the service's envelope when malformed or too deep. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, errorsBody(`Malformed JSON in request body: ${detail}`));
  }
  if (nestingExceeds(value, MAX_JSON_DEPTH)) {
    throw new HttpError(
      400,
      errorsBody(`Malformed JSON in request body: nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
  }
  return value;
}

/** Percent-decoding as application/x-www-form-urlencoded defines it ('+' is a space). */
export function parseFormPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, value] of new URLSearchParams(text)) pairs.push([key, value]);
  return pairs;
}

function pairsToParams(pairs: Iterable<[string, string]>): Params {
  const params = emptyParams();
  for (const [key, value] of pairs) params[key] = value;
  return params;
}

function jsonScalar(value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/**
 * Turns a JSON body into the flat string parameters the service works with: scalars become
 * strings (numbers as written, booleans "true"/"false", null an empty value) and nested objects
 * and arrays are flattened with the service's double underscore, `users__0__user_id`.
 */
export function flattenJson(value: unknown, prefix = '', out: Params = emptyParams()): Params {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      flattenJson(item, prefix ? `${prefix}__${index}` : String(index), out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      flattenJson(item, prefix ? `${prefix}__${key}` : key, out);
    }
  } else if (prefix) {
    out[prefix] = jsonScalar(value);
  }
  return out;
}

function mediaType(req: IncomingMessage): string {
  const header = req.headers['content-type'];
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isFormBody(req: IncomingMessage): boolean {
  return mediaType(req) === 'application/x-www-form-urlencoded';
}

/**
 * Decodes a request body of any kind the service accepts: form-urlencoded (also when there is no
 * Content-Type at all, as Rack does), JSON, and multipart with files.
 */
export async function parseBody(req: IncomingMessage): Promise<ParsedBody> {
  const type = mediaType(req);
  if (type === 'multipart/form-data') return parseMultipart(req);
  if (type === 'application/json' || type.endsWith('+json')) {
    const raw = await readRaw(req, FORM_LIMIT_BYTES);
    const text = raw.toString('utf8').trim();
    if (text === '') return EMPTY_BODY;
    const value = parseJson(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new HttpError(400, errorsBody('Malformed JSON in request body: expected an object'));
    }
    return { params: flattenJson(value), files: [], formPairs: [] };
  }
  const raw = await readRaw(req, FORM_LIMIT_BYTES);
  if (raw.length === 0) return EMPTY_BODY;
  if (type === '' || type === 'application/x-www-form-urlencoded' || type === 'text/plain') {
    const formPairs = parseFormPairs(raw.toString('utf8'));
    return { params: pairsToParams(formPairs), files: [], formPairs };
  }
  throw new HttpError(415, errorsBody(`Unsupported Content-Type: ${type}`));
}

function parseMultipart(req: IncomingMessage): Promise<ParsedBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MULTIPART_LIMIT_BYTES) {
    return Promise.reject(requestTooLarge(req, MULTIPART_LIMIT_BYTES));
  }
  if (req.destroyed || req.readableAborted) return Promise.reject(requestAborted());
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MULTIPART_LIMIT_BYTES, fieldSize: FORM_LIMIT_BYTES, files: 10 },
        // Browsers and fetch send file names as raw UTF-8, not busboy's default latin1.
        defParamCharset: 'utf8',
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      reject(new HttpError(400, errorsBody(`Malformed multipart body: ${detail}`)));
      return;
    }
    const params = emptyParams();
    const files: UploadedFile[] = [];
    let total = 0;
    let failed = false;
    const fail = (error: HttpError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // Whatever the reason, the rest of the body is not wanted; the answer follows at once.
      if (error.status !== 413) discardRest(req);
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(requestTooLarge(req, FORM_LIMIT_BYTES));
      else params[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > MULTIPART_LIMIT_BYTES) {
          fail(requestTooLarge(req, MULTIPART_LIMIT_BYTES));
          stream.resume();
          return;
        }
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(requestTooLarge(req, MULTIPART_LIMIT_BYTES)));
      stream.on('end', () => {
        if (failed) return;
        files.push({
          field,
          filename: info.filename ?? '',
          contentType: info.mimeType,
          data: Buffer.concat(chunks),
        });
      });
    });
    parser.on('error', (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      fail(new HttpError(400, errorsBody(`Malformed multipart body: ${detail}`)));
    });
    let finished = false;
    parser.on('close', () => {
      finished = true;
      if (!failed) resolve({ params, files, formPairs: [] });
    });
    req.on('close', () => {
      if (!finished && !req.complete) fail(requestAborted());
    });
    req.pipe(parser);
  });
}

/** Headers every response of the real service carries. */
export function baseHeaders(startedAt: bigint): Record<string, string> {
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  return {
    'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate',
    'X-Request-Id': randomUUID(),
    'X-Runtime': seconds.toFixed(6),
  };
}

export function sendJson(
  res: ServerResponse,
  startedAt: bigint,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...baseHeaders(startedAt),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(
  res: ServerResponse,
  startedAt: bigint,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...baseHeaders(startedAt),
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    // The consent page must never be framed by another site (clickjacking on "Allow").
    'X-Frame-Options': 'DENY',
    // No form-action: browsers apply it to the redirect after "Allow", which leaves this origin.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    ...headers,
  });
  res.end(html);
}

export function sendForm(
  res: ServerResponse,
  startedAt: bigint,
  status: number,
  values: Record<string, string>,
): void {
  const text = new URLSearchParams(values).toString();
  res.writeHead(status, {
    ...baseHeaders(startedAt),
    'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function redirect(res: ServerResponse, startedAt: bigint, location: string): void {
  res.writeHead(302, { ...baseHeaders(startedAt), Location: location, 'Content-Length': 0 });
  res.end();
}

/** Request headers larger than this are refused with 431 (Node's own default, stated here). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Answers a request Node could not parse (the server's 'clientError'): headers over the limit,
 * a malformed request line, a request that took too long to arrive. Node's own answer has no
 * body; this one has the service's error envelope like every other refusal.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `Request headers are too large (the limit is ${MAX_HEADER_BYTES / 1024} KB)`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  const text = JSON.stringify(errorsBody(message));
  const headers = {
    ...baseHeaders(process.hrtime.bigint()),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${text}`);
}
