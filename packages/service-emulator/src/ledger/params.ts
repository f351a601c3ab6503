/**
 * Reading request parameters the way the service does: every value arrives as a string; ids,
 * booleans, dates and flattened `users__N__field` lists are decoded here, and a value of the wrong
 * type is refused with a 400 before anything is looked up or changed.
 */
import type { ApiResult, Params } from '../types.js';

/** Thrown inside an operation to answer at once; nothing has been mutated when it is thrown. */
export class Reply extends Error {
  constructor(readonly result: ApiResult) {
    super(`reply ${result.status}`);
  }
}

export const FORBIDDEN_TEXT =
  'Invalid API Request: you do not have permission to perform that action';
export const NOT_FOUND_TEXT = 'Invalid API Request: record not found';

export function errorsBase(status: number, ...messages: string[]): Reply {
  return new Reply({ status, body: { errors: { base: messages } } });
}
export const forbidden = (): Reply => errorsBase(403, FORBIDDEN_TEXT);
export const notFound = (): Reply => errorsBase(404, NOT_FOUND_TEXT);
export const badRequest = (message: string): Reply => errorsBase(400, message);

/** The 400 the service answers for a parameter it does not know on a write. */
export function rejectUnknown(params: Params, allowed: (key: string) => boolean): void {
  for (const key of Object.keys(params)) {
    if (!allowed(key)) throw badRequest(`Unrecognized parameter \`${key}\``);
  }
}

export function has(params: Params, key: string): boolean {
  return Object.hasOwn(params, key);
}

const INTEGER = /^-?\d{1,15}$/;

/** An integer parameter, or undefined when absent or empty; a 400 when it is not an integer. */
export function intParam(params: Params, key: string): number | undefined {
  const raw = params[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!INTEGER.test(raw.trim()))
    throw badRequest(`Invalid value for \`${key}\`: "${raw}" is not an integer`);
  return Number(raw.trim());
}

/** An id in a path segment: anything but a plain non-negative integer is an unknown record. */
export function pathIdOf(pathId: string | undefined): number {
  if (pathId === undefined || !/^\d{1,15}$/.test(pathId)) throw notFound();
  return Number(pathId);
}

/** true/false/1/0 in any case; empty is false; anything else is a client bug worth a 400. */
export function boolParam(params: Params, key: string): boolean | undefined {
  const raw = params[key];
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  throw badRequest(`Invalid value for \`${key}\`: "${raw}" is not a boolean (use true or false)`);
}

/** An ISO 8601 date or timestamp (date-only means midnight UTC); a 400 when unparseable. */
export function dateParam(params: Params, key: string): number | undefined {
  const raw = params[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const ms = parseDate(raw);
  if (ms === undefined)
    throw badRequest(`Invalid value for \`${key}\`: "${raw}" is not an ISO 8601 date`);
  return ms;
}

const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export function parseDate(raw: string): number | undefined {
  const text = raw.trim();
  if (!ISO.test(text)) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text);
  const ms = Date.parse(dateOnly ? `${text}T00:00:00Z` : hasZone ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Wire timestamp: ISO 8601 UTC, second precision, Z suffix. */
export function stamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Flattened lists: `users__0__user_id=1&users__0__paid_share=10` -> index -> field -> value. */
export function flattened(params: Params, prefix: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  const head = `${prefix}__`;
  for (const [key, value] of Object.entries(params)) {
    if (!key.startsWith(head)) continue;
    const match = /^(\d{1,6})__([a-z_]+)$/.exec(key.slice(head.length));
    if (!match) continue;
    const index = Number(match[1]);
    let row = out.get(index);
    if (!row) {
      row = Object.create(null) as Record<string, string>;
      out.set(index, row);
    }
    row[match[2]!] = value;
  }
  return new Map([...out.entries()].sort((a, b) => a[0] - b[0]));
}

/** Whether `key` is `prefix__N__field` with field among `fields`. */
export function isFlatKey(key: string, prefix: string, fields: ReadonlySet<string>): boolean {
  const match = /^([a-z_]+?)__(\d{1,6})__([a-z_]+)$/.exec(key);
  return match !== null && match[1] === prefix && fields.has(match[3]!);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text);
}
