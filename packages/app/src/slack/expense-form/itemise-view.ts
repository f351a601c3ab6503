/**
 * The Itemise step of the expense form: items per person, shared items, tip and tax, a Preview
 * button and the preview itself (total and each share), shown before anything is booked. Pure:
 * data in, Block Kit out, within Slack's limits.
 */
import type { types } from '@slack/bolt';
import { EXPENSE_CALLBACKS, FORM } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  contextBlock,
  modalView,
  mrkdwnObject,
  sectionBlock,
  textInput,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import { input, type ModalView, metadata, plain, title, VIEW_LIMITS } from '../shared/modal.js';
import type { Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';
import type { ReceiptItems, StepBase } from './form.js';
import type { ItemiseTyped } from './itemise.js';

interface ItemiseStepInput extends StepBase {
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
  /** What a photo of the receipt was read as: its items listed, its tip and tax filled in. */
  receipt?: ReceiptItems | undefined;
}

/** "Burger $12.50 · Fries $4.00": the receipt's items, each name as the photo was read. */
function receiptItemsText(r: ReceiptItems, voice: Voice): string {
  const items = r.items.map((i) => `${mrkdwn(i.description)} ${voice.money(i.minor, r.currency)}`);
  return clip(voice.t('receipt.items_list', { items: items.join(' · ') }), LIMITS.sectionText);
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
    textInput({
      max_length: TYPED_MAX,
      placeholder: plain(placeholder, VIEW_LIMITS.placeholder),
      ...(value ? { initial_value: clip(value, TYPED_MAX) } : {}),
    }),
    { optional: true, ...(hint ? { hint } : {}) },
  );
}

/** What the step is for, and the receipt's items when a photo was read into the form. */
function itemiseNotes(
  info: string,
  receipt: ReceiptItems | undefined,
  voice: Voice,
): types.KnownBlock[] {
  return [
    contextBlock({ block_id: FORM.splitInfo, elements: [mrkdwnObject({ text: info })] }),
    ...(receipt && receipt.items.length > 0
      ? [
          contextBlock({
            block_id: FORM.receiptNote,
            elements: [mrkdwnObject({ text: receiptItemsText(receipt, voice) })],
          }),
        ]
      : []),
  ];
}

export function itemiseStepView(s: ItemiseStepInput, voice: Voice): ModalView {
  const { t } = voice;
  const subtotal = voice.money(s.subtotal, s.currency);
  // Examples written with the person's decimal mark, as they would type them.
  const items = `${amountInput(1250, 'EUR', voice)}+${amountInput(725, 'EUR', voice)}`;
  const receipt = s.receipt?.currency === s.currency ? s.receipt : undefined;
  const blocks = itemiseNotes(t('form.itemise_info', { subtotal }), receipt, voice);
  const amount = (minor: number | null) =>
    minor === null ? undefined : amountInput(minor, s.currency, voice);
  // Before anything is typed, the tip and tax read from the receipt.
  const typed = s.typed ?? {
    items: {},
    shared: '',
    tip: amount(receipt?.tip ?? null) ?? '',
    tax: amount(receipt?.tax ?? null) ?? '',
  };
  // The first step caps people at 50: with the 7 other blocks, well within 100.
  s.participants.slice(0, VIEW_LIMITS.viewBlocks - 8).forEach((id, index) => {
    blocks.push(
      field(
        `${FORM.valuePrefix}${index}`,
        s.names[id] ?? t('expense.someone'),
        items,
        typed.items[id],
      ),
    );
  });
  blocks.push(
    field(
      FORM.itemShared,
      t('form.shared_everyone'),
      `${amountInput(850, 'EUR', voice)}+4`,
      typed.shared,
    ),
    field(
      FORM.itemTip,
      t('form.tip'),
      t('form.tip_placeholder', { amount: '10' }),
      typed.tip,
      t('form.tip_hint'),
    ),
    field(
      FORM.itemTax,
      t('form.tax'),
      t('form.tax_placeholder', { amount: amountInput(640, 'EUR', voice) }),
      typed.tax,
      t('form.tax_hint'),
    ),
    actionsBlock({
      block_id: FORM.itemActions,
      elements: [
        buttonElement({
          action_id: FORM.itemPreview,
          text: plain(t('form.preview')),
          value: 'preview',
        }),
      ],
    }),
    sectionBlock({
      block_id: FORM.itemPreview,
      text: mrkdwnObject({ text: clip(s.preview ?? t('form.preview_prompt'), LIMITS.sectionText) }),
    }),
  );
  return modalView({
    callback_id: EXPENSE_CALLBACKS.itemiseStep,
    title: title(t('form.itemise_title')),
    submit: title(t(s.edit ? 'form.submit_edit' : 'form.submit_new')),
    close: title(t('form.back')),
    private_metadata: metadata(s.meta),
    blocks,
  });
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
