/**
 * Tip and tax on top of the cost: `+tip 15%`, `+tax 8%`, `+tip 10`, and `tip 15%` (a percentage
 * only: without the plus, `tip 5` is as likely a description), in every language's words. The cost typed is the subtotal;
 * both are computed on it and spread in proportion to each person's part (core/itemise.ts).
 */
import { type Extra, withExtras } from '../itemise.js';
import { currencyExponent, readMinor } from '../money.js';
import type { ShareRow, Split } from '../split.js';
import { tooLarge } from './amounts.js';
import { amountOrSumAt, candidateMinor } from './arithmetic.js';
import { EX, fail, failWith, refused } from './errors.js';
import { isWord, word } from './tokens.js';
import {
  type AmountCandidate,
  type ErrorResult,
  MAX_AMOUNT_MAJOR,
  type ParsedExpense,
  type Scan,
} from './types.js';
import { ANYWHERE } from './words.js';

type Label = 'tip' | 'tax';

interface TypedExtra {
  label: Label;
  /** As typed, for messages. */
  raw: string;
  /** A percentage as a plain decimal (`15`, `12.5`), or an amount. */
  value: { percent: string } | { amount: AmountCandidate };
}

interface TypedExtras {
  tip: TypedExtra | null;
  tax: TypedExtra | null;
}

const PERCENT = /^(\d+(?:[.,]\d+)?)%$/;

/** Takes `+tip …` and `+tax …` out of the text, with their values. */
export function takeExtras({ tokens, used, ctx }: Scan): TypedExtras | ErrorResult {
  const found: TypedExtras = { tip: null, tax: null };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (used[i] || token?.t !== 'word') continue;
    let label: Label | undefined;
    let length = 1;
    let plus = true;
    // The words of every language (`+tip`, `+trinkgeld`, `+pourboire`, `propina 10%`...).
    if (token.lower.startsWith('+')) label = ANYWHERE.extras.one(word(token.raw.slice(1)));
    else if (token.lower === '+' && tokens[i + 1]?.t === 'word' && !used[i + 1]) {
      label = ANYWHERE.extras.one(tokens[i + 1]);
      length = 2;
    } else {
      label = ANYWHERE.extras.one(token);
      plus = false;
    }
    if (!label) continue;
    const typed = tokens
      .slice(i, i + length)
      .map((t) => t.raw)
      .join(' ');
    const at = i + length;
    const next = tokens[at];
    const nextRaw = next?.t === 'word' && !used[at] ? next.raw.replace(/[,;]$/, '') : '';
    let value: TypedExtra['value'] | null = null;
    let taken = 0;
    const percent = PERCENT.exec(nextRaw);
    if (percent) {
      value = { percent: percent[1]!.replace(',', '.') };
      taken = 1;
    } else if (/^\d+(?:[.,]\d+)?$/.test(nextRaw) && isWord(tokens[at + 1], '%')) {
      value = { percent: nextRaw.replace(',', '.') };
      taken = 2;
    } else if (plus && nextRaw !== '') {
      const amount = amountOrSumAt(tokens, at, ctx.defaultCurrency);
      if (refused(amount)) return amount;
      if (amount) {
        if ('problem' in amount.reading) return failWith(amount.reading.problem, EX.tip);
        if (amount.negative) return fail('extra_negative', { label, typed: amount.raw }, EX.tip);
        value = { amount };
        taken = amount.length;
      }
    }
    if (!value) {
      if (!plus) continue;
      return fail('extra_needs_value', { label, typed }, EX.tip);
    }
    if (found[label]) return fail('extra_twice', { label }, EX.tip);
    const raw = [typed, ...tokens.slice(at, at + taken).map((t) => t.raw)].join(' ');
    found[label] = { label, raw, value };
    for (let k = i; k < at + taken; k++) used[k] = true;
  }
  return found;
}

function extraOf(extra: TypedExtra | null, currency: string): Extra | ErrorResult | null {
  if (!extra) return null;
  if ('percent' in extra.value) {
    const basisPoints = readMinor(extra.value.percent, 2);
    if (typeof basisPoints !== 'number') {
      return fail('percent_decimals', { typed: extra.raw }, EX.tip);
    }
    if (basisPoints > 10_000) {
      const percent = { percent: basisPoints };
      return fail('extra_over_100', { label: extra.label, percent }, EX.tip);
    }
    return { basisPoints };
  }
  const { amount } = extra.value;
  if (amount.mark && amount.mark.code !== currency) {
    return fail('one_currency', { codes: { and: [currency, amount.mark.code] } }, EX.tip);
  }
  const reading = amount.reading as { decimal: string };
  const minor = candidateMinor(amount, reading.decimal, currency, EX.tip);
  return refused(minor) ? minor : { minor };
}

/**
 * The expense once tip and tax are added: the cost becomes the total; an exact split becomes each
 * person's part plus their share of tip and tax, and the other kinds keep their proportions.
 */
export function addExtras(
  extras: TypedExtras,
  bill: { cost: number; currency: string; participants: string[]; split: Split },
  shares: readonly ShareRow[],
): Pick<ParsedExpense, 'cost' | 'split' | 'itemised'> | ErrorResult {
  if (!extras.tip && !extras.tax) return { cost: bill.cost, split: bill.split };
  const tip = extraOf(extras.tip, bill.currency);
  if (refused(tip)) return tip;
  const tax = extraOf(extras.tax, bill.currency);
  if (refused(tax)) return tax;
  const exact = bill.split.kind === 'exact';
  const owedBy = new Map(shares.map((row) => [row.id, row.owed]));
  const parts = exact ? bill.participants.map((id) => owedBy.get(id) ?? 0) : [bill.cost];
  const { owed, summary } = withExtras(parts, tip, tax);
  if (summary.total > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(bill.currency)) {
    const typed = `${extras.tip?.raw ?? ''} ${extras.tax?.raw ?? ''}`.trim();
    return tooLarge(typed, bill.currency, EX.tip);
  }
  const split: Split = exact
    ? {
        kind: 'exact',
        amounts: bill.participants.map((id, i) => ({ id, amount: owed[i] ?? 0 })),
      }
    : bill.split;
  return { cost: summary.total, split, itemised: summary };
}
