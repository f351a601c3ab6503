/**
 * How the parser refuses text: a step that finds something it cannot accept returns an error
 * result in place of its value, and each caller hands it up as it is (`if (refused(x)) return
 * x;`) until it is parseCommand's answer. Nothing is thrown: the first refusal met, in the order
 * the grammar reads, is the answer. A refusal carries an id and values (ProblemId in types.ts),
 * never a sentence.
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

/**
 * True when a step refused: what it returned is the error result to hand up. No value a step
 * returns otherwise is an object of kind `error`.
 */
export function refused<T>(value: T | ErrorResult): value is ErrorResult {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'error'
  );
}

/** A trouble and its values, written compactly where the parser refuses. */
export function trouble(id: ProblemId, values: ProblemValues = {}): Trouble {
  return { id, values };
}
