/**
 * The form's Itemise step as data: each person's items (`12.50+7.25`), items everyone shares, a
 * tip and a tax, read by the same rules as `/split` and turned into exact owed amounts by
 * core/itemise.ts. Pure functions; the preview a person sees before booking is built here too.
 */
import { MAX_AMOUNT_CHARS } from '../../core/command/index.js';
import { type BillSummary, computeItemised, type Extra } from '../../core/itemise.js';
import { MoneyError, parseMinor } from '../../core/money.js';
import type { Split } from '../../core/split.js';
import { FORM } from '../ids.js';
import { clip, LIMITS } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import { addendsText } from '../shared/breakdown.js';
import { sentences } from '../shared/expense-access.js';
import type { Voice } from '../shared/voice.js';
import { readTyped } from './amount.js';
import { type CheckedForm, type FieldErrors, type StateValues, valueBlockId } from './form.js';

/** The step's values as typed, to show them again when the view is redrawn. */
export interface ItemiseTyped {
  /** Each person's items, by Slack id. */
  items: Record<string, string>;
  shared: string;
  tip: string;
  tax: string;
}

interface ItemisedForm {
  /** The first step's form with the total as its cost. */
  form: CheckedForm;
  split: Split;
  summary: BillSummary;
}

function typedIn(values: StateValues, id: string): string {
  return (values[id]?.[id]?.value ?? '').trim();
}

/** What was typed in the step, by person and field. */
export function itemiseTyped(form: CheckedForm, values: StateValues): ItemiseTyped {
  const items: Record<string, string> = Object.create(null);
  form.participants.forEach((id, i) => {
    const text = typedIn(values, valueBlockId(i));
    if (text !== '') items[id] = text;
  });
  return {
    items,
    shared: typedIn(values, FORM.itemShared),
    tip: typedIn(values, FORM.itemTip),
    tax: typedIn(values, FORM.itemTax),
  };
}

function readItems(
  text: string,
  currency: string,
  voice: Voice,
): { minor: number } | { error: string; unreadable?: true } {
  const read = readTyped(text, currency, voice);
  if ('error' in read) return read;
  if (read.currency !== currency) {
    return { error: voice.t('form.items_other_currency', { currency: read.currency }) };
  }
  return { minor: read.minor };
}

/** A tip or tax as typed: `15%` (or `15 %`, up to two decimals and 100%) or an amount. */
function readExtra(text: string, currency: string, voice: Voice): Extra | { error: string } {
  // Too long a text is refused as an amount (readTyped) before the percentage's pattern reads it.
  const percent = text.length <= MAX_AMOUNT_CHARS ? /^(\d+(?:[.,]\d+)?)\s*%$/.exec(text) : null;
  if (percent) {
    let basisPoints: number;
    try {
      basisPoints = parseMinor(percent[1]!.replace(',', '.'), 2);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      return { error: voice.t('form.percent_two_decimals') };
    }
    if (basisPoints > 10_000) return { error: voice.t('form.extra_max') };
    return { basisPoints };
  }
  const amount = readItems(text, currency, voice);
  if ('error' in amount) {
    // A specific fault in an amount ("three decimals") is kept; a text that is no amount at all
    // is told as neither a percentage nor an amount.
    const advice = voice.t('form.extra_advice');
    return 'unreadable' in amount
      ? {
          error: sentences(
            voice,
            voice.t('form.extra_unreadable', { typed: clip(text, 40) }),
            advice,
          ),
        }
      : { error: sentences(voice, amount.error, advice) };
  }
  return amount;
}

/**
 * Reads and checks the step against the first step (whose amount is the subtotal, before tip and
 * tax). Field errors are keyed by block_id; a total that does not work goes under the first
 * person's items.
 */
export function checkItemiseStep(
  form: CheckedForm,
  values: StateValues,
  voice: Voice,
): { itemised: ItemisedForm } | { errors: FieldErrors } {
  const typed = itemiseTyped(form, values);
  const errors: FieldErrors = {};
  const items = new Map<string, number>();
  form.participants.forEach((id, i) => {
    const text = typed.items[id];
    if (text === undefined) return;
    const read = readItems(text, form.currency, voice);
    if ('error' in read) errors[valueBlockId(i)] = read.error;
    else items.set(id, read.minor);
  });
  let shared = 0;
  if (typed.shared !== '') {
    const read = readItems(typed.shared, form.currency, voice);
    if ('error' in read) errors[FORM.itemShared] = read.error;
    else shared = read.minor;
  }
  const extra = (text: string, block: string): Extra | null => {
    if (text === '') return null;
    const read = readExtra(text, form.currency, voice);
    if ('error' in read) {
      errors[block] = read.error;
      return null;
    }
    return read;
  };
  const tip = extra(typed.tip, FORM.itemTip);
  const tax = extra(typed.tax, FORM.itemTax);
  if (Object.keys(errors).length > 0) return { errors };

  const result = computeItemised({
    participants: form.participants,
    items,
    shared,
    subtotal: form.cost,
    tip,
    tax,
  });
  if ('error' in result) {
    const given = [...items.values()].reduce((a, b) => a + b, 0) + shared;
    const amount = (minor: number) => voice.money(minor, form.currency);
    const message =
      result.on === 'items'
        ? voice.t('form.items_none')
        : given > form.cost
          ? voice.t('form.items_over', { given: amount(given), subtotal: amount(form.cost) })
          : voice.t('form.items_under', {
              given: amount(given),
              short: amount(form.cost - given),
              subtotal: amount(form.cost),
            });
    return { errors: { [valueBlockId(0)]: message } };
  }
  return {
    itemised: {
      form: { ...form, cost: result.summary.total, values: { ...typed.items } },
      split: { kind: 'exact', amounts: result.owed },
      summary: result.summary,
    },
  };
}

/**
 * The preview under the inputs: the breakdown, the total and each person's share, or what is
 * wrong. Names are plain display names (a section in a modal is read by one person).
 */
export function previewText(
  checked: { itemised: ItemisedForm } | { errors: FieldErrors },
  names: Record<string, string>,
  voice: Voice,
): string {
  if ('errors' in checked) {
    const first = Object.values(checked.errors)[0] ?? voice.t('form.preview_wrong');
    // The errors quote what was typed: shown as text, as typed.
    return clip(`:warning: ${mrkdwn(first)}`, LIMITS.sectionText);
  }
  const { form, split, summary } = checked.itemised;
  const amount = (minor: number) => voice.money(minor, form.currency);
  const lines = [
    // The total once, in bold; what it is made of only when a tip or tax is in it.
    voice.t('form.preview_total', {
      total: amount(summary.total),
      addends: summary.tip || summary.tax ? addendsText(summary, form.currency, voice) : 'none',
    }),
    ...(split.kind === 'exact' ? split.amounts : []).map((a) => {
      const name = names[a.id];
      return `• ${voice.t('form.preview_line', {
        name: name === undefined ? voice.t('expense.someone') : mrkdwn(name),
        amount: amount(a.amount),
      })}`;
    }),
  ];
  // One section holds 3000 characters; 50 people at ~40 characters a line fit, and clip is the guard.
  return clip(lines.join('\n'), LIMITS.sectionText);
}
