/**
 * `no group` books outside groups, even in a channel bound to one: the words the app offers in
 * each language (booking.no_group_words, beside a refusal to book into a group) are the words
 * the grammar reads.
 */
import { describe, expect, it } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { voices } from '../../support/voice-support.js';
import { ANN, ctx, parse } from './helpers.js';

const LOCALES = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', pt: 'pt-BR', ja: 'ja-JP' };

describe('no group', () => {
  it.each(Object.entries(LOCALES))('reads the words offered in %s', (language, locale) => {
    const none = voices[language as keyof typeof voices].t('booking.no_group_words');
    const bound = { ...ctx, locale, channelHasGroup: true };
    expect(parse(`40 lunch ${ANN} ${none}`, bound)).toMatchObject({
      kind: 'expense',
      expense: { noGroup: true, group: null, participants: [ME, 'U0ANN'], description: 'lunch' },
    });
  });

  it('needs people: alone in a bound channel it asks who shared it, as anywhere else', () => {
    const bound = { ...ctx, channelHasGroup: true };
    expect(parse('40 lunch', bound)).toMatchObject({ kind: 'expense' });
    expect(parse('40 lunch no group', bound)).toMatchObject({
      kind: 'error',
      message: 'Who shared it? Mention them with @ (type @ and pick from the list).',
    });
  });

  it('refuses a group named beside it', () => {
    expect(parse(`40 lunch ${ANN} in Trip no group`)).toMatchObject({
      kind: 'error',
      message: 'Name one group.',
    });
  });

  it('is not set when not typed', () => {
    expect(parse(`40 lunch ${ANN}`)).not.toHaveProperty('expense.noGroup');
  });
});
