/**
 * How the parser refuses text: deep helpers `stop` with an error result, and `parseCommand` turns
 * it into its answer, so that no check has to thread a failure back through every caller. A
 * refusal carries an id and values (ProblemId in types.ts), never a sentence.
 */
import type { ErrorResult, ProblemId, ProblemValues, Trouble } from './types.js';

/**
 * Examples offered with refusals; each one parses (the tests check that). `@ann`, `@bob` and
 * `@cho` stand for people: the answer puts people the reader can mention in their place.
 */
export const EX = {
  basic: '/split 40 lunch @ann',
  exact: '/split 40 lunch @ann 25 @bob 15',
  percent: '/split 40 lunch @ann 60% @bob 40%',
  shares: '/split 40 lunch @ann 2x @bob 1x',
  date: '/split 40 lunch @ann on 2026-11-20',
  payer: '/split 40 lunch @ann paid by @bob',
  payers: '/split 60 dinner @ann paid by me 40 @bob 20',
  repeat: '/split 1200 rent @ann monthly',
  group: '/split 40 lunch in Roommates',
  sum: '/split 12.50+7.25 lunch @ann',
  tip: '/split 80 dinner @ann 30 @bob 25 +tip 15% +tax 8%',
  each: '/split $7 each coffee @ann @bob',
  team: '/split 60 team lunch @ann @bob @cho',
  currency: '/split €40 dinner @ann €25 @bob €15',
};

export function fail(
  id: ProblemId,
  values: ProblemValues = {},
  example: string = EX.basic,
): ErrorResult {
  return { kind: 'error', problem: { id, values, example } };
}

/** A trouble found by a helper (a number, a sum), refused with `example`. */
export function failWith(found: Trouble, example: string = EX.basic): ErrorResult {
  return { kind: 'error', problem: { ...found, example } };
}

export class ParseFailure extends Error {
  constructor(readonly result: ErrorResult) {
    super(result.problem.id);
  }
}

export function stop(id: ProblemId, values: ProblemValues = {}, example: string = EX.basic): never {
  throw new ParseFailure(fail(id, values, example));
}

export function stopWith(found: Trouble, example: string = EX.basic): never {
  throw new ParseFailure(failWith(found, example));
}

/** A trouble and its values, written compactly where the parser refuses. */
export function trouble(id: ProblemId, values: ProblemValues = {}): Trouble {
  return { id, values };
}
