/**
 * The expense form once its photo has been read: the fields the reading found filled in, what the
 * person typed meanwhile kept, and a line saying what was read, how sure, what was not, and which
 * sums of the receipt do not hold. Pure: the form as last shown and the reading in, the view out.
 *
 * Slack keeps what a person typed in an input across views.update while the input keeps its
 * block_id, and shows a new initial value only under a new block_id. So a field the reading
 * fills gets the next version of its block_id, and a field the person changed (or the message's
 * own words filled) keeps its block_id, and with it their text. Nothing is booked from here: the
 * person still submits the form.
 */
import type { types } from '@slack/bolt';
import type { ReadField, ReceiptFailureReason, ReceiptReading } from '../../../receipts/index.js';
import { EXPENSE_CALLBACKS, FORM } from '../../ids.js';
import { contextBlock, modalView, mrkdwnObject } from '../../kit/blocks.js';
import { clip } from '../../kit/limits.js';
import { mrkdwn, plainText } from '../../kit/text.js';
import type { ModalView } from '../../shared/modal.js';
import type { Voice } from '../../shared/voice.js';
import { amountInput } from '../amount.js';
import {
  blockVersion,
  DESCRIPTION_MAX,
  type ReadingDraft,
  type ReceiptItems,
  type StateValues,
  versionedBlockId,
} from '../form.js';
import { currencyOption } from '../views.js';
import { READ_FIELDS, tracked } from './read-fields.js';
import { megabytes } from './receipt.js';

/** How a reading ended, as the form tells it. */
export type ReadingOutcome =
  | { kind: 'read'; reading: ReceiptReading }
  | { kind: 'failed'; reason: ReceiptFailureReason; maxBytes: number }
  /** The replica reading it stopped mid-reading (a crash): not tried again. */
  | { kind: 'stopped' }
  /** The photo could not be fetched from Slack; `problem` is written for the person. */
  | { kind: 'not_fetched'; problem: string };

/** Below this the reader's own confidence, a field is left empty and named as not read. */
export const FILL_CONFIDENCE = 0.5;

export interface FillContext {
  /** yyyy-MM-dd in the person's zone: a date after it is no date of a receipt. */
  today: string;
  /** The currency's symbol, for the currency select's option. */
  unit(code: string): string | undefined;
}

type Block = {
  type: string;
  block_id?: string;
  element?: Record<string, unknown>;
  dispatch_action?: boolean;
  [key: string]: unknown;
};

const sure = <T>(field: ReadField<T> | null): T | undefined =>
  field && field.confidence >= FILL_CONFIDENCE ? field.value : undefined;

/** What an input shows, as state values and its element name it. */
function shownValue(element: Record<string, unknown> | undefined, leaf: unknown): string {
  const l = (leaf ?? {}) as Record<string, unknown>;
  const e = element ?? {};
  const pick = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (e.type) {
    case 'datepicker':
      return leaf ? pick(l.selected_date) : pick(e.initial_date);
    case 'external_select':
    case 'static_select':
    case 'radio_buttons':
      return leaf
        ? pick((l.selected_option as { value?: unknown } | null)?.value)
        : pick((e.initial_option as { value?: unknown } | undefined)?.value);
    default:
      return leaf ? pick(l.value) : pick(e.initial_value);
  }
}

/** The form's inputs by base id, with what each shows now and whether the person changed it. */
function inputsOf(blocks: Block[], state: StateValues) {
  const find = (base: string) => {
    const index = blocks.findIndex(
      (b) => b.type === 'input' && blockVersion(b.block_id ?? '', base) !== undefined,
    );
    const block = blocks[index];
    if (!block) return undefined;
    const leaf = state[block.block_id ?? '']?.[base];
    const initial = shownValue(block.element, undefined);
    const now = shownValue(block.element, leaf);
    return { index, block, now, changed: leaf !== undefined && now !== initial };
  };
  return find;
}

/** The next version of an input, showing `element`'s initial value: Slack shows it afresh. */
function refill(block: Block, base: string, element: Record<string, unknown>): Block {
  const version = blockVersion(block.block_id ?? base, base) ?? 0;
  return {
    ...block,
    block_id: versionedBlockId(base, version + 1),
    element: { ...block.element, ...element },
  };
}

/** The same input, reporting no more changes now that the reading is done. */
function untracked(block: Block): Block {
  const { dispatch_action: _, ...rest } = block;
  const { dispatch_action_config: __, ...element } = block.element ?? {};
  return { ...rest, element };
}

function sureWord(confidences: number[]): 'high' | 'medium' | 'low' {
  const least = Math.min(...confidences);
  return least >= 0.8 ? 'high' : least >= FILL_CONFIDENCE ? 'medium' : 'low';
}

interface Filled {
  blocks: Block[];
  lines: string[];
  receipt?: ReceiptItems;
}

function fillFromReading(
  blocks: Block[],
  draft: ReadingDraft,
  reading: ReceiptReading,
  voice: Voice,
  ctx: FillContext,
): Filled {
  const { t } = voice;
  const input = inputsOf(blocks, draft.state ?? {});
  const persons = (base: string) => {
    const found = input(base);
    return found === undefined || found.changed || draft.kept.includes(base);
  };
  const set = (base: string, element: Record<string, unknown>) => {
    const found = input(base);
    if (found) blocks[found.index] = refill(found.block, base, element);
  };

  const code = sure(reading.currency);
  if (code && !persons(FORM.currency)) {
    set(FORM.currency, { initial_option: currencyOption(code, ctx.unit(code)) });
  }
  const currency =
    (code && !persons(FORM.currency) ? code : input(FORM.currency)?.now) || code || 'USD';
  const items = reading.items;
  const itemsSum = items.reduce((sum, item) => sum + item.minor, 0);
  const amountFree = !persons(FORM.amount);
  const itemise =
    items.length >= 2 &&
    reading.checks.itemsVsSubtotal?.ok === true &&
    reading.checks.partsVsTotal?.ok !== false &&
    reading.discount === null &&
    amountFree &&
    !input(FORM.split)?.changed &&
    // A split a group's default filled in (a later block_id) is left as it is.
    blockVersion(input(FORM.split)?.block.block_id ?? '', FORM.split) === 0;
  const subtotal = sure(reading.subtotal) ?? itemsSum;
  const total = sure(reading.total);
  const tip = (sure(reading.tip) ?? 0) + (sure(reading.serviceCharge) ?? 0) || null;
  const tax = reading.checks.taxIncluded ? null : (sure(reading.tax) ?? null);
  const cost = itemise ? subtotal : total;
  if (cost !== undefined && amountFree) {
    set(FORM.amount, { initial_value: clip(amountInput(cost, currency, voice), 40) });
  }
  const date = sure(reading.date);
  const dateFits = date !== undefined && date <= ctx.today;
  if (date && dateFits && !persons(FORM.date)) set(FORM.date, { initial_date: date });
  const merchant = sure(reading.merchant);
  if (merchant && !persons(FORM.description)) {
    set(FORM.description, { initial_value: clip(plainText(merchant.trim()), DESCRIPTION_MAX) });
  }
  if (itemise) {
    const split = input(FORM.split);
    const options = (split?.block.element?.options ?? []) as Array<{ value?: string }>;
    const option = options.find((o) => o.value === 'itemise');
    if (option) set(FORM.split, { initial_option: option });
  }

  const lines = readingLines(
    reading,
    { total, date: dateFits ? date : undefined, merchant, tip, tax, code, currency },
    voice,
  );
  if (!itemise) return { blocks, lines };
  lines.push(t('receipt.itemised'));
  return {
    blocks,
    lines,
    receipt: {
      currency,
      items: items.map((item) => ({
        description: clip(item.description, 100),
        minor: item.minor,
      })),
      tip,
      tax,
    },
  };
}

/** What was read, how sure, what was not, and whether the figures agree: the lines shown. */
function readingLines(
  reading: ReceiptReading,
  read: {
    total: number | undefined;
    /** Left out when it lies ahead of today: a date no expense can have. */
    date: string | undefined;
    merchant: string | undefined;
    tip: number | null;
    tax: number | null;
    code: string | undefined;
    currency: string;
  },
  voice: Voice,
): string[] {
  const { t } = voice;
  const { total, date, merchant, tip, tax, code, currency } = read;
  const items = reading.items;
  const parts: string[] = [];
  const confidences: number[] = [];
  const money = (minor: number) => voice.money(minor, currency);
  if (total !== undefined && reading.total) {
    parts.push(t('receipt.part_total', { amount: money(total) }));
    confidences.push(reading.total.confidence);
  }
  if (date && reading.date) {
    parts.push(t('receipt.part_date', { date: voice.date(date) }));
    confidences.push(reading.date.confidence);
  }
  if (merchant && reading.merchant) {
    parts.push(t('receipt.part_merchant', { name: mrkdwn(clip(merchant, 100)) }));
    confidences.push(reading.merchant.confidence);
  }
  if (items.length > 0) parts.push(t('receipt.part_items', { count: items.length }));
  if (tip) parts.push(t('receipt.part_tip', { amount: money(tip) }));
  if (tax) parts.push(t('receipt.part_tax', { amount: money(tax) }));
  const lines: string[] = [];
  if (parts.length > 0) {
    lines.push(t('receipt.read', { sure: sureWord(confidences), parts: voice.list(parts) }));
  }
  const missing = [
    total === undefined ? t('receipt.field_total') : '',
    code === undefined ? t('receipt.field_currency') : '',
    date === undefined ? t('receipt.field_date') : '',
    merchant === undefined ? t('receipt.field_merchant') : '',
  ].filter((m) => m !== '');
  if (missing.length > 0) {
    lines.push(t('receipt.not_read', { fields: voice.list(missing), count: missing.length }));
  }
  // The one amount the reader settled by the sums is never filled in silently.
  for (const item of items) {
    if (item.read === undefined) continue;
    lines.push(
      t('receipt.item_settled', {
        item: mrkdwn(clip(item.description, 60)),
        read: money(item.read),
        amount: money(item.minor),
      }),
    );
  }
  const { itemsVsSubtotal, partsVsTotal } = reading.checks;
  if (itemsVsSubtotal && !itemsVsSubtotal.ok) {
    lines.push(
      t('receipt.items_off', {
        items: money(itemsVsSubtotal.expected),
        subtotal: money(itemsVsSubtotal.printed),
      }),
    );
  }
  if (partsVsTotal && !partsVsTotal.ok) {
    lines.push(
      t('receipt.total_off', {
        parts: money(partsVsTotal.expected),
        total: money(partsVsTotal.printed),
      }),
    );
  }
  return lines;
}

/** Why a photo could not be read, for the person. */
function failureLine(outcome: Exclude<ReadingOutcome, { kind: 'read' }>, voice: Voice): string {
  switch (outcome.kind) {
    case 'stopped':
      return voice.t('receipt.stopped');
    case 'not_fetched':
      return voice.t('receipt.not_fetched', { problem: outcome.problem });
    case 'failed':
      return voice.t('receipt.failed', {
        reason: outcome.reason,
        max: megabytes(outcome.maxBytes, voice),
      });
  }
}

/**
 * The form as it should be shown once the reading is over; `receipt` is what the Itemise step
 * starts from when the form was switched to it.
 */
export function filledForm(
  draft: ReadingDraft,
  outcome: ReadingOutcome,
  voice: Voice,
  ctx: FillContext,
): { view: ModalView; receipt?: ReceiptItems } {
  const tracked = new Set<string>(READ_FIELDS);
  const base = (draft.view.blocks as Block[]).map((b) =>
    b.type === 'input' &&
    [...tracked].some((id) => blockVersion(b.block_id ?? '', id) !== undefined)
      ? untracked(b)
      : { ...b },
  );
  const filled: Filled =
    outcome.kind === 'read'
      ? fillFromReading(base, draft, outcome.reading, voice, ctx)
      : { blocks: base, lines: [failureLine(outcome, voice)] };
  const note = contextBlock({
    block_id: FORM.receiptNote,
    elements: [mrkdwnObject({ text: clip(filled.lines.join('\n'), 3000) })],
  }) as unknown as Block;
  const at = filled.blocks.findIndex((b) => b.block_id === FORM.receiptNote);
  if (at >= 0) filled.blocks[at] = note;
  else filled.blocks.unshift(note);
  const view = keptModal(draft.view, draft.view.meta, filled.blocks);
  return filled.receipt ? { view, receipt: filled.receipt } : { view };
}

/**
 * The form submitted with a photo chosen and no amount: shown again as it was (Slack keeps what
 * was typed under the same block_ids), saying the photo is being read, its fields reporting
 * their changes meanwhile.
 */
export function readingForm(
  view: { blocks: unknown[]; title: unknown; submit?: unknown; close?: unknown },
  meta: string,
  voice: Voice,
): ModalView {
  const read = new Set<string>(READ_FIELDS);
  const blocks = (view.blocks as Block[])
    .filter((b) => b.block_id !== FORM.receiptNote)
    .map((b) =>
      b.type === 'input' && [...read].some((id) => blockVersion(b.block_id ?? '', id) !== undefined)
        ? (tracked(b as unknown as types.InputBlock) as unknown as Block)
        : b,
    );
  blocks.unshift(
    contextBlock({
      block_id: FORM.receiptNote,
      elements: [mrkdwnObject({ text: voice.t('receipt.reading') })],
    }) as unknown as Block,
  );
  return keptModal(view, meta, blocks);
}

/** The form again with new blocks, its title and buttons as Slack last showed them. */
function keptModal(
  view: { title: unknown; submit?: unknown; close?: unknown },
  meta: string,
  blocks: Block[],
): ModalView {
  return modalView({
    callback_id: EXPENSE_CALLBACKS.form,
    title: view.title as types.PlainTextElement,
    ...(view.submit ? { submit: view.submit as types.PlainTextElement } : {}),
    ...(view.close ? { close: view.close as types.PlainTextElement } : {}),
    private_metadata: meta,
    blocks: blocks as unknown as types.KnownBlock[],
  }) as ModalView;
}
