/**
 * App Home's latest activity as mrkdwn lines, in the reader's words: each line written by the app
 * from what the notification is about (activity.ts), names, descriptions and amounts in the
 * reader's format and escaped, so that nothing a person typed (an expense called "<!channel>", or
 * "*star*") can turn into a mention, a link or formatting.
 *
 * For a type the app does not know, the line is the service's own text. Its content is HTML using
 * `<strong> <strike> <small> <br> <font>`: bold and strike-through become mrkdwn, line breaks a
 * separator, anything else is dropped to its text; text is decoded from HTML entities and then
 * escaped for mrkdwn.
 */
import type { MessageKey, Voice } from '../../voice/index.js';
import { mrkdwn } from '../kit/text.js';
import { todayIn } from '../shared/dates.js';
import type { ActivityEntry, ActivityExpense, Someone } from './activity.js';

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A run of text with the formatting the HTML gave it, or a line break. */
type Piece = { text: string; bold: boolean; strike: boolean } | { break: true };

/**
 * The most of a notification's HTML that is read: a line of App Home shows a few hundred
 * characters, and a service that sends megabytes must not cost the app more than a line.
 */
const MAX_HTML = 4_000;

/** The notification's text as pieces: entities decoded, spaces collapsed, unknown tags dropped. */
function piecesOf(html: string): Piece[] {
  const pieces: Piece[] = [];
  let bold = 0;
  let strike = 0;
  // A tag ends at the next `<` too: otherwise a run of unclosed `<` is read from each one to the
  // end, which takes seconds on a long text.
  for (const token of html.slice(0, MAX_HTML).split(/(<[^<>]*>)/)) {
    if (token === '') continue;
    const tag = /^<\s*(\/?)\s*([a-z]+)[^>]*>$/i.exec(token);
    if (tag) {
      const closing = tag[1] === '/';
      const name = tag[2]!.toLowerCase();
      if (name === 'br' || name === 'p' || name === 'div') {
        if (!closing || name !== 'br') pieces.push({ break: true });
      } else if (name === 'strong' || name === 'b') {
        bold = Math.max(0, bold + (closing ? -1 : 1));
      } else if (name === 'strike' || name === 's' || name === 'del') {
        strike = Math.max(0, strike + (closing ? -1 : 1));
      }
      continue;
    }
    pieces.push({
      text: decodeEntities(token).replace(/\s+/g, ' '),
      bold: bold > 0,
      strike: strike > 0,
    });
  }
  // One break between two runs of text, none at either end.
  const out: Piece[] = [];
  let text = false;
  for (const piece of pieces) {
    const last = out.at(-1);
    const afterBreak = last !== undefined && 'break' in last;
    if ('break' in piece) {
      if (text && !afterBreak) out.push(piece);
    } else if (piece.text.trim() !== '' || !afterBreak) {
      out.push(piece);
      text ||= piece.text.trim() !== '';
    }
  }
  const last = out.at(-1);
  if (last !== undefined && 'break' in last) out.pop();
  return out;
}

/** The pieces cut to `max` visible characters, the cut marked with an ellipsis. */
function cut(pieces: Piece[], max: number): Piece[] {
  const out: Piece[] = [];
  let length = 0;
  for (const piece of pieces) {
    const size = 'break' in piece ? BREAK.length : piece.text.length;
    if (length + size <= max) {
      out.push(piece);
      length += size;
      continue;
    }
    const room = Math.max(0, max - length - 1);
    if ('break' in piece) out.push({ text: '…', bold: false, strike: false });
    else out.push({ ...piece, text: `${piece.text.slice(0, room).trimEnd()}…` });
    break;
  }
  return out;
}

const BREAK = ' — ';

/**
 * One notification's HTML as a single mrkdwn line of at most `max` visible characters (cut before
 * it is formatted, so that a cut never leaves a bold or struck span open). What people typed is
 * escaped with the one mrkdwn rule, so it reads as typed and formats nothing.
 */
export function notificationText(html: string, max = Number.POSITIVE_INFINITY): string {
  const out: string[] = [];
  for (const piece of cut(piecesOf(html), max)) {
    if ('break' in piece) {
      out.push(BREAK);
      continue;
    }
    const text = mrkdwn(piece.text);
    if (text.trim() === '' || (!piece.bold && !piece.strike)) {
      out.push(text);
      continue;
    }
    // mrkdwn spans must not start or end with a space.
    const lead = /^\s*/.exec(text)![0];
    const trail = /\s*$/.exec(text)![0];
    let span = text.trim();
    if (piece.strike) span = `~${span}~`;
    if (piece.bold) span = `*${span}*`;
    out.push(`${lead}${span}${trail}`);
  }
  return out.join('').replace(/ {2,}/g, ' ').trim();
}

/**
 * Slack writes `<!date^…>` in the reader's own way; the text after `|` is for clients that can't,
 * written as the voice writes a date and a time, in the reader's zone.
 */
function when(iso: string, voice: Voice): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const instant = new Date(ms);
  const seconds = Math.floor(ms / 1000);
  const fallback = `${voice.date(todayIn(voice.timeZone, instant))} ${voice.time(instant)}`;
  return ` · <!date^${seconds}^{date_short_pretty} {time}|${mrkdwn(fallback)}>`;
}

/** A line of the service's text holds at most this many visible characters, its date aside. */
const LINE = 240;

/**
 * The longest description or name a line shows: a line is a glance, and with each name cut the
 * app's own lines stay within a few hundred characters.
 */
const NAME = 80;

function shortened(text: string): string {
  return text.length <= NAME ? text : `${text.slice(0, NAME - 1).trimEnd()}…`;
}

/** A person, for a line: bold, escaped; "someone" when the app cannot name them. */
function name(voice: Voice, who: Someone): string {
  if (who.me) return '';
  return who.name === undefined ? voice.t('activity.someone') : `*${mrkdwn(shortened(who.name))}*`;
}

/** `{me}` and `{who}` of a message that says who acted. */
function actor(voice: Voice, who: Someone) {
  return { me: who.me ? 'yes' : 'no', who: name(voice, who) };
}

function paymentText(
  voice: Voice,
  e: ActivityExpense,
  payment: NonNullable<ActivityExpense['payment']>,
) {
  const amount = voice.money(e.cost, e.currency);
  const side = payment.from.me ? 'paid' : payment.to.me ? 'received' : 'between';
  return voice.t('activity.payment', {
    side,
    from: name(voice, payment.from),
    to: name(voice, payment.to),
    amount,
  });
}

/** The expense a line is about: its description and cost, or a payment; "an expense" unread. */
function expenseText(voice: Voice, e: ActivityExpense | undefined): string {
  if (!e) return voice.t('activity.an_expense');
  if (e.payment)
    return voice.t('activity.a_payment', { payment: paymentText(voice, e, e.payment) });
  return voice.t('activity.expense', {
    description: mrkdwn(shortened(e.description)),
    cost: voice.money(e.cost, e.currency),
  });
}

const EXPENSE_KEYS: Record<Extract<ActivityEntry, { kind: 'expense' }>['what'], MessageKey> = {
  added: 'activity.expense_added',
  updated: 'activity.expense_updated',
  deleted: 'activity.expense_deleted',
  restored: 'activity.expense_restored',
  commented: 'activity.commented',
};

const GROUP_KEYS: Record<Extract<ActivityEntry, { kind: 'group' }>['what'], MessageKey> = {
  created: 'activity.group_created',
  added: 'activity.group_added',
  removed: 'activity.group_removed',
  left: 'activity.group_left',
  deleted: 'activity.group_deleted',
  restored: 'activity.group_restored',
  settings: 'activity.group_settings',
};

/** One entry as a line of mrkdwn, without its date. */
export function entryText(entry: ActivityEntry, voice: Voice): string {
  switch (entry.kind) {
    case 'service':
      return notificationText(entry.html, LINE);
    case 'friend':
      return voice.t(entry.what === 'added' ? 'activity.friend_added' : 'activity.friend_removed', {
        ...actor(voice, entry.who),
      });
    case 'group':
      return voice.t(GROUP_KEYS[entry.what], {
        ...actor(voice, entry.who),
        known: entry.group === undefined ? 'no' : 'yes',
        group: entry.group === undefined ? '' : `*${mrkdwn(shortened(entry.group))}*`,
      });
    case 'expense': {
      const e = entry.expense;
      // A payment its payer made reads as itself: "You paid Ben €6.00".
      if (entry.what === 'added' && e?.payment) return paymentText(voice, e, e.payment);
      const line = voice.t(EXPENSE_KEYS[entry.what], {
        ...actor(voice, entry.who),
        what: expenseText(voice, e),
      });
      if (!e || e.payment || e.mine === 0 || entry.what === 'commented') return line;
      const mine =
        e.mine > 0
          ? voice.t('balances.you_are_owed', { amount: voice.money(e.mine, e.currency) })
          : voice.t('balances.you_owe_amount', { amount: voice.money(-e.mine, e.currency) });
      return `${line}${BREAK}${mine}`;
    }
  }
}

/** Lines for the newest `max` entries, newest first; each line kept short. */
export function activityLines(entries: readonly ActivityEntry[], voice: Voice, max = 10): string[] {
  return entries
    .slice(0, max)
    .map((entry) => `• ${entryText(entry, voice)}${when(entry.at, voice)}`);
}
