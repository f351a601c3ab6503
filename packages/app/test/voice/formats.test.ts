import { describe, expect, it } from 'vitest';
import { formatsFor } from '../../src/voice/formats.js';
import { formattingLocale, languageOf } from '../../src/voice/languages.js';

describe('languageOf', () => {
  it('gives each covered language its catalogue, any Portuguese the Brazilian one, and English otherwise', () => {
    expect(languageOf('de-DE')).toBe('de');
    expect(languageOf('de-AT')).toBe('de');
    expect(languageOf('fr-CA')).toBe('fr');
    expect(languageOf('es-419')).toBe('es');
    expect(languageOf('pt-BR')).toBe('pt-BR');
    expect(languageOf('pt-PT')).toBe('pt-BR');
    expect(languageOf('ja-JP')).toBe('ja');
    expect(languageOf('en-GB')).toBe('en');
    expect(languageOf('zh-CN')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
    expect(languageOf('')).toBe('en');
  });
});

describe('formattingLocale', () => {
  it('keeps a locale Intl knows, and falls back to en-US for none or a malformed one', () => {
    expect(formattingLocale('de-DE')).toBe('de-DE');
    expect(formattingLocale(undefined)).toBe('en-US');
    expect(formattingLocale('not a locale!')).toBe('en-US');
  });
});

/**
 * Node's releases ship different ICU data, which differ in the spaces they put inside a format
 * (a narrow no-break space before AM in one, a plain space in another): compared with spaces
 * made alike, so that the tests hold on every Node the app supports.
 */
const spaced = (text: string) => text.replace(/[\s\u00a0\u202f]/g, ' ');

describe('formatsFor', () => {
  const us = formatsFor('en-US', 'America/New_York');
  const de = formatsFor('de-DE', 'Europe/Berlin');
  const ja = formatsFor('ja-JP', 'Asia/Tokyo');

  it('writes amounts in the reader’s locale with the currency’s own decimals', () => {
    expect(spaced(us.money(4000, 'USD'))).toBe('$40.00');
    expect(spaced(de.money(4000, 'USD'))).toBe('40,00 $');
    expect(spaced(de.money(123456, 'EUR'))).toBe('1.234,56 €');
    expect(spaced(ja.money(1200, 'JPY'))).toBe('￥1,200');
    expect(spaced(us.money(-2050, 'EUR'))).toBe('-€20.50');
  });

  it('writes a calendar date as that day wherever the reader is', () => {
    expect(us.date('2026-11-27')).toBe('Fri, Nov 27, 2026');
    expect(de.date('2026-11-27')).toBe('Fr., 27. Nov. 2026');
    expect(ja.date('2026-11-27')).toBe('2026年11月27日(金)');
    // The start of an ISO timestamp is its calendar date, not the instant in some zone.
    expect(us.date('2026-11-27T23:30:00Z')).toBe('Fri, Nov 27, 2026');
    expect(us.date('someday')).toBe('someday');
    expect(us.day('2026-11-27')).toBe('Friday, November 27');
    expect(de.day('2026-11-27')).toBe('Freitag, 27. November');
  });

  it('writes instants in the reader’s own zone', () => {
    const instant = new Date('2026-11-27T13:05:00Z');
    expect(spaced(us.time(instant))).toBe('8:05 AM');
    expect(spaced(de.time(instant))).toBe('14:05');
    expect(spaced(ja.dateTime(instant))).toBe('2026年11月27日 22:05');
  });

  it('writes counts and lists the reader’s way', () => {
    expect(us.number(1234567)).toBe('1,234,567');
    expect(de.number(1234567)).toBe('1.234.567');
    expect(us.list(['Ann', 'Bob', 'Cho'])).toBe('Ann, Bob, and Cho');
    expect(de.list(['Ann', 'Bob', 'Cho'])).toBe('Ann, Bob und Cho');
  });
});
