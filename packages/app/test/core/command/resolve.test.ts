import { describe, expect, it } from 'vitest';
import { resolveMe } from '../../../src/core/command/index.js';
import { ANN, BOB, ctx, parse, readResolved } from './helpers.js';

describe('resolveMe', () => {
  it('puts the caller in place of ME and merges a self-mention', () => {
    const parsed = parse(`40 lunch ${ANN} 10 <@U0ME> ${BOB}`, ctx);
    if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
    expect(resolveMe(parsed.expense, 'U0ME')).toEqual({
      ...parsed.expense,
      participants: ['U0ME', 'U0ANN', 'U0BOB'],
      payer: 'U0ME',
    });
  });

  it('refuses two values for the caller', () => {
    const parsed = parse(`40 lunch me 10 <@U0ME> 10 ${ANN}`, ctx);
    if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
    expect(readResolved(resolveMe(parsed.expense, 'U0ME'))).toEqual({
      error: 'You gave yourself two values.',
    });
  });
});
