/**
 * The list filters' calendar ("this week", "last month", "last 10 days", "last friday") in the
 * server's own time zone, wherever it is: the days around a change of the clock, month and year
 * ends, and leap days, against the same answers worked out on UTC dates, which have no clock
 * changes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  daysBefore,
  mondayOf,
  monthStart,
  parseToday,
  ymd,
} from '../../../src/core/command/dates.js';
import { parseCommand } from '../../../src/core/command/index.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Pacific/Apia'];
const DAY_MS = 86_400_000;
const original = process.env.TZ;

afterAll(() => {
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

/** Every day from 2023-12-20 to 2025-01-10, and around each zone's clock changes of 2026. */
function days(): string[] {
  const out: string[] = [];
  for (let t = Date.UTC(2023, 11, 20); t <= Date.UTC(2025, 0, 10); t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  for (const [m, d] of [
    [3, 27],
    [3, 28],
    [3, 29],
    [3, 30],
    [4, 5],
    [4, 6],
    [9, 7],
    [10, 4],
    [10, 5],
    [10, 25],
    [10, 26],
  ] as const) {
    out.push(`2026-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  }
  return out;
}

/** The same arithmetic on UTC dates, where every day has 24 hours. */
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const expectedBefore = (date: string, n: number) => iso(utc(date) - n * DAY_MS);
const expectedMonday = (date: string) =>
  expectedBefore(date, (new Date(utc(date)).getUTCDay() + 6) % 7);
function expectedMonthStart(date: string, back: number): string {
  const d = new Date(utc(date));
  return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
}

describe.each(ZONES)('the calendar in %s', (zone) => {
  it('counts days, weeks and months by the date, not by hours', () => {
    process.env.TZ = zone;
    for (const date of days()) {
      const today = parseToday(date);
      expect(ymd(today)).toBe(date);
      for (const n of [1, 6, 7, 30, 366])
        expect(ymd(daysBefore(today, n))).toBe(expectedBefore(date, n));
      expect(ymd(mondayOf(today))).toBe(expectedMonday(date));
      expect(ymd(monthStart(today))).toBe(expectedMonthStart(date, 0));
      expect(ymd(monthStart(today, 1))).toBe(expectedMonthStart(date, 1));
    }
  });

  it('reads "last week" and "last month" on the first days of a year', () => {
    process.env.TZ = zone;
    const ctx = { today: '2025-01-01', defaultCurrency: 'USD' };
    expect(parseCommand('list last week', ctx)).toMatchObject({
      range: { from: '2024-12-23', to: '2024-12-29' },
    });
    expect(parseCommand('list last month', ctx)).toMatchObject({
      range: { from: '2024-12-01', to: '2024-12-31' },
    });
    expect(parseCommand('list this week', ctx)).toMatchObject({
      range: { from: '2024-12-30', to: '2025-01-01' },
    });
    expect(parseCommand('list last 3 days', { ...ctx, today: '2024-03-01' })).toMatchObject({
      range: { from: '2024-02-28', to: '2024-03-01' },
    });
  });
});
