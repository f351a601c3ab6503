/**
 * How the parser refuses text: deep helpers `stop` with an error result, and `parseCommand` turns
 * it into its answer, so that no check has to thread a failure back through every caller.
 */
import type { ErrorResult } from './types.js';

/** Examples offered with refusals; each one parses (the tests check that). */
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
};

export function fail(message: string, example: string = EX.basic): ErrorResult {
  return { kind: 'error', message, example };
}

export class ParseFailure extends Error {
  constructor(readonly result: ErrorResult) {
    super(result.message);
  }
}

export function stop(message: string, example: string = EX.basic): never {
  throw new ParseFailure(fail(message, example));
}
