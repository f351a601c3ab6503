/**
 * `/split list`: one page of expenses, newest first, privately, with its paging and export
 * buttons, in the reader's voice. Pure, within 50 blocks.
 */
import type { types } from '@slack/bolt';
import { BLOCKS, LIST_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  headerBlock,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS, lineSections } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import type { Voice } from '../shared/voice.js';

export interface ListedExpense {
  id: number;
  /** As the service has it. */
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  /** Who paid, written for mrkdwn ("you", or names escaped and joined). */
  paidBy: string;
  /** What the person asking owes (minor units), null when they're not on it. */
  myShare: number | null;
  /** As the service has it. */
  group: string | null;
}

interface ListInput {
  /** What was asked for, as mrkdwn: "with <@U1>, in Roommates"; empty for everything. */
  filters: string;
  items: ListedExpense[];
  /** Which page this is, from 1. */
  page: number;
  /** Each button's value; a button without one is left out. */
  buttons: {
    previous?: string | undefined;
    next?: string | undefined;
    export?: string | undefined;
  };
  /** Said under the list (mrkdwn), e.g. how far the search read. */
  note?: string | undefined;
}

export function expenseListMessage(voice: Voice, input: ListInput): SlackMessage {
  const title = input.filters
    ? voice.t('split.list_title_filtered', { filters: input.filters })
    : voice.t('split.list_title_recent');
  const { buttons } = input;
  const actions = listActions(voice, input);
  const note: types.KnownBlock[] = input.note ? [context(input.note)] : [];
  if (input.items.length === 0) {
    const none =
      input.page > 1
        ? voice.t('split.list_no_older', { title: `*${title}*` })
        : voice.t('split.list_none', { title: `*${title}*` });
    return {
      text: clip(voice.t('split.list_none', { title }), LIMITS.fallbackText),
      blocks: [section(none), ...note, ...actions],
    };
  }
  const lines = input.items.map((e) => expenseLine(voice, e));
  const head: types.KnownBlock = headerBlock({
    text: plainTextObject({
      text: clip(
        plainText(
          voice.t(input.filters ? 'split.list_header_filtered' : 'split.list_title_recent'),
        ),
        LIMITS.headerText,
      ),
      emoji: true,
    }),
  });
  const asked: types.KnownBlock[] = input.filters ? [context(title)] : [];
  const shown =
    input.page === 1 && buttons.next === undefined
      ? voice.t('split.list_count', { count: input.items.length })
      : voice.t('split.list_page', {
          page: input.page,
          last: buttons.next === undefined ? 'yes' : 'no',
        });
  const foot: types.KnownBlock = context(input.note ? `${shown} ${input.note}` : shown);
  return {
    text: clip(
      voice.t('split.list_fallback', { title, count: input.items.length }),
      LIMITS.fallbackText,
    ),
    blocks: [
      head,
      ...asked,
      ...lineSections(
        lines,
        LIMITS.messageBlocks - 2 - asked.length - actions.length,
        voice.t('split.list_more'),
      ),
      foot,
      ...actions,
    ],
  };
}

/** Newer, older and export, each only when it has somewhere to go. */
function listActions(voice: Voice, input: ListInput): types.KnownBlock[] {
  const { buttons } = input;
  const button = (action_id: string, text: string, value: string): types.Button =>
    buttonElement({
      action_id,
      text: plainTextObject({ text: clip(plainText(text), LIMITS.buttonText) }),
      value,
    });
  const elements: types.Button[] = [];
  if (buttons.previous !== undefined)
    elements.push(button(LIST_ACTIONS.previous, voice.t('split.list_newer'), buttons.previous));
  if (buttons.next !== undefined)
    elements.push(button(LIST_ACTIONS.next, voice.t('split.list_older'), buttons.next));
  if (buttons.export !== undefined && input.items.length > 0)
    elements.push(button(LIST_ACTIONS.export, voice.t('split.list_export'), buttons.export));
  return elements.length > 0 ? [actionsBlock({ block_id: BLOCKS.listActions, elements })] : [];
}

/** One expense of the list: what, how much and when, then who paid, your share, group and id. */
function expenseLine(voice: Voice, e: ListedExpense): string {
  const m = (minor: number) => voice.money(minor, e.currency);
  const facts = [voice.t('split.list_paid_by', { payer: e.paidBy })];
  if (e.myShare !== null) facts.push(voice.t('split.list_your_share', { amount: m(e.myShare) }));
  if (e.group) facts.push(mrkdwn(e.group));
  facts.push(`#${e.id}`);
  return `*${mrkdwn(clip(e.description, 200))}* · ${m(e.cost)} · ${voice.date(e.date)}\n   ${facts.join(' · ')}`;
}
