/** Calendar dates in a person's time zone (Slack's users.info `tz`), for parsing and booking. */

function validZone(tz: string | undefined): string {
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

/** yyyy-MM-dd of `now` in `tz` (UTC when unknown). */
export function todayIn(tz: string | undefined, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: validZone(tz),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function offsetMinutes(tz: string, at: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
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
  const zone = validZone(tz);
  const minutes = offsetMinutes(zone, Date.parse(`${date}T12:00:00Z`));
  if (minutes === 0) return `${date}T12:00:00Z`;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${date}T12:00:00${sign}${hh}:${mm}`;
}
