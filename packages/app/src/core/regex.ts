/** `text` as a regular expression that matches it literally: each metacharacter escaped. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
