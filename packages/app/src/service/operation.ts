/**
 * The vocabulary every operation of the service is declared in, once: its HTTP method, its path,
 * the parameters it takes and how each goes on the wire, the edition that introduced it, and how
 * its answer is read. The declarations live in `resources/`, `invoke.ts` runs them, and the
 * client's methods are one-line wrappers, so a fact about an operation has exactly one home.
 */
import {
  amount,
  nonNegativeInt,
  type Pairs,
  type PersonRef,
  put,
  putPerson,
  type WireScalar,
} from './encode.js';
import { ServiceInputException } from './errors.js';

/** The service's API editions: what an operation needs and what a client speaks. */
export type Edition = 1 | 2 | 3;

/** What encoders, checks and readers know about the call they serve. */
export interface CallContext {
  /** The client method, named in messages about the input: "createExpense". */
  operation: string;
  /** The wire operation, named in messages about the answer: "create_expense". */
  what: string;
  edition: Edition;
}

/** Writes one input value as zero or more wire pairs named after `name`; unset writes nothing. */
export type Encoder = (pairs: Pairs, name: string, value: unknown, ctx: CallContext) => void;

/** Turns a 2xx answer's body into what the client method resolves to. */
export type Reader<Out> = (body: unknown, ctx: CallContext) => Out;

interface ParamBase {
  /** How the value is written; a plain scalar by default. */
  encode?: Encoder;
  /** The first edition that knows the parameter; an older one refuses it when it is set. */
  since?: Edition;
}

/** A parameter taken from one input field, sent under the field's name unless `wire` differs. */
interface FieldParam<In> extends ParamBase {
  field: keyof In & string;
  /** The wire name, when not the field's; a function when editions spell it differently. */
  wire?: string | ((edition: Edition) => string);
  /** Refused locally when unset or empty, as the service would refuse it. */
  required?: boolean;
}

/** A parameter implied by the input as a whole rather than copied from one field. */
interface DerivedParam<In> extends ParamBase {
  wire: string;
  value: (input: In) => unknown;
}

export type Param<In> = FieldParam<In> | DerivedParam<In>;

export interface Operation<In, Out> {
  /** The client method that runs it, also named in edition errors: "createExpense". */
  name: string;
  method: 'GET' | 'POST';
  /** Below the API base; each `{field}` is that input field, encoded as a path segment. */
  path: string;
  /** The query of a GET or the form body of a POST, in wire order. */
  params?: ReadonlyArray<Param<In>>;
  /** The first edition that has the operation; every edition when absent. */
  since?: Edition;
  /** False for the reads that need no credential. */
  needsUser?: boolean;
  /** Rules across fields that no single parameter can check; runs before anything is encoded. */
  check?: (input: In, ctx: CallContext) => void;
  /** An update: refused locally when it would send no parameter and no file. */
  requireChange?: boolean;
  /** The input field holding a file path, sent as the multipart part of the same name. */
  file?: keyof In & string;
  read: Reader<Out>;
}

/** The input of an operation that takes none. */
export type NoInput = Record<never, never>;

// ---- encoders -------------------------------------------------------------------------------

export const scalar: Encoder = (pairs, name, value) => {
  put(pairs, name, value as WireScalar);
};

/** A decimal string with at most two decimals; anything else fails before sending. */
export const money: Encoder = (pairs, name, value, ctx) => {
  if (value === undefined) return;
  put(pairs, name, amount(`${ctx.operation}: ${name}`, value));
};

/** A whole number of at least zero (offsets, page sizes). */
export const count: Encoder = (pairs, name, value) => {
  if (value === undefined) return;
  put(pairs, name, nonNegativeInt(name, value as number, 0));
};

/** A value from a closed list the service documents; anything else fails before sending. */
export function oneOf(allowed: ReadonlyArray<string | number>): Encoder {
  const known = new Set<unknown>(allowed);
  return (pairs, name, value, ctx) => {
    if (value === undefined || value === null) return;
    if (!known.has(value)) {
      throw new ServiceInputException(
        `${ctx.operation}: ${name} must be one of ${allowed.join(', ')}, got ${String(value)}`,
      );
    }
    put(pairs, name, value as WireScalar);
  };
}

/** A list of people, flattened as `name__N__user_id` or `name__N__email` + names. */
export const people: Encoder = (pairs, name, value) => {
  if (value === undefined) return;
  (value as PersonRef[]).forEach((person, i) => {
    putPerson(pairs, `${name}__${i}`, person);
  });
};
