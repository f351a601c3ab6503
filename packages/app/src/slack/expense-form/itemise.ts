/**
 * The form's Itemise step as data: each person's items (`12.50+7.25`), items everyone shares, a
 * tip and a tax, read by the same rules as `/split` and turned into exact owed amounts by
 * core/itemise.ts. Pure functions; the preview a person sees before booking is built here too.
 */
import { parseSum } from '../../core/command/index.js';
import { type BillSummary, computeItemised, type Extra } from '../../core/itemise.js';
import { MoneyError, parseMinor } from '../../core/money.js';
import type { Split } from '../../core/split.js';
import { FORM } from '../ids.js';
import { addendsText } from '../shared/breakdown.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import { troubleText } from '../shared/parse-problem.js';
import type { Voice } from '../shared/voice.js';
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
  const read = parseSum(text, currency);
  if ('problem' in read) {
    return {
      error: troubleText(voice, read.problem),
      ...(read.unreadable ? { unreadable: true as const } : {}),
    };
  }
  if (read.currency !== currency) {
    return {
      error: `That's in ${read.currency}: choose ${read.currency} under Currency in the first step, or type the numbers alone.`,
    };
  }
  return { minor: read.minor };
}

/** A tip or tax as typed: `15%` (or `15 %`, up to two decimals and 100%) or an amount. */
function readExtra(text: string, currency: string, voice: Voice): Extra | { error: string } {
  const percent = /^(\d+(?:[.,]\d+)?)\s*%$/.exec(text);
  if (percent) {
    let basisPoints: number;
    try {
      basisPoints = parseMinor(percent[1]!.replace(',', '.'), 2);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      return { error: 'A percentage takes at most two decimals, like 12.5%.' };
    }
    if (basisPoints > 10_000) return { error: 'Tip and tax go up to 100%.' };
    return { basisPoints };
  }
  const amount = readItems(text, currency, voice);
  if ('error' in amount) {
    // A specific fault in a sum ("ends with a +") is kept; the items' general advice ("type
    // numbers, like 12.50+7.25") would not fit a tip or tax, so it gives way to theirs.
    const advice = 'Write a percentage like 15% or an amount like 10.';
    return 'unreadable' in amount
      ? { error: `I can't read "${text}" as a tip or tax. ${advice}` }
      : { error: `${amount.error} ${advice}` };
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
    const amount = (minor: number) => money(minor, form.currency);
    const message =
      result.on === 'items'
        ? 'Enter at least one item.'
        : given > form.cost
          ? `The items come to ${amount(given)}, more than the amount (${amount(form.cost)} before tip and tax). Check the items, or go back and change the amount.`
          : `The items come to ${amount(given)}, ${amount(form.cost - given)} short of the amount (${amount(form.cost)}): leave someone empty to give them the rest, or put it under Shared.`;
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
  locale?: string | undefined,
): string {
  if ('errors' in checked) {
    const first = Object.values(checked.errors)[0] ?? 'Something is not right.';
    return clip(`:warning: ${mrkdwnEscape(first)}`, LIMITS.sectionText);
  }
  const { form, split, summary } = checked.itemised;
  const amount = (minor: number) => money(minor, form.currency, locale);
  const lines = [
    // The total once, in bold; what it is made of only when a tip or tax is in it.
    summary.tip || summary.tax
      ? `*Total ${amount(summary.total)}* · ${addendsText(summary, form.currency, locale)}`
      : `*Total ${amount(summary.total)}*`,
    ...(split.kind === 'exact' ? split.amounts : []).map(
      (a) => `• ${mrkdwnEscape(names[a.id] ?? 'Someone')}: *${amount(a.amount)}*`,
    ),
  ];
  // One section holds 3000 characters; 50 people at ~40 characters a line fit, and clip is the guard.
  return clip(lines.join('\n'), LIMITS.sectionText);
}
