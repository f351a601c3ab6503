/**
 * The expense form as data: reading a submission's state, checking it without any I/O (a
 * view_submission's answer must leave within 3 seconds, field errors included), and the small
 * private_metadata every form view carries. Pure functions.
 */
import { parseAmount, parseSum } from '../../core/command/index.js';
import { currencyExponent, MoneyError, parseMinor, toDecimal } from '../../core/money.js';
import { computeShares, type ExactSplitValue, type Split } from '../../core/split.js';
import type { RepeatInterval } from '../../service/index.js';
import { FORM } from '../ids.js';
import { MAX_PEOPLE } from '../shared/limits.js';
import { troubleText } from '../shared/parse-problem.js';
import type { Voice } from '../shared/voice.js';
import { megabytes, RECEIPT_MAX_BYTES } from './receipt.js';

export { encodeMeta, FormMeta, parseMeta } from '../shared/modal.js';

/** How the form splits: a kind of split, or an itemised bill (which books exact amounts). */
export type SplitMethod = Split['kind'] | 'itemise';
const SPLIT_METHODS: readonly SplitMethod[] = ['equal', 'exact', 'percent', 'shares', 'itemise'];
const REPEATS: readonly RepeatInterval[] = ['never', 'weekly', 'fortnightly', 'monthly', 'yearly'];
/** The service's expense notes are long texts; a Slack input caps what can be typed. */
export const NOTES_MAX = 3000;
export const DESCRIPTION_MAX = 255;
/**
 * The second step has one input per participant and a modal holds 100 blocks; beyond this many
 * people a form is not the way to book it anyway. The same bound as a typed `/split`'s.
 */
export const MAX_PARTICIPANTS = MAX_PEOPLE;
/** Payers each get an input in the second step too; more than this is not a shared bill. */
export const MAX_PAYERS = 10;

/** A form's values once checked: amounts in minor units, people as Slack user ids. */
export interface CheckedForm {
  cost: number;
  currency: string;
  description: string;
  /** yyyy-MM-dd */
  date: string;
  category_id: number | null;
  group_id: number | null;
  participants: string[];
  payer: string;
  /** Others who paid part of it (Slack ids, without `payer`); absent or empty when one paid. */
  alsoPaid?: string[];
  /** What each payer paid, as typed in the second step, by Slack id (kept to pre-fill it). */
  paid?: Record<string, string>;
  method: SplitMethod;
  notes: string;
  repeat: RepeatInterval;
  /** Slack file ids of the receipt (the first is attached). */
  files: string[];
  /** Second-step values as typed, by Slack user id (kept to pre-fill it again). */
  values?: Record<string, string>;
}

/** What an edit form started from, to send only what changed. */
export interface EditBase {
  expense_id: number;
  form: CheckedForm;
  /** The shares as the service had them. */
  shares: { user_id: number; paid_share: string; owed_share: string }[];
  /** Service user id of each Slack user on it, as found when the form opened. */
  ids: Record<string, number>;
  /** False when someone on it is not in this Slack workspace: who shares it can't change here. */
  peopleEditable: boolean;
  /** The booker's Slack id, for the message shown after the edit. */
  bookedBy: string;
  /**
   * An itemised bill's breakdown line, kept out of the Notes field: it goes back unchanged while
   * the amounts stay, and is dropped once they change (it would describe a bill no longer there).
   */
  breakdown?: string | undefined;
}

type StateLeaf = {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_users?: string[];
  selected_user?: string | null;
  selected_date?: string | null;
  files?: Array<{ id?: string; name?: string; size?: number }>;
  selected_options?: Array<{ value?: string }>;
};
export type StateValues = Record<string, Record<string, StateLeaf>>;

function leaf(values: StateValues, id: string): StateLeaf | undefined {
  return values[id]?.[id];
}

/**
 * Slack keeps what a person chose in an input across views.update unless its block_id changes,
 * so inputs the form refills (who shares it and how, from a group's default) get a new block_id
 * each time: `form_participants~1`, `~2`, ... Their action_id stays the plain id.
 */
const VERSION_MARK = '~';

/** The version of `blockId` as a refilled `base` input: 0 for `base` itself. */
export function blockVersion(blockId: string, base: string): number | undefined {
  if (blockId === base) return 0;
  if (!blockId.startsWith(`${base}${VERSION_MARK}`)) return undefined;
  const version = blockId.slice(base.length + VERSION_MARK.length);
  return /^[1-9]\d{0,5}$/.test(version) ? Number(version) : undefined;
}

export function versionedBlockId(base: string, version: number): string {
  return version === 0 ? base : `${base}${VERSION_MARK}${version}`;
}

/** A refillable input's value and the block_id it is under now (where its errors go). */
function versioned(values: StateValues, base: string): { blockId: string; leaf?: StateLeaf } {
  const blockId = Object.hasOwn(values, base)
    ? base
    : (Object.keys(values).find((id) => blockVersion(id, base) !== undefined) ?? base);
  const found = values[blockId]?.[base];
  return found ? { blockId, leaf: found } : { blockId };
}

interface CheckContext {
  /** yyyy-MM-dd in the person's zone. */
  today: string;
  /** The person's: what the parser refuses is written in it. */
  voice: Voice;
  /** true/false when the service's currency list is at hand, undefined when it is not. */
  knownCurrency(code: string): boolean | undefined;
}

export type FieldErrors = Record<string, string>;

/**
 * An amount as a person types it ("12.50", "12,50", "1,234.50", "€12"), in `currency`, read by
 * the same parser as `/split` so that both accept the same things.
 */
export function readAmount(
  text: string,
  currency: string,
  voice: Voice,
): { minor: number } | { error: string } {
  const typed = text.trim();
  if (typed === '') return { error: 'Enter an amount, like 12.50.' };
  if (/^[-−]/.test(typed)) return { error: "The amount can't be negative." };
  // A sum of items (`12.50+7.25`) is read as in `/split`; a single amount keeps its own messages.
  const read = typed.includes('+') ? parseSum(typed, currency) : parseAmount(typed, currency);
  if ('problem' in read) return { error: troubleText(voice, read.problem) };
  if (read.currency !== currency) {
    return {
      error: `That's an amount in ${read.currency}: choose ${read.currency} under Currency, or type the number alone.`,
    };
  }
  if (read.minor <= 0) return { error: 'The amount must be more than zero.' };
  return { minor: read.minor };
}

/** Reads and checks the first step. Field errors are keyed by block_id, as Slack wants them. */
export function checkForm(
  values: StateValues,
  ctx: CheckContext,
): { form: CheckedForm } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const currency = leaf(values, FORM.currency)?.selected_option?.value?.toUpperCase() ?? '';
  if (currency === '') errors[FORM.currency] = 'Choose a currency.';
  else if (!/^[A-Z]{3,4}$/.test(currency) || ctx.knownCurrency(currency) === false)
    errors[FORM.currency] = `The expense service doesn't know the currency ${currency}.`;

  let cost = 0;
  const amount = readAmount(leaf(values, FORM.amount)?.value ?? '', currency || 'USD', ctx.voice);
  if ('error' in amount) errors[FORM.amount] = amount.error;
  else cost = amount.minor;

  const description = (leaf(values, FORM.description)?.value ?? '').trim();
  if (description === '') errors[FORM.description] = 'Say what it was for.';
  else if (description.length > DESCRIPTION_MAX)
    errors[FORM.description] = `Keep it under ${DESCRIPTION_MAX} characters; notes take the rest.`;

  const date = leaf(values, FORM.date)?.selected_date ?? ctx.today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) errors[FORM.date] = 'Pick a date.';
  else if (date > ctx.today) errors[FORM.date] = "That's in the future: pick today or earlier.";

  const category = Number(leaf(values, FORM.category)?.selected_option?.value ?? '');
  const groupValue = leaf(values, FORM.group)?.selected_option?.value ?? '0';
  const group = Number(groupValue);

  const payer = leaf(values, FORM.payer)?.selected_user ?? '';
  if (payer === '') errors[FORM.payer] = 'Who paid?';
  const alsoPaid = [...new Set(leaf(values, FORM.alsoPaid)?.selected_users ?? [])].filter(
    (id) => id !== payer,
  );
  if (alsoPaid.length > MAX_PAYERS - 1) {
    errors[FORM.alsoPaid] = `At most ${MAX_PAYERS} payers in one expense here.`;
  }
  const people = versioned(values, FORM.participants);
  const participants = [...new Set(people.leaf?.selected_users ?? [])];
  if (participants.length === 0 || (participants.length === 1 && participants[0] === payer)) {
    errors[people.blockId] = 'Nobody to split with: add the people who share it.';
  } else if (participants.length > MAX_PARTICIPANTS) {
    errors[people.blockId] = `At most ${MAX_PARTICIPANTS} people in one expense here.`;
  }

  const methodValue = versioned(values, FORM.split).leaf?.selected_option?.value ?? 'equal';
  const method = (SPLIT_METHODS as readonly string[]).includes(methodValue)
    ? (methodValue as SplitMethod)
    : 'equal';
  if (method === 'itemise' && alsoPaid.length > 0 && !errors[FORM.alsoPaid]) {
    // The itemise step asks for items, not for what each payer paid.
    errors[FORM.alsoPaid] =
      'Itemise books one payer: leave this empty, or split by exact amounts to record several.';
  }
  const repeatValue = leaf(values, FORM.repeat)?.selected_option?.value ?? 'never';
  const repeat = (REPEATS as readonly string[]).includes(repeatValue)
    ? (repeatValue as RepeatInterval)
    : 'never';
  const notes = (leaf(values, FORM.notes)?.value ?? '').trim();
  if (notes.length > NOTES_MAX) errors[FORM.notes] = `Keep notes under ${NOTES_MAX} characters.`;
  const chosenFiles = leaf(values, FORM.receipt)?.files ?? [];
  const chosen = chosenFiles.map((f) => f.id).filter((id): id is string => typeof id === 'string');
  // Slack says each file's size: one too large for a receipt is named here, before anything is
  // fetched, and the expense can be booked once it is taken out.
  const oversized = chosenFiles.find(
    (f) => typeof f.size === 'number' && f.size > RECEIPT_MAX_BYTES,
  );
  if (oversized) {
    errors[FORM.receipt] =
      `“${oversized.name || 'That file'}” is ${megabytes(oversized.size as number)}, larger than the ${megabytes(RECEIPT_MAX_BYTES)} a receipt can be. Remove it to book without a receipt, or choose a smaller one.`;
  }
  // The message's image ("Split this"), when still ticked and no other file was chosen.
  const fromMessage = (leaf(values, FORM.messageReceipt)?.selected_options ?? [])
    .map((o) => o.value)
    .filter((id): id is string => typeof id === 'string' && id !== '');
  const files = chosen.length > 0 ? chosen : fromMessage.slice(0, 1);

  if (Object.keys(errors).length > 0) return { errors };
  return {
    form: {
      cost,
      currency,
      description,
      date,
      category_id: Number.isInteger(category) && category > 0 ? category : null,
      group_id: Number.isInteger(group) && group > 0 ? group : null,
      participants,
      payer,
      ...(alsoPaid.length > 0 ? { alsoPaid } : {}),
      method,
      notes,
      repeat,
      files,
    },
  };
}

/** Everyone who paid part of it, in the order the second step lists them. */
export function payersOf(form: Pick<CheckedForm, 'payer' | 'alsoPaid'>): string[] {
  return form.alsoPaid && form.alsoPaid.length > 0 ? [form.payer, ...form.alsoPaid] : [];
}

/** Whether the form needs its second step: an unequal split, or several payers. */
export function needsSecondStep(form: CheckedForm): boolean {
  return form.method !== 'equal' || payersOf(form).length > 0;
}

export function paidBlockId(index: number): string {
  return `${FORM.paidPrefix}${index}`;
}

/** What each of several payers paid, checked against the cost; undefined when one paid it all. */
function checkPaid(
  form: CheckedForm,
  values: StateValues,
  errors: FieldErrors,
  voice: Voice,
): { payers: ExactSplitValue[]; typed: Record<string, string> } | undefined {
  const payers = payersOf(form);
  if (payers.length === 0) return undefined;
  const out: ExactSplitValue[] = [];
  const typed: Record<string, string> = {};
  payers.forEach((id, i) => {
    const block = paidBlockId(i);
    const text = (leaf(values, block)?.value ?? '').trim();
    if (text === '') {
      errors[block] = 'Type what this payer paid: each payer needs an amount.';
      return;
    }
    typed[id] = text;
    const amount = readAmount(text, form.currency, voice);
    if ('error' in amount) errors[block] = amount.error;
    else out.push({ id, amount: amount.minor });
  });
  if (Object.keys(errors).length > 0) return { payers: out, typed };
  const together = out.reduce((sum, p) => sum + p.amount, 0);
  if (together !== form.cost) {
    const exponent = currencyExponent(form.currency);
    errors[paidBlockId(0)] =
      `Together they paid ${toDecimal(together, exponent)}, but the cost is ${toDecimal(form.cost, exponent)} ${form.currency}: what each paid must add up to the cost.`;
  }
  return { payers: out, typed };
}

export function valueBlockId(index: number): string {
  return `${FORM.valuePrefix}${index}`;
}

/** Percent as typed ("33.33", "33,33 %") to basis points. */
function readPercent(text: string): number | undefined {
  const cleaned = text.replace(/%/g, '').replace(',', '.').trim();
  try {
    const bp = parseMinor(cleaned, 2);
    return bp >= 0 ? bp : undefined;
  } catch (error) {
    if (error instanceof MoneyError) return undefined;
    throw error;
  }
}

/**
 * Reads and checks the second step against the first: each person's value, then the whole split
 * through core's computeShares. A total that does not work is shown under the first value.
 */
export function checkSplitStep(
  form: CheckedForm,
  values: StateValues,
  voice: Voice,
): { form: CheckedForm; split: Split; payers?: ExactSplitValue[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const paid = checkPaid(form, values, errors, voice);
  const typed: Record<string, string> = {};
  const exact: { id: string; amount: number }[] = [];
  const percents: { id: string; basisPoints: number }[] = [];
  const shares: { id: string; shares: number }[] = [];
  form.participants.forEach((id, i) => {
    const block = valueBlockId(i);
    const text = (leaf(values, block)?.value ?? '').trim();
    if (text === '') return;
    typed[id] = text;
    if (form.method === 'exact') {
      if (/^0+(?:[.,]0*)?$/.test(text)) {
        exact.push({ id, amount: 0 });
        return;
      }
      const amount = readAmount(text, form.currency, voice);
      if ('error' in amount) errors[block] = amount.error;
      else exact.push({ id, amount: amount.minor });
    } else if (form.method === 'percent') {
      const bp = readPercent(text);
      if (bp === undefined || bp > 10_000)
        errors[block] = 'A percentage from 0 to 100, with at most two decimals.';
      else percents.push({ id, basisPoints: bp });
    } else if (form.method === 'shares') {
      if (!/^\d{1,4}$/.test(text) || Number(text) < 1)
        errors[block] = 'A whole number of shares, 1 or more.';
      else shares.push({ id, shares: Number(text) });
    }
  });
  if (Object.keys(errors).length > 0) return { errors };
  const split: Split =
    form.method === 'exact'
      ? { kind: 'exact', amounts: exact }
      : form.method === 'percent'
        ? { kind: 'percent', percents }
        : form.method === 'shares'
          ? { kind: 'shares', shares }
          : { kind: 'equal' };
  const result = computeShares({
    cost: form.cost,
    payer: form.payer,
    participants: form.participants,
    split,
    payers: paid?.payers,
  });
  if ('error' in result && form.method === 'equal') {
    return {
      errors: { [paidBlockId(0)]: `${result.error.replace(/^./, (c) => c.toUpperCase())}.` },
    };
  }
  if ('error' in result) {
    const text = result.error.replace(/^./, (c) => c.toUpperCase());
    const where =
      form.method === 'percent'
        ? "Percentages must make 100% (leave someone empty to give them what's left)."
        : form.method === 'exact'
          ? `The amounts must add up to the cost (leave someone empty to give them what's left).`
          : '';
    return { errors: { [valueBlockId(0)]: `${text}. ${where}`.trim() } };
  }
  return {
    form: { ...form, values: typed, ...(paid ? { paid: paid.typed } : {}) },
    split,
    ...(paid ? { payers: paid.payers } : {}),
  };
}

/** What the form keeps in the store between its requests (the store keeps it as written). */
export interface FormDraft {
  /** The first step's values, checked, while the second step is open. */
  form?: CheckedForm;
  /** An edit form: what it was pre-filled with. */
  edit?: EditBase;
  /** A form filled in from a booked expense (Duplicate): its parts, for the second step. */
  copy?: CheckedForm;
}
