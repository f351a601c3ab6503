/**
 * Small value schemas for what the app gets back from Slack: button values and private_metadata,
 * JSON we wrote ourselves but that anyone able to craft a request can change. Each schema reads
 * untrusted input without throwing and builds its result from the keys it declares only, so
 * unknown keys are dropped and `__proto__` or `constructor` in the JSON reach nothing.
 *
 * A validation library would do the same, but at idle it costs several MB and tens of ms of start
 * for five tiny shapes; this is the part of it we use.
 */

export type Result<T> = { ok: true; value: T } | { ok: false };

interface Schema<T> {
  /** Never throws: anything that is not a T is `{ ok: false }`. */
  safeParse(input: unknown): Result<T>;
  /** For values we build ourselves: a mismatch is a bug, so it throws (without the value). */
  parse(input: unknown): T;
  /**
   * JSON text that must hold a T (a button's value, which comes back from Slack as sent, or as
   * anyone forged it): the T, or undefined for text that is not JSON or not a T.
   */
  readJson(text: string | undefined): T | undefined;
}

/** Marks a key of `object()` that may be missing; only `optional()` makes one. */
interface OptionalSchema<T> extends Schema<T | undefined> {
  readonly optional: true;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

const FAIL: { ok: false } = Object.freeze({ ok: false });

function schema<T>(check: (input: unknown) => Result<T>): Schema<T> {
  const safeParse = (input: unknown): Result<T> => {
    try {
      return check(input);
    } catch {
      // A Proxy or a throwing getter handed in by code; JSON.parse output never gets here.
      return FAIL;
    }
  };
  return {
    safeParse,
    parse(input) {
      const result = safeParse(input);
      if (!result.ok) throw new TypeError('value does not match its schema');
      return result.value;
    },
    readJson(text) {
      if (text === undefined) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return undefined;
      }
      const result = safeParse(json);
      return result.ok ? result.value : undefined;
    },
  };
}

function test<T>(accept: (input: unknown) => input is T): Schema<T> {
  return schema((input) => (accept(input) ? { ok: true, value: input } : FAIL));
}

export function literal<const T extends string | number | boolean>(expected: T): Schema<T> {
  return test((input): input is T => input === expected);
}

/** One of a fixed list of strings or numbers. */
export function oneOf<const T extends readonly (string | number)[]>(allowed: T): Schema<T[number]> {
  const set = new Set<unknown>(allowed);
  return test((input): input is T[number] => set.has(input));
}

/** A safe integer (so ids and minor units survive JSON), within the given bounds. */
export function int(bounds: { min?: number; max?: number } = {}): Schema<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
  return test(
    (input): input is number =>
      Number.isSafeInteger(input) && (input as number) >= min && (input as number) <= max,
  );
}

/** A string of at most `max` UTF-16 code units (String#length), matching `regex` when given. */
export function string(rules: { max?: number; regex?: RegExp } = {}): Schema<string> {
  const { max = Number.POSITIVE_INFINITY } = rules;
  // A global or sticky RegExp remembers lastIndex between calls; a copy without them does not.
  const regex =
    rules.regex && new RegExp(rules.regex.source, rules.regex.flags.replace(/[gy]/g, ''));
  return test(
    (input): input is string =>
      typeof input === 'string' &&
      input.length <= max &&
      (regex === undefined || regex.test(input)),
  );
}

/** Undefined or a T; inside `object()`, a key that may be missing. */
export function optional<T>(inner: Schema<T>): OptionalSchema<T> {
  const base = schema<T | undefined>((input) =>
    input === undefined ? { ok: true, value: undefined } : inner.safeParse(input),
  );
  return { ...base, optional: true };
}

type Shape = Readonly<Record<string, Schema<unknown>>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends OptionalSchema<unknown> ? K : never;
}[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] };
type InferObject<S extends Shape> = Flatten<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
    [K in OptionalKeys<S>]?: Infer<S[K]>;
  }
>;

/**
 * A plain object (not an array) with the declared keys; other keys are dropped. Only own data
 * properties are read, so inherited values and getters never count as present.
 */
export function object<const S extends Shape>(shape: S): Schema<InferObject<S>> {
  const entries = Object.entries(shape);
  return schema((input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of entries) {
      const own = Object.getOwnPropertyDescriptor(input, key);
      const result = inner.safeParse(own !== undefined && 'value' in own ? own.value : undefined);
      if (!result.ok) return FAIL;
      if (result.value === undefined) continue;
      // defineProperty, not assignment: a declared key named __proto__ stays a plain key.
      Object.defineProperty(out, key, {
        value: result.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { ok: true, value: out as InferObject<S> };
  });
}
