/**
 * "Split this": message text with mentions turned into names and Slack's markup undone. Slack
 * sends `<` and `>` inside an entity escaped, so an entity never holds a raw `<`: each match stops
 * at the next one, and a message of unclosed `<@U1|` is read in linear time, not once per `<`.
 */
export function messageText(text: string, names: Map<string, string>): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>/g, (_, id: string) => names.get(id) ?? 'someone')
    .replace(/<[^|<>]*\|([^<>]*)>/g, '$1')
    .replace(/<([^<>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
