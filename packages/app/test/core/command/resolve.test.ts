import { describe, expect, it } from 'vitest';
import { ME, resolveMe } from '../../../src/core/command/index.js';
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

describe('only myself', () => {
  it.each([['<@U0ME>'], ['me <@U0ME>'], ['<@U0ME> 40'], ['only <@U0ME>']])(
    'asks who shared it for 40 lunch %s, as for 40 lunch alone',
    (people) => {
      const parsed = parse(`40 lunch ${people}`, ctx);
      if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
      expect(readResolved(resolveMe(parsed.expense, 'U0ME'))).toEqual({
        error: 'Who shared it? Mention them with @ (type @ and pick from the list).',
      });
      expect(parse('40 lunch', ctx)).toMatchObject({
        kind: 'error',
        message: 'Who shared it? Mention them with @ (type @ and pick from the list).',
      });
    },
  );

  it('still books for me and someone else, or for someone else alone', () => {
    for (const text of [`40 lunch <@U0ME> ${ANN}`, `40 lunch ${ANN} except me`]) {
      const parsed = parse(text, ctx);
      if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
      expect(resolveMe(parsed.expense, 'U0ME')).not.toHaveProperty('problem');
    }
  });

  it.each([
    ['en-US', '@me'],
    ['en-US', '@myself'],
    ['de-DE', '@ich'],
    ['de-DE', '@mir'],
    ['fr-FR', '@moi'],
    ['es-ES', '@yo'],
    ['es-ES', '@mí'],
    ['pt-BR', '@eu'],
    ['pt-BR', '@mim'],
  ])('reads %s %s as me: alone it asks who shared it, with Ann it books', (locale, me) => {
    const mine = { ...ctx, locale };
    expect(parse(`40 ${me}`, mine)).toMatchObject({
      kind: 'error',
      message: 'Who shared it? Mention them with @ (type @ and pick from the list).',
    });
    expect(parse(`40 ${me} ${ANN}`, mine)).toMatchObject({
      kind: 'expense',
      expense: { participants: [ME, 'U0ANN'] },
    });
  });
});
