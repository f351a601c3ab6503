/** Calendar dates in a person's time zone (Slack's users.info `tz`), for parsing and booking. */
import { Lru } from '../../core/lru.js';

/**
 * Intl formatters are costly to build (a large share of a /split's CPU when built per call), so
 * one per zone is kept. The set of zones in a workspace is small, but a zone also comes back from
 * a form's metadata, which a client can write: capped, and a name Intl refuses is kept as such.
 */
interface ZoneFormatters {
  day: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
  /**
   * The last answers, kept with the zone: nearly every command in a zone asks for the same day
   * and the same midday, and formatting them again was a few percent of a booking's processor time.
   */
  today?: { minute: number; day: string };
  midday?: { date: string; iso: string };
}

const formatters = new Lru<string, ZoneFormatters | null>(256, 'dates.zones');

/** IANA's names are at most about thirty characters; a longer one is no zone, and is not kept. */
const ZONE_MAX = 64;

function formattersOf(zone: string): ZoneFormatters | null {
  try {
    return {
      day: new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
      offset: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }),
    };
  } catch {
    // An unknown zone name: remembered as such, and UTC is used.
    return null;
  }
}

function zoneFormatters(tz: string | undefined): ZoneFormatters | undefined {
  const zone = tz || 'UTC';
  const found = zone.length > ZONE_MAX ? null : formatters.getOrMake(zone, formattersOf);
  return found ?? (zone === 'UTC' ? undefined : zoneFormatters('UTC'));
}

/** yyyy-MM-dd of `now` in `tz` (UTC when unknown). */
export function todayIn(tz: string | undefined, now: Date): string {
  const f = zoneFormatters(tz);
  if (!f) return now.toISOString().slice(0, 10);
  // Every zone's day starts on a whole minute: within one minute the day is the same.
  const minute = Math.floor(now.getTime() / 60_000);
  if (f.today?.minute !== minute) f.today = { minute, day: f.day.format(now) };
  return f.today.day;
}

function offsetMinutes(f: ZoneFormatters | undefined, at: number): number {
  const name = f?.offset.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * Midday of a calendar date in the person's zone, as an ISO 8601 timestamp with its offset. A date
 * sent as midnight shows as the day before to anyone west of UTC; midday keeps the same calendar
 * date for every zone within ±12 hours.
 */
export function middayIn(date: string, tz: string | undefined): string {
  const f = zoneFormatters(tz);
  if (f?.midday?.date === date) return f.midday.iso;
  const minutes = offsetMinutes(f, Date.parse(`${date}T12:00:00Z`));
  let iso = `${date}T12:00:00Z`;
  if (minutes !== 0) {
    const sign = minutes < 0 ? '-' : '+';
    const abs = Math.abs(minutes);
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    iso = `${date}T12:00:00${sign}${hh}:${mm}`;
  }
  if (f) f.midday = { date, iso };
  return iso;
}
