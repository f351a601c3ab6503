/** The expense grammar: puts the clauses together into one checked expense. */
import { currencyExponent, readMinor } from '../money.js';
import { computeShares, FULL_PERCENT, type Split } from '../split.js';
import { tooLarge } from './amounts.js';
import { candidateMinor, joinSpacedSums, minorOf } from './arithmetic.js';
import { chooseCost, takeEach, takeNumbers } from './cost.js';
import { takeDate, ymd } from './dates.js';
import { descriptionOf } from './description.js';
import { EX, fail, refused } from './errors.js';
import { addExtras, takeExtras } from './extras.js';
import { takeGroup } from './group.js';
import { DEBT_WORDS } from './keywords.js';
import { takePayers } from './payers.js';
import { refuseNonPeople, takeExclusion, takePeople } from './people.js';
import { takeRepeat } from './repeat.js';
import { tokenize, wordIn } from './tokens.js';
import {
  type AmountCandidate,
  type CurrencyMark,
  type ErrorResult,
  MAX_AMOUNT_MAJOR,
  ME,
  type ParseContext,
  type ParsedExpense,
  type ParseResult,
  type Person,
  type Scan,
  type Token,
  type Value,
} from './types.js';
import { grammarOf } from './words.js';

/**
 * The words of `text` that say when and how often (`gestern`, `on 2026-11-20`, `monatlich`), as
 * typed: a form filled in from a message takes them out of its description, as it takes out the
 * amount. Empty when the text says neither, or cannot be read.
 */
export function whenWords(text: string, ctx: ParseContext): string[] {
  const tokens = tokenize(text);
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const date = takeDate(tokens, scan.used, ctx);
  if (refused(date)) return [];
  const repeat = takeRepeat(scan);
  if (refused(repeat)) return [];
  return [date?.typed, repeat?.typed].filter((w): w is string => w !== undefined);
}

type Paid = NonNullable<Exclude<ReturnType<typeof takePayers>, ErrorResult>['paid']>;
type PaidMinor = Array<{ id: string; amount: number }>;
type Money = (minor: number) => { money: number; currency: string };

export function parseExpense(typedTokens: Token[], ctx: ParseContext): ParseResult {
  const tokens = joinSpacedSums(typedTokens);
  const nonPerson = refuseNonPeople(tokens, ctx);
  if (nonPerson) return nonPerson;
  if (tokens.some((t) => wordIn(t, DEBT_WORDS))) {
    return fail(
      'debts',
      { pay: { example: '/split paid @ann 15' }, paid_me: { example: '/split @ann paid me 15' } },
      '/split paid @ann 15',
    );
  }
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const clauses = readClauses(scan);
  if (refused(clauses)) return clauses;
  const money = currencyOf(clauses, ctx);
  if (refused(money)) return money;
  const sharing = participantsOf(clauses);
  if (refused(sharing)) return sharing;
  const { group, noGroup, cost, candidates } = clauses;
  if (sharing.wholeGroup && group === null && (noGroup || !ctx.channelHasGroup)) {
    return whoSharedUnsaid(tokens, cost !== null || candidates.length > 0);
  }
  return pricedExpense(scan, clauses, money, sharing);
}

/** Who shares an expense. */
interface Sharing {
  participants: string[];
  wholeGroup: boolean;
}

/** The expense once its clauses are read: the split, the cost, and the checks that they agree. */
function pricedExpense(
  scan: Scan,
  clauses: Clauses,
  { mark, currency }: { mark: CurrencyMark | null; currency: string },
  { participants, wholeGroup }: Sharing,
): ParseResult {
  const { tokens, used, ctx } = scan;
  const { date, repeat, extras, payer, paid, group, noGroup, people, cost, each } = clauses;
  const valued = people.filter((p) => p.value !== null);
  const example = exampleOfKind(valued, wholeGroup);
  if (refused(example)) return example;
  const split = splitOf(valued, currency, example);
  if (refused(split)) return split;

  const paidMinor = paidInMinor(paid, extras, currency);
  if (refused(paidMinor)) return paidMinor;
  const total = totalOf({
    cost,
    each,
    paid,
    paidMinor,
    split,
    valued,
    wholeGroup,
    participants,
    currency,
  });
  if (refused(total)) return total;
  const { costMinor, amountText, eachMinor } = total;
  const money: Money = (minor) => ({ money: minor, currency });
  const unbalanced =
    payersDontAddUp(paidMinor, costMinor, money) ??
    partsDontAddUp(split, participants, costMinor, money, example);
  if (unbalanced) return unbalanced;
  const check = wholeGroup
    ? { shares: [] }
    : computeShares({ cost: costMinor, payer, participants, split, payers: paidMinor });
  // The checks above name what does not add up; what computeShares still refuses is said plainly.
  if ('error' in check) return fail('does_not_add_up', {}, example);

  const description = descriptionOf(tokens, used, grammarOf(ctx));
  const bill = addExtras(
    extras,
    { cost: costMinor, currency, participants, split },
    'shares' in check ? check.shares : [],
  );
  if (refused(bill)) return bill;
  // One literal without a spread, then the optional fields. Properties added after a spread cost
  // Node 20's V8 a trip through its runtime each (more than half of a whole parse there, see
  // bench/parse.ts); conditional spreads did the same on every Node.
  const expense: ParsedExpense = {
    cost: bill.cost,
    split: bill.split,
    currency,
    currencySource: mark?.source ?? 'default',
    currencyToken: mark?.token ?? null,
    amountText,
    each: eachMinor,
    description,
    participants,
    wholeGroup,
    payer,
    group,
    date: date ? ymd(date.date) : ctx.today,
  };
  if (bill.itemised) expense.itemised = bill.itemised;
  if (paidMinor) expense.payers = paidMinor;
  if (repeat) expense.repeat = repeat.repeat;
  if (noGroup) expense.noGroup = true;
  return { kind: 'expense', expense };
}

type Clauses = Exclude<ReturnType<typeof readClauses>, ErrorResult>;

/**
 * Takes each clause out of the tokens in turn; what no clause takes is the description. The
 * first clause that refuses what it reads is the answer.
 */
function readClauses(scan: Scan) {
  const { tokens, used, ctx } = scan;
  // Dates first, so that "Nov 3" or "2026-11-20" never look like an amount.
  const date = takeDate(tokens, used, ctx);
  if (refused(date)) return date;
  // Before any number is read, so that "every 2 weeks" is never an amount.
  const repeat = takeRepeat(scan);
  if (refused(repeat)) return repeat;
  const extras = takeExtras(scan);
  if (refused(extras)) return extras;
  const payers = takePayers(scan);
  if (refused(payers)) return payers;
  const { payer, paid } = payers;
  const { excludeMe, only } = takeExclusion(scan);
  const groups = takeGroup(scan);
  if (refused(groups)) return groups;
  const { group, currencyByIn, noGroup } = groups;
  const named = takePeople(scan);
  if (refused(named)) return named;
  const { people, meTyped } = named;
  for (const id of paid ? paid.map((p) => p.id) : [payer]) {
    if (id !== ME && !people.some((p) => p.id === id)) people.push({ id, value: null });
  }
  if (meTyped && excludeMe) return fail('me_and_except_me');
  const numbers = takeNumbers(scan);
  if (refused(numbers)) return numbers;
  const { candidates, headcount } = numbers;
  const cost = chooseCost(scan, candidates);
  if (refused(cost)) return cost;
  const each = takeEach(scan, cost);
  return {
    date,
    repeat,
    extras,
    payer,
    paid,
    excludeMe,
    only,
    group,
    currencyByIn,
    noGroup,
    people,
    meTyped,
    candidates,
    headcount,
    cost,
    each,
  };
}

/** Participants: everyone named, the payer too; me unless left out. */
function participantsOf(
  clauses: Clauses,
): { participants: string[]; wholeGroup: boolean } | ErrorResult {
  const { people, excludeMe, only, meTyped, headcount } = clauses;
  const includeMe = !excludeMe && !(only && !meTyped);
  const participants = people.map((p) => p.id);
  if (includeMe && !participants.includes(ME)) participants.unshift(ME);
  const mentioned = people.some((p) => p.id !== ME);
  if (headcount !== null && mentioned && headcount !== participants.length) {
    return fail(
      'headcount',
      { said: headcount, count: participants.length, me: includeMe ? 'yes' : 'no' },
      '/split 40 lunch @ann @bob @cho',
    );
  }
  return { participants, wholeGroup: !mentioned };
}

/** The split kind follows the values given, one kind only; its example goes with its troubles. */
function exampleOfKind(valued: Person[], wholeGroup: boolean): string | ErrorResult {
  const kinds = new Set(valued.map((p) => p.value!.kind));
  if (kinds.size > 1) {
    return fail('one_kind', {}, EX.exact);
  }
  if (wholeGroup && valued.length > 0) return fail('own_part_alone', {}, EX.exact);
  const kind = valued[0]?.value?.kind ?? null;
  return kind === 'percent' ? EX.percent : kind === 'shares' ? EX.shares : EX.exact;
}

/** What each of several payers paid, in minor units. */
function paidInMinor(
  paid: Paid | null,
  extras: Clauses['extras'],
  currency: string,
): PaidMinor | undefined | ErrorResult {
  const paidMinor: PaidMinor | undefined = paid ? [] : undefined;
  for (const p of paid ?? []) {
    const amount = minorOf(p.amount, currency, EX.payers);
    if (refused(amount)) return amount;
    paidMinor?.push({ id: p.id, amount });
  }
  if (paidMinor && (extras.tip || extras.tax)) {
    // What each payer paid is checked against the cost, and a tip or tax would change the cost
    // after that check: the payers would then no longer add up.
    return fail('payers_with_extras', {}, EX.payers);
  }
  if (paidMinor?.some((p) => p.amount === 0)) return fail('payer_paid_nothing', {}, EX.payers);
  return paidMinor;
}

/** The currency: the cost's, else the one the per-person values agree on, else the default. */
function currencyOf(
  { people, paid, cost, currencyByIn }: Clauses,
  ctx: ParseContext,
): { mark: CurrencyMark | null; currency: string } | ErrorResult {
  const marks = people.flatMap((p) =>
    p.value?.kind === 'amount' && p.value.mark ? [p.value.mark] : [],
  );
  for (const p of paid ?? []) if (p.amount.mark) marks.push(p.amount.mark);
  if (cost?.mark) marks.unshift(cost.mark);
  if (currencyByIn) marks.unshift(currencyByIn);
  const codes = [...new Set(marks.map((m) => m.code))];
  if (codes.length > 1) {
    return fail('one_currency', { codes: { and: codes } }, EX.currency);
  }
  const mark = marks[0] ?? null;
  return { mark, currency: mark?.code ?? ctx.defaultCurrency.toUpperCase() };
}

/** Nobody named and no group to share with: says what was not understood, or who is missing. */
function whoSharedUnsaid(tokens: Token[], amountTyped: boolean): ErrorResult {
  if (!amountTyped) {
    const typed = tokens.map((t) => t.raw).join(' ');
    return fail('not_understood', {
      typed: typed.length > 60 ? `${typed.slice(0, 60)}…` : typed,
    });
  }
  return fail('who_shared');
}

/** The split the per-person values say: exact amounts, percents, shares, else equal. */
function splitOf(valued: Person[], currency: string, example: string): Split | ErrorResult {
  const kind = valued[0]?.value?.kind ?? null;
  if (kind === 'amount') {
    const amounts: Array<{ id: string; amount: number }> = [];
    for (const p of valued) {
      const v = p.value as Extract<Value, { kind: 'amount' }>;
      const amount = minorOf(v, currency, example);
      if (refused(amount)) return amount;
      amounts.push({ id: p.id, amount });
    }
    return { kind: 'exact', amounts };
  }
  if (kind === 'percent') {
    const percents: Array<{ id: string; basisPoints: number }> = [];
    for (const p of valued) {
      const v = p.value as Extract<Value, { kind: 'percent' }>;
      const basisPoints = readMinor(v.decimal, 2);
      if (typeof basisPoints !== 'number')
        return fail('percent_decimals', { typed: v.raw }, example);
      percents.push({ id: p.id, basisPoints });
    }
    return { kind: 'percent', percents };
  }
  if (kind === 'shares') {
    const shares: Array<{ id: string; shares: number }> = [];
    for (const p of valued) {
      const v = p.value as Extract<Value, { kind: 'shares' }>;
      const count = Number(v.count);
      if (!/^\d+$/.test(v.count) || count < 1)
        return fail('shares_whole', { typed: v.raw }, example);
      shares.push({ id: p.id, shares: count });
    }
    return { kind: 'shares', shares };
  }
  return { kind: 'equal' };
}

interface TotalInputs {
  cost: AmountCandidate | null;
  each: boolean;
  paid: Paid | null;
  paidMinor: PaidMinor | undefined;
  split: Split;
  valued: Person[];
  wholeGroup: boolean;
  participants: string[];
  currency: string;
}

interface Total {
  costMinor: number;
  amountText: string;
  eachMinor: number | null;
}

/** The cost in minor units and as typed: the amount given, else what the payers or parts add to. */
function totalOf(t: TotalInputs): Total | ErrorResult {
  const { cost, paid, paidMinor, split, valued } = t;
  let total: Total;
  if (cost) {
    const typed = typedCost(cost, t);
    if (refused(typed)) return typed;
    total = typed;
  } else if (paid && paidMinor) {
    // No total but what each payer paid: the total is what they paid together.
    total = {
      costMinor: paidMinor.reduce((sum, p) => sum + p.amount, 0),
      amountText: paid.map((p) => p.amount.raw).join(' + '),
      eachMinor: null,
    };
  } else if (split.kind === 'exact' && split.amounts.length >= 2) {
    // No total but an amount for each person: the total is their sum.
    total = {
      costMinor: split.amounts.reduce((sum, a) => sum + a.amount, 0),
      amountText: valued.map((p) => (p.value as { raw: string }).raw).join(' + '),
      eachMinor: null,
    };
  } else if (split.kind === 'exact' && split.amounts.length === 1) {
    return totalOrPart(valued[0]!);
  } else {
    return fail('no_amount');
  }
  if (total.costMinor === 0) return fail('zero');
  return total;
}

/** The amount typed, times the people when it is what each pays. */
function typedCost(cost: AmountCandidate, t: TotalInputs): Total | ErrorResult {
  const { each, wholeGroup, split, participants, currency } = t;
  const reading = cost.reading as { decimal: string };
  const eachMinor = candidateMinor(cost, reading.decimal, currency, EX.basic);
  if (refused(eachMinor)) return eachMinor;
  if (!each) return { costMinor: eachMinor, amountText: cost.raw, eachMinor: null };
  if (wholeGroup) return fail('each_needs_people', {}, EX.each);
  if (split.kind !== 'equal') return fail('each_equal_only', {}, EX.each);
  const costMinor = eachMinor * participants.length;
  const amountText = `${cost.raw} each`;
  if (costMinor > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(currency))
    return tooLarge(amountText, currency, EX.basic);
  return { costMinor, amountText, eachMinor };
}

/** One amount for one person and no total: asks whether it is the total or their part. */
function totalOrPart(only1: Person): ErrorResult {
  const raw = (only1.value as { raw: string }).raw;
  // The person typed is one the reader can mention: the examples name them.
  const person = only1.id === ME ? '@ann' : `<@${only1.id}>`;
  return fail(
    'total_or_part',
    {
      amount: raw,
      who: only1.id === ME ? 'me' : 'other',
      person: { person: only1.id },
      splits: { example: `/split ${raw} lunch ${person}` },
      all: { example: `/split ${raw} lunch ${person} ${raw}` },
    },
    `/split ${raw} lunch ${person}`,
  );
}

function payersDontAddUp(
  paidMinor: PaidMinor | undefined,
  costMinor: number,
  money: Money,
): ErrorResult | null {
  if (!paidMinor) return null;
  const together = paidMinor.reduce((sum, p) => sum + p.amount, 0);
  if (together === costMinor) return null;
  return fail('payers_dont_add_up', { paid: money(together), cost: money(costMinor) }, EX.payers);
}

/** Exact parts over the cost or short of it with nobody left to pay the rest; percents likewise. */
function partsDontAddUp(
  split: Split,
  participants: string[],
  costMinor: number,
  money: Money,
  example: string,
): ErrorResult | null {
  if (split.kind === 'exact') {
    const given = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    const valuedIds = new Set(split.amounts.map((a) => a.id));
    const open = participants.filter((id) => !valuedIds.has(id));
    if (given > costMinor) {
      return fail('parts_over', { given: money(given), cost: money(costMinor) }, example);
    }
    if (given < costMinor && open.length === 0) {
      return fail(
        'parts_short',
        { given: money(given), short: money(costMinor - given), cost: money(costMinor) },
        example,
      );
    }
  }
  if (split.kind === 'percent') {
    const given = split.percents.reduce((sum, p) => sum + p.basisPoints, 0);
    const valuedIds = new Set(split.percents.map((p) => p.id));
    const open = participants.some((id) => !valuedIds.has(id));
    if (given > FULL_PERCENT) return fail('percents_over', { total: { percent: given } }, example);
    if (!open && given !== FULL_PERCENT) {
      return fail('percents_not_100', { total: { percent: given } }, example);
    }
  }
  return null;
}
