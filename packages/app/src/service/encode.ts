/**
 * What goes on the wire: every value a string, booleans as `true`/`false`, unset fields left out,
 * lists of people flattened as `users__N__field` (the service does not read nested parameters).
 */
import { MoneyError, parseMinor, WIRE_MAX_DECIMALS } from '../core/money.js';
import { ServiceInputException } from './errors.js';
import { percentEncode } from './oauth1.js';

/** A person on an expense or in a group: an existing user by id, or anyone by e-mail and name. */
export type PersonRef =
  | { user_id: number }
  | { email: string; first_name: string; last_name?: string | null };

/** Ordered name/value pairs: the body or query of one request. */
export type Pairs = Array<[string, string]>;

export type WireScalar = string | number | boolean | Date | null | undefined;

/** Adds `name=value` unless the value is unset; formats booleans, numbers and dates. */
export function put(pairs: Pairs, name: string, value: WireScalar): void {
  if (value === undefined || value === null) return;
  pairs.push([name, scalar(name, value)]);
}

function scalar(name: string, value: Exclude<WireScalar, null | undefined>): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime()))
      throw new ServiceInputException(`${name} is not a valid date`);
    return value.toISOString();
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ServiceInputException(`${name} must be a finite number`);
    return String(value);
  }
  return value;
}

/** Checks a money amount is a plain decimal string with at most two decimals, as the wire needs. */
export function amount(name: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new ServiceInputException(`${name} must be a decimal string such as "12.50"`);
  }
  try {
    parseMinor(value, WIRE_MAX_DECIMALS);
  } catch (error) {
    const why = error instanceof MoneyError ? error.message : String(error);
    throw new ServiceInputException(
      `${name}: ${why} (the service takes at most 2 decimals, "." as separator)`,
    );
  }
  return value.trim();
}

/** Adds a person as `prefix__field` pairs: user_id, or email + first_name (+ last_name). */
export function putPerson(
  pairs: Pairs,
  prefix: string,
  person: PersonRef,
  idKey = 'user_id',
): void {
  const p = person as Partial<{
    user_id: number;
    email: string;
    first_name: string;
    last_name: string | null;
  }>;
  if (p.user_id !== undefined && p.user_id !== null) {
    if (!Number.isSafeInteger(p.user_id)) {
      throw new ServiceInputException(`${prefix}: user_id must be an integer`);
    }
    put(pairs, `${prefix}__${idKey}`, p.user_id);
    return;
  }
  if (!p.email || !p.first_name) {
    throw new ServiceInputException(
      `${prefix}: a person needs a user_id, or an email and a first_name`,
    );
  }
  put(pairs, `${prefix}__email`, p.email);
  put(pairs, `${prefix}__first_name`, p.first_name);
  put(pairs, `${prefix}__last_name`, p.last_name);
}

/** application/x-www-form-urlencoded, RFC 3986 style (spaces as %20), in the given order. */
export function formEncode(pairs: Pairs): string {
  return pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
}

/** A count or an option that must be a whole number of at least zero; `fallback` when unset. */
export function nonNegativeInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ServiceInputException(`${name} must be a non-negative integer`);
  }
  return value;
}

/** A path segment: ids are integers, and whatever comes is encoded. */
export function segment(name: string, id: number | string): string {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) {
    throw new ServiceInputException(`${name} must be an integer, got ${id}`);
  }
  return encodeURIComponent(String(id));
}
