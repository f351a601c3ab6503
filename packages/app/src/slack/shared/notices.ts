/**
 * Private (ephemeral) notices and DMs: connecting, errors with a working example, help.
 * Pure functions from data to Block Kit; the words come from the reader's voice.
 */
import type { types } from '@slack/bolt';
import {
  grammarLanguageOf,
  HELP_TOPICS,
  type HelpLine,
  type HelpLineId,
  type HelpTopic,
  type HelpWords,
  type HelpWordsId,
  helpFor,
} from '../../core/command/index.js';
import type { MessageKey, Voice } from '../../voice/index.js';
import { ACTIONS, BLOCKS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  headerBlock,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { exampleText, inOwnWords } from './examples.js';

/**
 * A command's text as the person saw it when typing, for mrkdwn: Slack sends mentions, channels
 * and links in its markup (`<@U0ANN|ann>`) with `&`, `<`, `>` escaped; shown inside backticks,
 * where Slack renders none of that, the markup would reach the person raw. Since a raw `<` never
 * sits inside Slack's markup, each match stops at the next one: a text of unclosed `<@` is read in
 * linear time, not once per `<`.
 */
export function typedCommand(text: string): string {
  const shown = text
    .replace(/<([@#!])([^|<>]*)\|([^<>]*)>/g, (_, sigil: string, _id: string, label: string) =>
      sigil === '!' ? label : `${sigil}${label}`,
    )
    .replace(/<!(here|channel|everyone)>/g, '@$1')
    .replace(/<([@#])([^<>]*)>/g, '$1$2')
    .replace(/<([^|<>]*)\|([^<>]*)>/g, '$2')
    .replace(/<([^<>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return mrkdwn(clip(shown, 200));
}

/** `/split …` as the person typed it, in a code span: how an answer quotes a command. */
export function quotedCommand(text: string): string {
  return `\`/split ${typedCommand(text)}\``;
}

export type ConnectReason = 'first_time' | 'revoked' | 'asked';

/**
 * Asks the person to connect their expense account, in their voice; `pendingText` is what they
 * typed, carried out once they have. The button's block is the prompt's own (BLOCKS.connectActions):
 * a click on it lets linking replace the whole prompt once it is done.
 */
export function connectPrompt(
  voice: Voice,
  input: {
    url: string;
    reason: ConnectReason;
    pendingText?: string | undefined;
  },
): SlackMessage {
  const intro = voice.t('linking.connect_intro', { reason: input.reason });
  const after = input.pendingText
    ? `\n${voice.t('linking.connect_after', { command: quotedCommand(input.pendingText) })}`
    : '';
  return {
    text: voice.t('linking.connect_fallback', { intro, url: input.url }),
    blocks: [
      section(`${intro}${after}`),
      actionsBlock({
        block_id: BLOCKS.connectActions,
        elements: [
          buttonElement({
            action_id: ACTIONS.connect,
            style: 'primary',
            text: plainTextObject({ text: voice.t('linking.connect_button'), emoji: true }),
            url: input.url,
          }),
        ],
      }),
      context(voice.t('linking.connect_note')),
    ],
  };
}

/** Markup the app writes into notices: a user's mention, a channel's link. */
const APP_MARKUP = /^<(?:@[UW][A-Z0-9]+|#[CGD][A-Z0-9]+(?:\|[^<>]*)?)>$/;
/** Entities mrkdwn() writes. */
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt);)/g;

/**
 * A notice's text is mrkdwn the app wrote: a message from the reader's catalogue, whose values
 * went through mrkdwn() or mention() on their way in. The app writes no other markup into a
 * notice (no broadcast, no link), and leaves no bare `&`, `<` or `>`: any found there slipped in
 * unescaped, and is shown as text, so that it can neither notify anyone nor link anywhere. Text
 * already escaped passes unchanged. Linear: each `<` starts at most one match.
 */
function neutralised(text: string): string {
  return text.replace(/<[^<>]*>|[<>]|&(?!(?:amp|lt|gt);)/g, (found) => {
    if (found === '&') return '&amp;';
    if (found === '<') return '&lt;';
    if (found === '>') return '&gt;';
    if (APP_MARKUP.test(found)) return found;
    return `&lt;${found.slice(1, -1).replace(BARE_AMPERSAND, '&amp;')}&gt;`;
  });
}

/**
 * A problem, and a `/split` form that works: with `people` (Slack ids the reader can mention),
 * the form names them in place of `@ann`, `@bob` and `@cho`.
 */
export function errorNotice(
  voice: Voice,
  message: string,
  example?: string,
  people: readonly string[] = [],
): SlackMessage {
  const said = neutralised(message);
  const tryThis = example
    ? voice.t('common.for_example', { example: exampleText(voice, example, people) })
    : '';
  return {
    text: clip(tryThis ? `${said} ${tryThis}` : said, LIMITS.fallbackText),
    blocks: [
      section(`:warning: ${said}${tryThis ? `\n${tryThis}` : ''}`),
      context(voice.t('common.help_hint')),
    ],
  };
}

/** A notice of mrkdwn the app wrote (see neutralised): the same text in the blocks and the fallback. */
export function plainNotice(text: string): SlackMessage {
  const said = neutralised(text);
  return { text: clip(said, LIMITS.fallbackText), blocks: [section(said)] };
}

/** What each form of `/split help` means. */
export const HELP_LINE_KEYS: Record<HelpLineId, MessageKey> = {
  basic: 'help.lines.basic',
  currency_date: 'help.lines.currency_date',
  unequal: 'help.lines.unequal',
  balance: 'help.lines.balance',
  form: 'help.lines.form',
  paid_by: 'help.lines.paid_by',
  several_payers: 'help.lines.several_payers',
  sharer_after_payers: 'help.lines.sharer_after_payers',
  except_me: 'help.lines.except_me',
  exact: 'help.lines.exact',
  percent: 'help.lines.percent',
  shares: 'help.lines.shares',
  each: 'help.lines.each',
  balance_person: 'help.lines.balance_person',
  balance_group: 'help.lines.balance_group',
  list_filtered: 'help.lines.list_filtered',
  list_search: 'help.lines.list_search',
  list_about: 'help.lines.list_about',
  undo: 'help.lines.undo',
  groups: 'help.lines.groups',
  group_create: 'help.lines.group_create',
  group_add: 'help.lines.group_add',
  group_use: 'help.lines.group_use',
  in_group: 'help.lines.in_group',
  group_default: 'help.lines.group_default',
  group_currency: 'help.lines.group_currency',
  group_default_show: 'help.lines.group_default_show',
  group_delete: 'help.lines.group_delete',
  pay: 'help.lines.pay',
  paid_me: 'help.lines.paid_me',
  remind: 'help.lines.remind',
  monthly: 'help.lines.monthly',
  every_two_weeks: 'help.lines.every_two_weeks',
  sum: 'help.lines.sum',
  tip_tax: 'help.lines.tip_tax',
  tip_amount: 'help.lines.tip_amount',
  export: 'help.lines.export',
  export_filtered: 'help.lines.export_filtered',
  feed_on: 'help.lines.feed_on',
  feed_off: 'help.lines.feed_off',
  feed_status: 'help.lines.feed_status',
  connect: 'help.lines.connect',
  whoami: 'help.lines.whoami',
  disconnect: 'help.lines.disconnect',
};

const TOPIC_KEYS: Record<HelpTopic, { title: MessageKey; about: MessageKey }> = {
  payers: { title: 'help.topics.payers.title', about: 'help.topics.payers.about' },
  shares: { title: 'help.topics.shares.title', about: 'help.topics.shares.about' },
  list: { title: 'help.topics.list.title', about: 'help.topics.list.about' },
  groups: { title: 'help.topics.groups.title', about: 'help.topics.groups.about' },
  reminders: { title: 'help.topics.reminders.title', about: 'help.topics.reminders.about' },
  recurring: { title: 'help.topics.recurring.title', about: 'help.topics.recurring.about' },
  itemise: { title: 'help.topics.itemise.title', about: 'help.topics.itemise.about' },
  export: { title: 'help.topics.export.title', about: 'help.topics.export.about' },
  feed: { title: 'help.topics.feed.title', about: 'help.topics.feed.about' },
  account: { title: 'help.topics.account.title', about: 'help.topics.account.about' },
};

/** What each line of a language's words is about. */
const WORDS_KEYS: Record<HelpWordsId, MessageKey> = {
  dates: 'help.word_groups.dates',
  commands: 'help.word_groups.commands',
  split_this: 'help.word_groups.split_this',
  paid_by: 'help.word_groups.paid_by',
  me: 'help.word_groups.me',
  except_me: 'help.word_groups.except_me',
  each: 'help.word_groups.each',
  balance: 'help.word_groups.balance',
  list: 'help.word_groups.list',
  ranges: 'help.word_groups.ranges',
  pay: 'help.word_groups.pay',
  received: 'help.word_groups.received',
  remind: 'help.word_groups.remind',
  weekly: 'help.word_groups.weekly',
  fortnightly: 'help.word_groups.fortnightly',
  monthly: 'help.word_groups.monthly',
  yearly: 'help.word_groups.yearly',
  tip: 'help.word_groups.tip',
  tax: 'help.word_groups.tax',
  export: 'help.word_groups.export',
};

/** The words a reader's language accepts for one topic, each as they type it; none, no block. */
function wordsBlocks(voice: Voice, groups: readonly HelpWords[]): types.KnownBlock[] {
  if (groups.length === 0) return [];
  const lines = groups.map(
    ({ id, words }) =>
      `• ${voice.t('help.words_line', {
        label: mrkdwn(voice.t(WORDS_KEYS[id])),
        words: words.map((w) => `\`${mrkdwn(w)}\``).join(', '),
      })}`,
  );
  return [section([`*${mrkdwn(voice.t('help.words_title'))}*`, ...lines].join('\n'))];
}

/**
 * `/split help`: a header, then lines a person reads in one screen (the tests hold it to 30),
 * written with the words of the reader's language and its own examples, and the words that
 * language accepts, grouped as the topics are. Japanese readers type the English words.
 */
export function helpMessage(
  voice: Voice,
  input: {
    /** The topic asked for; null for the overview. */
    topic: HelpTopic | null;
    /** Words after `help` that name no topic: the overview says so. */
    asked?: string | null | undefined;
    /** Slack ids the reader can mention, put in the examples in place of `@ann`. */
    people?: readonly string[] | undefined;
  },
): SlackMessage {
  const people = input.people ?? [];
  const help = helpFor(grammarLanguageOf(voice.locale));
  const line = (l: HelpLine) =>
    `${exampleText(voice, l.example, people)} — ${inOwnWords(voice, voice.t(HELP_LINE_KEYS[l.id]))}`;
  const header = (text: string): types.HeaderBlock =>
    headerBlock({
      text: plainTextObject({ text: clip(plainText(text), LIMITS.headerText), emoji: true }),
    });
  if (input.topic !== null) {
    const keys = TOPIC_KEYS[input.topic];
    const title = voice.t(keys.title);
    return {
      text: clip(`${mrkdwn(title)}: ${voice.t(keys.about)}`, LIMITS.fallbackText),
      blocks: [
        header(title),
        section(help.details[input.topic].map(line).join('\n')),
        ...wordsBlocks(voice, help.words[input.topic]),
        context(voice.t('help.back')),
      ],
    };
  }
  const topics = HELP_TOPICS.map(
    (topic) =>
      `${mrkdwn(`/split ${help.helpWord} ${help.topicWords[topic]}`)} — ${voice.t(TOPIC_KEYS[topic].about)}`,
  );
  const blocks: types.KnownBlock[] = [header(voice.t('help.title'))];
  if (input.asked) {
    blocks.push(section(voice.t('help.unknown_topic', { asked: mrkdwn(input.asked) })));
  }
  blocks.push(
    section(help.overview.map(line).join('\n')),
    ...wordsBlocks(voice, help.words.overview),
    section([`*${voice.t('help.topics_title')}*`, ...topics].join('\n')),
    context(voice.t('help.amounts_note')),
  );
  return {
    text: clip(
      voice.t('help.fallback', { example: exampleText(voice, help.overview[0]!.example, people) }),
      LIMITS.fallbackText,
    ),
    blocks,
  };
}
