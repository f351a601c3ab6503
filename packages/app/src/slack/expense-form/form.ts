/**
 * The expense form as data: reading a submission's state, checking it without any I/O (a
 * view_submission's answer must leave within 3 seconds, field errors included), and the small
 * private_metadata every form view carries. Pure functions.
 */
import { MoneyError, parseMinor } from '../../core/money.js';
import { computeShares, type ExactSplitValue, type Split } from '../../core/split.js';
import type { ExpenseShare, RepeatInterval } from '../../service/index.js';
import { FORM } from '../ids.js';
import { MAX_PEOPLE } from '../kit/limits.js';
import { percentText } from '../shared/breakdown.js';
import type { Voice } from '../shared/voice.js';
import { readAmount } from './amount.js';
import { megabytes, RECEIPT_MAX_BYTES } from './receipt/receipt.js';

export { encodeMeta, FormMeta, metaRefusal, parseMeta } from '../shared/modal.js';

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
/** What each step after the first takes: its form's metadata, and whether it saves an edit. */
export interface StepBase {
  meta: string;
  /** The step of an edit: its button saves, as the first step's does, rather than books. */
  edit?: boolean | undefined;
}

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
  files?: Array<{ id?: string; name?: string; size?: number; mimetype?: string }>;
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
export function versioned(
  values: StateValues,
  base: string,
): { blockId: string; leaf?: StateLeaf } {
  const blockId = Object.hasOwn(values, base)
    ? base
    : (Object.keys(values).find((id) => blockVersion(id, base) !== undefined) ?? base);
  const found = values[blockId]?.[base];
  return found ? { blockId, leaf: found } : { blockId };
}

interface CheckContext {
  /** yyyy-MM-dd in the person's zone. */
  today: string;
  /** true/false when the service's currency list is at hand, undefined when it is not. */
  knownCurrency(code: string): boolean | undefined;
}

export type FieldErrors = Record<string, string>;

/**
 * Reads and checks the first step. Field errors are keyed by block_id, as Slack wants them, and
 * written in the voice of the person filling it in (amounts are read as they write them).
 */
export function checkForm(
  values: StateValues,
  ctx: CheckContext,
  voice: Voice,
): { form: CheckedForm } | { errors: FieldErrors } {
  const { t } = voice;
  const errors: FieldErrors = {};
  // The fields a receipt's reading fills may be under a later block_id (receipt-fill.ts).
  const currencyIn = versioned(values, FORM.currency);
  const currency = currencyIn.leaf?.selected_option?.value?.toUpperCase() ?? '';
  if (currency === '') errors[currencyIn.blockId] = t('form.currency_missing');
  else if (!/^[A-Z]{3,4}$/.test(currency) || ctx.knownCurrency(currency) === false)
    errors[currencyIn.blockId] = t('form.currency_unknown', { currency: currency.slice(0, 10) });

  let cost = 0;
  const amountIn = versioned(values, FORM.amount);
  const amount = readAmount(amountIn.leaf?.value ?? '', currency || 'USD', voice);
  if ('error' in amount) errors[amountIn.blockId] = amount.error;
  else cost = amount.minor;

  const descriptionIn = versioned(values, FORM.description);
  const description = (descriptionIn.leaf?.value ?? '').trim();
  if (description === '') errors[descriptionIn.blockId] = t('form.description_missing');
  else if (description.length > DESCRIPTION_MAX)
    errors[descriptionIn.blockId] = t('form.description_long', { max: DESCRIPTION_MAX });

  const dateIn = versioned(values, FORM.date);
  const date = dateIn.leaf?.selected_date ?? ctx.today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) errors[dateIn.blockId] = t('form.date_missing');
  else if (date > ctx.today) errors[dateIn.blockId] = t('form.date_future');

  const category = Number(leaf(values, FORM.category)?.selected_option?.value ?? '');
  const groupValue = leaf(values, FORM.group)?.selected_option?.value ?? '0';
  const group = Number(groupValue);

  const { payer, alsoPaid, participants } = checkPeople(values, errors, voice);

  const methodValue = versioned(values, FORM.split).leaf?.selected_option?.value ?? 'equal';
  const method = (SPLIT_METHODS as readonly string[]).includes(methodValue)
    ? (methodValue as SplitMethod)
    : 'equal';
  if (method === 'itemise' && alsoPaid.length > 0 && !errors[FORM.alsoPaid]) {
    // The itemise step asks for items, not for what each payer paid.
    errors[FORM.alsoPaid] = t('form.itemise_one_payer');
  }
  const repeatValue = leaf(values, FORM.repeat)?.selected_option?.value ?? 'never';
  const repeat = (REPEATS as readonly string[]).includes(repeatValue)
    ? (repeatValue as RepeatInterval)
    : 'never';
  const notes = (leaf(values, FORM.notes)?.value ?? '').trim();
  if (notes.length > NOTES_MAX) errors[FORM.notes] = t('form.notes_long', { max: NOTES_MAX });
  const files = checkReceiptFiles(values, errors, voice);

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

/** Who paid and who shares it: someone besides the payer, and no more than the service takes. */
function checkPeople(
  values: StateValues,
  errors: FieldErrors,
  { t }: Voice,
): { payer: string; alsoPaid: string[]; participants: string[] } {
  const payer = leaf(values, FORM.payer)?.selected_user ?? '';
  if (payer === '') errors[FORM.payer] = t('form.payer_missing');
  const alsoPaid = [...new Set(leaf(values, FORM.alsoPaid)?.selected_users ?? [])].filter(
    (id) => id !== payer,
  );
  if (alsoPaid.length > MAX_PAYERS - 1) {
    errors[FORM.alsoPaid] = t('form.too_many_payers', { max: MAX_PAYERS });
  }
  const people = versioned(values, FORM.participants);
  const participants = [...new Set(people.leaf?.selected_users ?? [])];
  if (participants.length === 0 || (participants.length === 1 && participants[0] === payer)) {
    errors[people.blockId] = t('form.nobody');
  } else if (participants.length > MAX_PARTICIPANTS) {
    errors[people.blockId] = t('form.too_many_people', { max: MAX_PARTICIPANTS });
  }
  return { payer, alsoPaid, participants };
}

/** The receipt files to attach: those chosen, none too large, else the message's image. */
function checkReceiptFiles(values: StateValues, errors: FieldErrors, voice: Voice): string[] {
  const { t } = voice;
  const chosenFiles = leaf(values, FORM.receipt)?.files ?? [];
  const chosen = chosenFiles.map((f) => f.id).filter((id): id is string => typeof id === 'string');
  // Slack says each file's size: one too large for a receipt is named here, before anything is
  // fetched, and the expense can be booked once it is taken out.
  const oversized = chosenFiles.find(
    (f) => typeof f.size === 'number' && f.size > RECEIPT_MAX_BYTES,
  );
  if (oversized) {
    errors[FORM.receipt] = t('form.receipt_too_large', {
      name: oversized.name || t('form.that_file'),
      size: megabytes(oversized.size as number, voice),
      max: megabytes(RECEIPT_MAX_BYTES, voice),
    });
  }
  // The message's image ("Split this"), when still ticked and no other file was chosen.
  const fromMessage = (leaf(values, FORM.messageReceipt)?.selected_options ?? [])
    .map((o) => o.value)
    .filter((id): id is string => typeof id === 'string' && id !== '');
  return chosen.length > 0 ? chosen : fromMessage.slice(0, 1);
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
      errors[block] = voice.t('form.paid_missing');
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
    errors[paidBlockId(0)] = voice.t('form.paid_total', {
      together: voice.money(together, form.currency),
      cost: voice.money(form.cost, form.currency),
    });
  }
  return { payers: out, typed };
}

export function valueBlockId(index: number): string {
  return `${FORM.valuePrefix}${index}`;
}

/** Longest percentage read ("100.00 %" with room for spaces); a longer text is none, unread. */
const MAX_PERCENT_CHARS = 20;

/** Percent as typed ("33.33", "33,33 %") to basis points. */
function readPercent(text: string): number | undefined {
  if (text.length > MAX_PERCENT_CHARS) return undefined;
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
      if (bp === undefined || bp > 10_000) errors[block] = voice.t('form.percent_invalid');
      else percents.push({ id, basisPoints: bp });
    } else if (form.method === 'shares') {
      if (!/^\d{1,4}$/.test(text) || Number(text) < 1)
        errors[block] = voice.t('form.shares_invalid');
      else shares.push({ id, shares: Number(text) });
    }
  });
  if (Object.keys(errors).length > 0) return { errors };
  const everyoneTyped = Object.keys(typed).length === form.participants.length;
  const problem = totalProblem(form, { exact, percents, everyoneTyped }, voice);
  if (problem) return { errors: { [valueBlockId(0)]: problem } };
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
  if ('error' in result) {
    // What a person can type that does not add up is told above; this is what is left.
    const block = form.method === 'equal' ? paidBlockId(0) : valueBlockId(0);
    return { errors: { [block]: voice.t('form.split_failed') } };
  }
  return {
    form: { ...form, values: typed, ...(paid ? { paid: paid.typed } : {}) },
    split,
    ...(paid ? { payers: paid.payers } : {}),
  };
}

/**
 * Why the parts typed cannot make the whole cost (or 100%), said with the figures; undefined when
 * they can. Someone left empty shares what is left, so only a total over the whole is wrong then.
 */
function totalProblem(
  form: CheckedForm,
  parts: {
    exact: { amount: number }[];
    percents: { basisPoints: number }[];
    everyoneTyped: boolean;
  },
  voice: Voice,
): string | undefined {
  if (form.method === 'exact') {
    const given = parts.exact.reduce((sum, p) => sum + p.amount, 0);
    const figures = {
      given: voice.money(given, form.currency),
      cost: voice.money(form.cost, form.currency),
    };
    if (given > form.cost) return voice.t('form.exact_over', figures);
    if (parts.everyoneTyped && given < form.cost) return voice.t('form.exact_under', figures);
  }
  if (form.method === 'percent') {
    const given = parts.percents.reduce((sum, p) => sum + p.basisPoints, 0);
    const figures = { given: percentText(given, voice) };
    if (given > 10_000) return voice.t('form.percent_over', figures);
    if (parts.everyoneTyped && given !== 10_000) return voice.t('form.percent_not_whole', figures);
  }
  return undefined;
}

/** What the form keeps in the store between its requests (the store keeps it as written). */
export interface FormDraft {
  /** The first step's values, checked, while the second step is open. */
  form?: CheckedForm;
  /** An edit form: what it was pre-filled with. */
  edit?: EditBase;
  /** A form filled in from a booked expense (Duplicate): its parts, for the second step. */
  copy?: CheckedForm;
  /** A photo being read into the form, and what the form looks like meanwhile. */
  reading?: ReadingDraft;
  /** What a receipt's reading found for the Itemise step: its items, tip and tax. */
  receipt?: ReceiptItems;
  /** The file chosen in the form that was read already: a second Submit books, not reads. */
  read?: string;
}

/**
 * The form while its photo is read: the view as last put up (its hash, for the update that
 * fills it) and the state of its fields as the person's last change sent it.
 */
export interface ReadingDraft {
  view: { blocks: unknown[]; title: unknown; submit?: unknown; close?: unknown; meta: string };
  hash: string | undefined;
  state?: StateValues | undefined;
  /** Fields the message's own words filled ("Split this"), which the reading leaves as they are. */
  kept: string[];
}

/** A receipt's items in minor units of `currency`, and its tip and tax, for the Itemise step. */
export interface ReceiptItems {
  currency: string;
  items: { description: string; minor: number }[];
  tip: number | null;
  tax: number | null;
}

/**
 * Whether an edit's shares are those the expense has (the same people, each paying and owing the
 * same amounts), so that an edit that did not change them does not send them.
 */
export function sharesUnchanged(
  users: readonly ExpenseShare[],
  was: EditBase['shares'],
  exponent: number,
): boolean {
  const before = new Map(
    was.map((u) => [
      u.user_id,
      { paid: parseMinor(u.paid_share, exponent), owed: parseMinor(u.owed_share, exponent) },
    ]),
  );
  return (
    users.length === before.size &&
    users.every((u) => {
      if (!('user_id' in u)) return false;
      const found = before.get(u.user_id);
      return (
        found !== undefined &&
        found.paid === parseMinor(u.paid_share, exponent) &&
        found.owed === parseMinor(u.owed_share, exponent)
      );
    })
  );
}
