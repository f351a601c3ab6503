/**
 * The service's notifications (get_notifications) as readable mrkdwn lines. Their content is HTML
 * using `<strong> <strike> <small> <br> <font>`: bold and strike-through
 * become mrkdwn, line breaks a separator, anything else is dropped to its text. Text is decoded
 * from HTML entities and then escaped for mrkdwn, so nothing a person typed (an expense called
 * "<!channel>") can turn into a mention or a link.
 */
import { clip, mrkdwnEscape } from '../shared/limits.js';

interface ActivityItem {
  content: string;
  /** ISO 8601. */
  created_at: string;
}

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

/**
 * Characters that would open mrkdwn formatting inside a bold or struck span; they are replaced by
 * look-alikes there so that the span closes where the HTML said.
 */
function inSpan(text: string): string {
  return text.replace(/\*/g, '∗').replace(/~/g, '∼');
}

/** One notification's HTML as a single mrkdwn line. */
export function notificationText(html: string): string {
  const out: string[] = [];
  let bold = 0;
  let strike = 0;
  const tokens = html.split(/(<[^>]*>)/);
  for (const token of tokens) {
    if (token === '') continue;
    const tag = /^<\s*(\/?)\s*([a-z]+)[^>]*>$/i.exec(token);
    if (tag) {
      const closing = tag[1] === '/';
      const name = tag[2]!.toLowerCase();
      if (name === 'br' || name === 'p' || name === 'div') {
        if (!closing || name !== 'br') out.push(' — ');
      } else if (name === 'strong' || name === 'b') {
        bold = Math.max(0, bold + (closing ? -1 : 1));
      } else if (name === 'strike' || name === 's' || name === 'del') {
        strike = Math.max(0, strike + (closing ? -1 : 1));
      }
      continue;
    }
    let text = mrkdwnEscape(decodeEntities(token).replace(/\s+/g, ' '));
    if (text.trim() === '') {
      out.push(text);
      continue;
    }
    if (bold > 0 || strike > 0) {
      // mrkdwn spans must not start or end with a space.
      const lead = /^\s*/.exec(text)![0];
      const trail = /\s*$/.exec(text)![0];
      text = inSpan(text.trim());
      if (strike > 0) text = `~${text}~`;
      if (bold > 0) text = `*${text}*`;
      out.push(`${lead}${text}${trail}`);
    } else {
      out.push(text);
    }
  }
  return out
    .join('')
    .replace(/(\s*—\s*)+/g, ' — ')
    .replace(/^\s*—\s*|\s*—\s*$/g, '')
    .trim();
}

/** Slack renders `<!date^…>` in the reader's own time zone; the fallback is for old clients. */
function when(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const seconds = Math.floor(ms / 1000);
  return ` · <!date^${seconds}^{date_short_pretty} {time}|${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC>`;
}

/** Lines for the newest `max` items, newest first; each line kept short. */
export function activityLines(items: readonly ActivityItem[], max = 10): string[] {
  return items
    .slice(0, max)
    .map((n) => `• ${clip(notificationText(n.content), 240)}${when(n.created_at)}`);
}
