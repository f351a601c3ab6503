/**
 * Local wall-clock time in an IANA zone, read through Intl (the ICU tables Node ships), so that
 * daylight-saving transitions come from the zone's rules rather than from a fixed offset: Slack's
 * `tz_offset` is a snapshot that goes stale at the next transition.
 */

import { Lru } from '../../core/lru.js';

export { isValidTimeZone } from '../../store/digest.js';

interface LocalTime {
  /** Local calendar day, yyyy-MM-dd. */
  day: string;
  /** 0-23. */
  hour: number;
  minute: number;
}

/**
 * Zones kept: a run meets each of its people's zones, a few hundred at most, and a zone Intl reads
 * in another spelling (it ignores case) takes a place of its own, so the count is capped.
 */
const ZONES_KEPT = 512;

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const formatters = new Lru<string, Intl.DateTimeFormat>(ZONES_KEPT, 'digest.zones');

function formatter(timeZone: string): Intl.DateTimeFormat {
  return formatters.getOrMake(
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  );
}

/**
 * The last answer per zone: a run asks about one instant for every person, so most people share
 * the answer of someone before them in the same zone, and formatToParts is the costly part.
 */
const lastAnswers = new Lru<string, { at: number; local: LocalTime }>(ZONES_KEPT, 'digest.answers');

/** The wall-clock day, hour and minute at `instant` in `timeZone`. */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const at = instant.getTime();
  const last = lastAnswers.get(timeZone);
  if (last !== undefined && last.at === at) return { ...last.local };
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const local = {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
  lastAnswers.set(timeZone, { at, local });
  return { ...local };
}

/**
 * Whether the day's DM is due: the local hour has reached the chosen one, less than `windowHours`
 * ago, on a local day later than the last one handled.
 *
 * "Reached" rather than "equals" covers a missed tick (a restart, a slow run) and the
 * spring-forward day on which the chosen hour does not exist (02:00 in New York jumps to 03:00).
 * The window keeps a DM from arriving at an odd hour: someone who turns it on at 18:00 for 08:00
 * gets the first one the next morning, not at once. Comparing days (yyyy-MM-dd sorts as it reads)
 * rather than testing inequality keeps a person who moves west across the date line from getting
 * the same day twice.
 */
export function isDue(
  instant: Date,
  timeZone: string,
  hour: number,
  lastDay: string | null,
  windowHours = 24,
): { due: boolean; day: string } {
  const local = localTime(instant, timeZone);
  const due =
    local.hour >= hour &&
    local.hour < hour + windowHours &&
    (lastDay === null || local.day > lastDay);
  return { due, day: local.day };
}
