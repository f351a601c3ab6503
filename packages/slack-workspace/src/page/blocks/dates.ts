// Slack's `<!date^unix^format|fallback>` tokens, formatted in the reader's time zone and, as
// Slack does, in their language: US English as Slack writes it ("November 20th, 2026 at 2:05 PM"),
// any other locale as Intl writes it ("20. November 2026", "14:05"). Any token Slack has that we
// do not know falls back to the app's own fallback text.

const TOKEN =
  /\{(date_num|date_slash|date_long_full|date_long_pretty|date_long|date_pretty|date_short_pretty|date_short|date|time_secs|time|ago|day_divider_pretty)\}/g;

function ordinal(day: number): string {
  const rest = day % 100;
  if (rest >= 11 && rest <= 13) return `${day}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
  return `${day}${day % 10 > 3 ? 'th' : suffix}`;
}

function parts(date: Date, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const map = new Map<string, string>();
  for (const part of new Intl.DateTimeFormat('en-US', { timeZone, ...options }).formatToParts(
    date,
  )) {
    map.set(part.type, part.value);
  }
  return map;
}

function dayKey(date: Date, timeZone: string): string {
  const p = parts(date, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  return `${p.get('year')}-${p.get('month')}-${p.get('day')}`;
}

function relativeDay(date: Date, timeZone: string, now: Date): string | undefined {
  const target = dayKey(date, timeZone);
  const dayMs = 86_400_000;
  if (target === dayKey(now, timeZone)) return 'Today';
  if (target === dayKey(new Date(now.getTime() - dayMs), timeZone)) return 'Yesterday';
  if (target === dayKey(new Date(now.getTime() + dayMs), timeZone)) return 'Tomorrow';
  return undefined;
}

function ago(date: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const units: [number, string][] = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (abs >= size) {
      const count = Math.floor(abs / size);
      const label = `${count} ${name}${count === 1 ? '' : 's'}`;
      return future ? `in ${label}` : `${label} ago`;
    }
  }
  return 'just now';
}

function formatToken(token: string, date: Date, timeZone: string, now: Date): string {
  const full = parts(date, timeZone, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
  const short = parts(date, timeZone, { month: 'short', year: 'numeric', day: 'numeric' });
  const num = parts(date, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const day = Number(full.get('day'));
  const dateText = `${full.get('month')} ${ordinal(day)}, ${full.get('year')}`;
  const shortText = `${short.get('month')} ${short.get('day')}, ${short.get('year')}`;
  const longText = `${full.get('weekday')}, ${dateText}`;
  const pretty = relativeDay(date, timeZone, now);
  const time = `${full.get('hour')}:${full.get('minute')} ${full.get('dayPeriod')}`;
  switch (token) {
    case 'date_num':
      return `${num.get('year')}-${num.get('month')}-${num.get('day')}`;
    case 'date_slash':
      return `${num.get('month')}/${num.get('day')}/${num.get('year')}`;
    case 'date':
      return dateText;
    case 'date_short':
      return shortText;
    case 'date_long':
    case 'date_long_full':
      return longText;
    case 'date_pretty':
      return pretty ?? dateText;
    case 'date_short_pretty':
      return pretty ?? shortText;
    case 'date_long_pretty':
    case 'day_divider_pretty':
      return pretty ?? longText;
    case 'time':
      return time;
    case 'time_secs':
      return `${full.get('hour')}:${full.get('minute')}:${full.get('second')} ${full.get('dayPeriod')}`;
    default:
      return ago(date, now);
  }
}

/** "Today", "Heute": a relative day in `locale`, with a capital as a heading has it. */
function dayWord(locale: string, days: number): string {
  const word = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(days, 'day');
  return word.charAt(0).toLocaleUpperCase(locale) + word.slice(1);
}

/** "vor 5 Minuten": how long ago, in `locale`. */
function agoIn(locale: string, date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const units: [number, Intl.RelativeTimeFormatUnit][] = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  const words = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [size, unit] of units) {
    if (Math.abs(seconds) >= size) return words.format(Math.trunc(seconds / size), unit);
  }
  return words.format(0, 'second');
}

/** A token in a locale other than US English, as Intl writes dates and times there. */
function formatTokenIn(
  locale: string,
  token: string,
  date: Date,
  timeZone: string,
  now: Date,
): string {
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(date);
  const target = dayKey(date, timeZone);
  const offset = [-1, 0, 1].find(
    (days) => dayKey(new Date(now.getTime() + days * 86_400_000), timeZone) === target,
  );
  const pretty = offset === undefined ? undefined : dayWord(locale, offset);
  const long = () => format({ dateStyle: 'long' });
  const short = () => format({ day: 'numeric', month: 'short', year: 'numeric' });
  const full = () => format({ dateStyle: 'full' });
  switch (token) {
    case 'date_num': {
      const num = parts(date, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
      return `${num.get('year')}-${num.get('month')}-${num.get('day')}`;
    }
    case 'date_slash':
      return format({ year: 'numeric', month: '2-digit', day: '2-digit' });
    case 'date':
      return long();
    case 'date_short':
      return short();
    case 'date_long':
    case 'date_long_full':
      return full();
    case 'date_pretty':
      return pretty ?? long();
    case 'date_short_pretty':
      return pretty ?? short();
    case 'date_long_pretty':
    case 'day_divider_pretty':
      return pretty ?? full();
    case 'time':
      return format({ hour: 'numeric', minute: '2-digit' });
    case 'time_secs':
      return format({ hour: 'numeric', minute: '2-digit', second: '2-digit' });
    default:
      return agoIn(locale, date, now);
  }
}

/**
 * Formats a date token's `format` for the unix time `seconds`, for a reader of `locale`;
 * undefined when the token cannot be read (then the caller shows the fallback text the app
 * supplied).
 */
export function formatSlackDate(
  seconds: string,
  format: string,
  timeZone: string,
  now: Date = new Date(),
  locale = 'en-US',
): string | undefined {
  if (!/^-?\d+$/.test(seconds)) return undefined;
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  let reader: string;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    reader = Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0 ? locale : 'en-US';
  } catch {
    return undefined;
  }
  return format.replace(TOKEN, (_whole, token: string) =>
    reader === 'en-US'
      ? formatToken(token, date, timeZone, now)
      : formatTokenIn(reader, token, date, timeZone, now),
  );
}
