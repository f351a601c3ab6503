import { describe, expect, it } from 'vitest';
import { isDue, isValidTimeZone, localTime } from '../../../src/slack/digest/index.js';

const at = (iso: string) => new Date(iso);

describe('local time and when the DM is due', () => {
  it('reads the wall clock of the zone, not of the process', () => {
    expect(localTime(at('2026-11-20T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      day: '2026-11-21',
      hour: 8,
      minute: 30,
    });
    expect(localTime(at('2026-11-20T23:30:00Z'), 'America/New_York')).toEqual({
      day: '2026-11-20',
      hour: 18,
      minute: 30,
    });
  });

  it('is due from the chosen hour, within the window, once per local day', () => {
    const tz = 'Europe/Paris';
    expect(isDue(at('2026-11-21T06:59:00Z'), tz, 8, null).due).toBe(false);
    expect(isDue(at('2026-11-21T07:00:00Z'), tz, 8, null)).toEqual({
      due: true,
      day: '2026-11-21',
    });
    expect(isDue(at('2026-11-21T07:00:00Z'), tz, 8, '2026-11-21').due).toBe(false);
    expect(isDue(at('2026-11-21T10:59:00Z'), tz, 8, '2026-11-20', 4).due).toBe(true);
    expect(isDue(at('2026-11-21T11:00:00Z'), tz, 8, '2026-11-20', 4).due).toBe(false);
  });

  it('moves with New York daylight saving time, in spring and in autumn', () => {
    const ny = 'America/New_York';
    // 8 March 2026: 08:00 EDT is 12:00Z (the day before, 08:00 EST was 13:00Z).
    expect(isDue(at('2026-03-07T12:00:00Z'), ny, 8, null).due).toBe(false);
    expect(isDue(at('2026-03-08T12:00:00Z'), ny, 8, '2026-03-07').due).toBe(true);
    // 1 November 2026: back to EST, 08:00 is 13:00Z again.
    expect(isDue(at('2026-11-01T12:00:00Z'), ny, 8, '2026-10-31').due).toBe(false);
    expect(isDue(at('2026-11-01T13:00:00Z'), ny, 8, '2026-10-31').due).toBe(true);
  });

  it('sends at 03:00 on the spring-forward day for someone who chose the missing 02:00', () => {
    const ny = 'America/New_York';
    // 06:59Z is 01:59 EST; one minute later it is 03:00 EDT.
    expect(isDue(at('2026-03-08T06:59:00Z'), ny, 2, '2026-03-07').due).toBe(false);
    expect(isDue(at('2026-03-08T07:00:00Z'), ny, 2, '2026-03-07')).toEqual({
      due: true,
      day: '2026-03-08',
    });
  });

  it('does not send the same local day twice after a move west across the date line', () => {
    // Sent on the 21st in Tokyo; an hour later in Honolulu it is still the 20th.
    expect(isDue(at('2026-11-21T00:00:00Z'), 'Pacific/Honolulu', 8, '2026-11-21').due).toBe(false);
  });

  it('knows which time zones exist', () => {
    expect(isValidTimeZone('Asia/Tokyo')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('answers each zone and instant afresh, whatever was asked before or done to an answer', () => {
    const noon = at('2026-11-21T12:00:00Z');
    const first = localTime(noon, 'Asia/Tokyo');
    expect(first).toEqual({ day: '2026-11-21', hour: 21, minute: 0 });
    first.hour = 99;
    expect(localTime(noon, 'Asia/Tokyo')).toEqual({ day: '2026-11-21', hour: 21, minute: 0 });
    expect(localTime(noon, 'America/New_York')).toEqual({ day: '2026-11-21', hour: 7, minute: 0 });
    expect(localTime(at('2026-11-21T15:30:00Z'), 'Asia/Tokyo')).toEqual({
      day: '2026-11-22',
      hour: 0,
      minute: 30,
    });
    expect(localTime(noon, 'Asia/Tokyo').hour).toBe(21);
  });

  it('gives the same answer when asked again (valid zones are remembered, others are not)', () => {
    for (let i = 0; i < 3; i++) {
      expect(isValidTimeZone('Europe/Paris')).toBe(true);
      expect(isValidTimeZone('europe/paris')).toBe(true);
      expect(isValidTimeZone('Europe/Pariss')).toBe(false);
      expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    }
  });
});
