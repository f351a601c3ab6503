/**
 * Text that a person or the expense service wrote, on its way into a Slack payload: one function
 * per kind of text field. Whatever it holds is shown as written, and nothing in it can ping a
 * channel, link somewhere under a disguise, or turn into formatting.
 */

/** A zero-width space: invisible, and it keeps a formatting character from pairing up. */
const BREAK = '\u200b';

/**
 * For a `mrkdwn` text field (and a message's fallback `text`, which Slack reads as mrkdwn). `&`,
 * `<` and `>` become entities, as Slack asks, so that no `<!channel>`, `<@U…>` or `<url|label>`
 * in it is read as markup; each of mrkdwn's formatting characters (`*`, `_`, `~`, `` ` ``) is
 * fenced by zero-width spaces, since mrkdwn has no escape for them and pairs them up only at word
 * edges: fenced, each sits inside a "word" and pairs with nothing. A `>` that starts a line would
 * quote it: a zero-width space goes before it too.
 */
export function mrkdwn(text: string): string {
  let out = '';
  let lineStart = true;
  for (const char of text) {
    switch (char) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += lineStart ? `${BREAK}&gt;` : '&gt;';
        break;
      case '*':
      case '_':
      case '~':
      case '`':
        out += `${BREAK}${char}${BREAK}`;
        break;
      default:
        out += char;
    }
    lineStart = char === '\n';
  }
  return out;
}

/**
 * For a `plain_text` field: Slack shows it as it is (no markup, no mentions, no links), so the
 * text goes in unchanged. Kept as a function so that every text has one way in.
 */
export function plainText(text: string): string {
  return text;
}

const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** A Slack user, for mrkdwn: shown by Slack as their current name. Anything else stays text. */
export function mention(userId: string): string {
  return USER_ID.test(userId) ? `<@${userId}>` : mrkdwn(userId);
}
