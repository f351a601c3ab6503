/**
 * Every process-wide cache keyed by what a person, a profile or a request carries stays within its
 * cap, however many distinct keys come: each is driven through the function that fills it with
 * many times its capacity of distinct values (locale tags, zone spellings, currency codes), as a
 * flood of requests or forged form metadata would, and the answers stay right meanwhile. (The flood
 * of 20,000 through the app's public routes is bounded-caches.e2e.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { keptCaches } from '../src/core/lru.js';
import { formatMoney } from '../src/core/money.js';
import { fieldAmount } from '../src/slack/balances/settle-part-views.js';
import { localTime } from '../src/slack/digest/time.js';
import { numberMarks } from '../src/slack/expense-form/amount.js';
import { megabytes } from '../src/slack/expense-form/receipt/receipt.js';
import { percentText } from '../src/slack/shared/breakdown.js';
import { todayIn } from '../src/slack/shared/dates.js';
import { troubleText } from '../src/slack/shared/parse-problem.js';
import { formatsFor, formattingLocale, type Voice, voiceFor } from '../src/voice/index.js';
import { translator } from '../src/voice/translate.js';

/** `count` tags, each a new string: private use, unknown regions, extensions. */
function* tags(count: number): Generator<string> {
  const languages = ['de', 'en', 'fr', 'es', 'pt', 'ja', 'ko', 'zh', 'it', 'nl'];
  for (let i = 0; i < count; i++) {
    const language = languages[i % languages.length]!;
    const region = String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26));
    yield i % 3 === 0
      ? `${language}-x-${i}`
      : i % 3 === 1
        ? `${language}-${region}`
        : `${language}-${region}-u-nu-latn-x-${i}`;
  }
}

/** A zone whose name Intl spells as IANA does. */
const ZONE = 'Europe/Luxembourg';

/** `count` spellings of one zone: Intl reads a zone's name in any case. */
function* zoneSpellings(count: number): Generator<string> {
  const letters = [...ZONE].flatMap((c, at) => (/[a-z]/i.test(c) ? [at] : []));
  for (let i = 0; i < count; i++) {
    const chars = [...ZONE];
    letters.forEach((at, bit) => {
      if ((i >> bit) & 1)
        chars[at] =
          chars[at]!.toUpperCase() === chars[at]
            ? chars[at]!.toLowerCase()
            : chars[at]!.toUpperCase();
    });
    yield chars.join('');
  }
}

function heldWithin(name: string) {
  const kept = keptCaches().get(name);
  expect(kept, `${name} is a named cache`).toBeDefined();
  expect(kept!.size).toBeGreaterThan(0);
  expect(kept!.size).toBeLessThanOrEqual(kept!.capacity);
  return kept!;
}

const driven = new Set<string>();
function drove(...names: string[]) {
  for (const name of names) {
    heldWithin(name);
    driven.add(name);
  }
}

describe('the locale and zone of a voice', () => {
  it('reduce 20,000 distinct tags to the few locales Intl formats with', () => {
    const locales = new Set<string>();
    for (const tag of tags(20_000)) locales.add(formattingLocale(tag));
    expect(locales.size).toBeLessThan(300);
    expect(formattingLocale('de-x-1')).toBe('de');
    expect(formattingLocale('de-ZZ')).toBe('de');
    expect(formattingLocale('en-GB-u-nu-arab')).toBe('en-GB');
    expect(formattingLocale('x'.repeat(10_000))).toBe('en-US');
    drove('voice.locales');
  });

  it('keep a person’s region: de-AT and en-GB still write numbers and dates their way', async () => {
    const austrian = await voiceFor({ locale: 'de-AT' });
    const german = await voiceFor({ locale: 'de-DE' });
    expect(austrian.locale).toBe('de-AT');
    expect(austrian.number(1234567)).not.toBe(german.number(1234567));
    const british = await voiceFor({ locale: 'en-GB' });
    const american = await voiceFor({ locale: 'en-US' });
    expect(british.locale).toBe('en-GB');
    expect(british.date('2026-11-27')).not.toBe(american.date('2026-11-27'));
  });

  it('read 600 spellings of one zone as that zone', async () => {
    const instant = new Date('2026-11-27T13:05:00Z');
    for (const spelling of zoneSpellings(600)) {
      const voice = await voiceFor({ locale: 'en-GB', tz: spelling });
      expect(voice.timeZone).toBe(spelling);
      expect(voice.time(instant)).toBe('14:05');
    }
    expect((await voiceFor({ tz: 'Not/AZone' })).timeZone).toBe('UTC');
    drove('voice.zones');
  });
});

describe('compiled messages', () => {
  it('stay within their cap whatever locales they are asked for', async () => {
    for (const tag of tags(5_000)) {
      const t = await translator('de', tag);
      expect(t('pages.unknown_title')).toBe('Dieser Link ist ungültig');
    }
    drove('voice.messages');
  });
});

describe('formats', () => {
  it('stay within their cap for 400 locales and zones', () => {
    const instant = new Date('2026-11-27T13:05:00Z');
    const zones = Intl.supportedValuesOf('timeZone');
    let i = 0;
    for (const tag of tags(400)) {
      const f = formatsFor(tag, zones[i++ % zones.length]!);
      f.date('2026-11-27');
      f.day('2026-11-27');
      f.time(instant);
      f.dateTime(instant);
      f.number(1);
      f.list(['a', 'b']);
      f.alternatives(['a', 'b']);
      f.percent(1);
    }
    drove(
      'formats.shortDate',
      'formats.longDay',
      'formats.timeOfDay',
      'formats.dateAndTime',
      'formats.numbers',
      'formats.lists',
      'formats.choices',
      'formats.percents',
    );
  });

  it('of money stay within their cap for every currency code and locale', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i < 5_000; i++) {
      const code =
        letters[i % 26]! + letters[Math.floor(i / 26) % 26]! + letters[Math.floor(i / 676) % 26]!;
      formatMoney(1050, code, i % 2 ? 'de-DE' : 'en-US');
      formatMoney(1050, `${code}-${i}`, 'en-US');
    }
    expect(formatMoney(4000, 'USD', 'en-US')).toBe('$40.00');
    expect(formatMoney(50, `BTC-${'x'.repeat(100)}`)).toBe(`BTC-${'x'.repeat(100)} 0.50`);
    drove('money.formats');
  });

  it('of the features’ own numbers stay within their cap for 400 locales', async () => {
    const english = await voiceFor({ locale: 'en-US' });
    const listed = {
      id: 'several_amounts',
      values: { count: 2, amounts: { list: ['1', '2'] } },
    } as const;
    for (const locale of tags(400)) {
      const voice = { ...english, locale } as Voice;
      megabytes(5 * 1024 * 1024, voice);
      percentText(1250, voice);
      numberMarks(locale);
      fieldAmount(123450, 'EUR', voice);
      troubleText(voice, listed);
    }
    expect(megabytes(5.4 * 1024 * 1024, { locale: 'de-DE' })).toBe('5,4 MB');
    expect(numberMarks('de-AT').decimal).toBe(',');
    drove(
      'receipt.sizes',
      'breakdown.percents',
      'amount.marks',
      'settle-part.marks',
      'parse-problem.lists',
    );
  });
});

describe('calendar days and the daily DM’s clock', () => {
  it('stay within their cap for 700 zone spellings and made-up zones', () => {
    const now = new Date('2026-11-27T23:05:00Z');
    let i = 0;
    for (const spelling of zoneSpellings(700)) {
      expect(todayIn(spelling, now)).toBe('2026-11-28');
      expect(todayIn(`Nowhere/${i++}`, now)).toBe('2026-11-27');
      expect(localTime(now, spelling).hour).toBe(0);
    }
    expect(todayIn('x'.repeat(10_000), now)).toBe('2026-11-27');
    drove('dates.zones', 'digest.zones', 'digest.answers');
  });
});

describe('every process-wide cache', () => {
  it('is one of those driven above', () => {
    expect([...keptCaches().keys()].filter((name) => !driven.has(name))).toEqual([]);
  });
});
