/**
 * The Itemise step of the expense form: items per person, shared items, tip and tax, a Preview
 * button and the preview itself (total and each share), shown before anything is booked. Pure:
 * data in, Block Kit out, within Slack's limits.
 */
import type { types } from '@slack/bolt';
import { EXPENSE_CALLBACKS, FORM } from '../ids.js';
import { money } from '../shared/format.js';
import { clip, LIMITS } from '../shared/limits.js';
import { input, type ModalView, metadata, plain, title, VIEW_LIMITS } from '../shared/modal.js';
import type { ItemiseTyped } from './itemise.js';

interface ItemiseStepInput {
  /** The first step's amount: the subtotal, before tip and tax. */
  subtotal: number;
  currency: string;
  participants: string[];
  /** Display names by Slack id (labels are plain text). */
  names: Record<string, string>;
  /** What was typed, shown again when the view is redrawn. */
  typed?: ItemiseTyped | undefined;
  /** The preview as mrkdwn; undefined before the person first asks for one. */
  preview?: string | undefined;
  meta: string;
  locale?: string | undefined;
}

/** What a typed value may hold: a sum of items is short; anything longer was pasted by mistake. */
const TYPED_MAX = 200;

function field(
  id: string,
  label: string,
  placeholder: string,
  value: string | undefined,
  hint?: string,
): types.InputBlock {
  return input(
    id,
    label,
    {
      type: 'plain_text_input',
      max_length: TYPED_MAX,
      placeholder: plain(placeholder, VIEW_LIMITS.placeholder),
      ...(value ? { initial_value: clip(value, TYPED_MAX) } : {}),
    },
    { optional: true, ...(hint ? { hint } : {}) },
  );
}

export const PREVIEW_PROMPT = 'Press Preview to see the total and each share before booking.';

export function itemiseStepView(s: ItemiseStepInput): ModalView {
  const subtotal = money(s.subtotal, s.currency, s.locale);
  const blocks: types.KnownBlock[] = [
    {
      type: 'context',
      block_id: FORM.splitInfo,
      elements: [
        {
          type: 'mrkdwn',
          text: `Items of *${subtotal}* (before tip and tax). Type each person's items with + between them. People left empty share what the items leave; shared items are split among everyone.`,
        },
      ],
    },
  ];
  // The first step caps people at 50: with the 6 other blocks, well within 100.
  s.participants.slice(0, VIEW_LIMITS.viewBlocks - 7).forEach((id, index) => {
    blocks.push(
      field(
        `${FORM.valuePrefix}${index}`,
        s.names[id] ?? 'Someone',
        '12.50+7.25',
        s.typed?.items[id],
      ),
    );
  });
  blocks.push(
    field(FORM.itemShared, 'Shared by everyone', '8.50+4', s.typed?.shared),
    field(
      FORM.itemTip,
      'Tip',
      '15% or 10',
      s.typed?.tip,
      'A percentage is of the items, before tax.',
    ),
    field(
      FORM.itemTax,
      'Tax',
      '8% or 6.40',
      s.typed?.tax,
      'A percentage is of the items, before tip.',
    ),
    {
      type: 'actions',
      block_id: FORM.itemActions,
      elements: [
        { type: 'button', action_id: FORM.itemPreview, text: plain('Preview'), value: 'preview' },
      ],
    },
    {
      type: 'section',
      block_id: FORM.itemPreview,
      text: { type: 'mrkdwn', text: clip(s.preview ?? PREVIEW_PROMPT, LIMITS.sectionText) },
    },
  );
  return {
    type: 'modal',
    callback_id: EXPENSE_CALLBACKS.itemiseStep,
    title: title('Itemise'),
    submit: title('Book it'),
    close: title('Back'),
    private_metadata: metadata(s.meta),
    blocks,
  };
}

/** The preview a view shows, to tell whether the person saw the shares about to be booked. */
export function shownPreview(view: { blocks?: unknown[] | undefined }): string | undefined {
  const block = (view.blocks ?? []).find(
    (b): b is { block_id: string; text: { text: string } } =>
      typeof b === 'object' &&
      b !== null &&
      (b as { block_id?: unknown }).block_id === FORM.itemPreview,
  );
  return block?.text?.text;
}
