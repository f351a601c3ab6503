/**
 * How the workspace answers a request for a stored file. The bytes and their declared type come
 * from whoever uploaded them, and they are served from the page's own origin: a file taken at its
 * word could be an HTML page that runs script with the page's rights. So every file is a download
 * under its own name, except an image whose bytes really are one, which may show inline; the
 * browser is told not to guess types, and a file opened anyway runs nothing.
 */
import type { ServerResponse } from 'node:http';
import type { StoredFile } from './types.js';

/** Types a browser shows without running anything; anything else is sent as plain bytes. */
const PASSIVE_TYPES = new Set([
  'text/csv',
  'text/plain',
  'application/json',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
]);

function startsWith(bytes: Buffer, prefix: string, at = 0): boolean {
  return bytes.subarray(at, at + prefix.length).equals(Buffer.from(prefix, 'latin1'));
}

/**
 * The image type the bytes' signature shows (PNG, JPEG, GIF or WebP), undefined for anything
 * else. SVG is left out on purpose: it is a document that can carry script.
 */
export function imageTypeOf(bytes: Buffer): string | undefined {
  if (startsWith(bytes, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (startsWith(bytes, '\xff\xd8\xff')) return 'image/jpeg';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'image/gif';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'image/webp';
  return undefined;
}

/** Characters RFC 5987 lets stand unencoded in an extended parameter value. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

function extendedValue(name: string): string {
  let out = "UTF-8''";
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A Content-Disposition header (RFC 6266): `filename` in printable ASCII for every browser, and
 * `filename*` in UTF-8 (RFC 5987) when the name needs more than that fallback can hold.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  // A quote or backslash would need escaping that browsers read differently, and a percent sign
  // is decoded by some of them: the fallback goes without.
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const base = `${kind}; filename="${fallback}"`;
  return fallback === name ? base : `${base}; filename*=${extendedValue(name)}`;
}

/** The headers a stored file is served with. */
export function fileHeaders(file: StoredFile): Record<string, string> {
  const image = imageTypeOf(file.content);
  const declared = file.mimetype.split(';')[0]!.trim().toLowerCase();
  return {
    'content-type': image ?? (PASSIVE_TYPES.has(declared) ? declared : 'application/octet-stream'),
    'content-length': String(file.content.length),
    'content-disposition': contentDisposition(image ? 'inline' : 'attachment', file.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-cache',
  };
}

export function sendFile(res: ServerResponse, file: StoredFile): void {
  res.writeHead(200, fileHeaders(file));
  res.end(file.content);
}
