import type { types } from '@slack/bolt';

/** Slack's Block Kit limits, enforced where text is built: Slack refuses a payload over any of them. */
export const LIMITS = {
  /** Slack refuses a message with more blocks. */
  messageBlocks: 50,
  /** A longer section text is refused as invalid_blocks. */
  sectionText: 3000,
  /** Each section field. */
  fieldText: 2000,
  sectionFields: 10,
  /** Header blocks take plain text up to this length. */
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  /** Fallback text beyond this is hard to read in a notification, though Slack allows more. */
  fallbackText: 4000,
  contextElements: 10,
} as const;

/** Slack's limits for views and options, each refused outright when exceeded. */
export const VIEW_LIMITS = {
  /** Modal title, submit and close texts. */
  title: 24,
  privateMetadata: 3000,
  viewBlocks: 100,
  /** A static select's options, and an external select's answer. */
  options: 100,
  optionText: 75,
  optionValue: 150,
  inputLabel: 2000,
  placeholder: 150,
} as const;

/**
 * The most people on one expense, or named in one command: the form's people picker holds as
 * many, and each person is a Slack lookup (users.info, or users.lookupByEmail for a group's
 * members), so this also bounds what one command costs Slack.
 */
export const MAX_PEOPLE = 50;

/**
 * The distinct people a text mentions (`<@U123>`, `<@U123|ann>`), as the command's tokenizer reads
 * them. Each attempt stops at the next angle bracket, so the text is read in linear time.
 */
export function mentionedIds(text: string): Set<string> {
  const ids = new Set<string>();
  for (const match of text.matchAll(/<@([^<>|]*)(?:\|[^<>]*)?>/g)) ids.add(match[1] as string);
  return ids;
}

/**
 * What a cut must not leave at its end: half an entity (`&am` would show as typed), half a fence
 * of mrkdwn() (a `*` without the zero-width space after it could pair with the app's own), half a
 * surrogate pair (no character at all).
 */
const TORN = /&(?:a|am|amp|l|lt|g|gt)?$|\u200b[*_~`]?$|[\ud800-\udbff]$/;

/** Cuts text to `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).replace(TORN, '')}…`;
}

/**
 * Lines joined into as few sections as Slack's 3000 characters a section allow, at most `max`;
 * when some are left out, the last section ends with `more` (mrkdwn in the reader's voice, "…and
 * more"), else with an ellipsis.
 */
export function lineSections(lines: string[], max: number, more = '…'): types.SectionBlock[] {
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    const piece = clip(line, LIMITS.sectionText);
    if (current !== '' && current.length + 1 + piece.length > LIMITS.sectionText) {
      out.push(current);
      current = '';
    }
    current = current === '' ? piece : `${current}\n${piece}`;
  }
  if (current !== '') out.push(current);
  const kept = out.slice(0, Math.max(0, max));
  if (out.length > kept.length && kept.length > 0) {
    kept[kept.length - 1] = clip(`${kept[kept.length - 1]}\n${more}`, LIMITS.sectionText);
  }
  return kept.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));
}
