/** The expense grammar: puts the clauses together into one checked expense. */
import { currencyExponent, parseMinor } from '../money.js';
import { computeShares, FULL_PERCENT, type Split } from '../split.js';
import { tooLarge } from './amounts.js';
import { joinSpacedSums, minorOf } from './arithmetic.js';
import { chooseCost, takeEach, takeNumbers } from './cost.js';
import { takeDate, ymd } from './dates.js';
import { descriptionOf } from './description.js';
import { EX, fail, ParseFailure, stop } from './errors.js';
import { addExtras, takeExtras } from './extras.js';
import { takeGroup } from './group.js';
import { DEBT_WORDS } from './keywords.js';
import { takePayers } from './payers.js';
import { refuseNonPeople, takeExclusion, takePeople } from './people.js';
import { takeRepeat } from './repeat.js';
import { tokenize, wordIn } from './tokens.js';
import {
  MAX_AMOUNT_MAJOR,
  ME,
  type ParseContext,
  type ParseResult,
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
  try {
    const date = takeDate(tokens, scan.used, ctx);
    const repeat = takeRepeat(scan);
    return [date?.typed, repeat?.typed].filter((w): w is string => w !== undefined);
  } catch (error) {
    if (error instanceof ParseFailure) return [];
    throw error;
  }
}

export function parseExpense(typedTokens: Token[], ctx: ParseContext): ParseResult {
  const tokens = joinSpacedSums(typedTokens);
  refuseNonPeople(tokens, ctx);
  if (tokens.some((t) => wordIn(t, DEBT_WORDS))) {
    return fail(
      'debts',
      { pay: { example: '/split paid @ann 15' }, paid_me: { example: '/split @ann paid me 15' } },
      '/split paid @ann 15',
    );
  }
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const { used } = scan;
  // Dates first, so that "Nov 3" or "2026-11-20" never look like an amount.
  const date = takeDate(tokens, used, ctx);
  // Before any number is read, so that "every 2 weeks" is never an amount.
  const repeat = takeRepeat(scan);
  const extras = takeExtras(scan);
  const { payer, paid } = takePayers(scan);
  const { excludeMe, only } = takeExclusion(scan);
  const { group, currencyByIn, noGroup } = takeGroup(scan);
  const { people, meTyped } = takePeople(scan);
  for (const id of paid ? paid.map((p) => p.id) : [payer]) {
    if (id !== ME && !people.some((p) => p.id === id)) people.push({ id, value: null });
  }
  if (meTyped && excludeMe) stop('me_and_except_me');
  const { candidates, headcount } = takeNumbers(scan);
  const cost = chooseCost(scan, candidates);
  const each = takeEach(scan, cost);

  // The currency: the cost's, else the one the per-person values agree on, else the default.
  const marks = people.flatMap((p) =>
    p.value?.kind === 'amount' && p.value.mark ? [p.value.mark] : [],
  );
  for (const p of paid ?? []) if (p.amount.mark) marks.push(p.amount.mark);
  if (cost?.mark) marks.unshift(cost.mark);
  if (currencyByIn) marks.unshift(currencyByIn);
  const codes = [...new Set(marks.map((m) => m.code))];
  if (codes.length > 1) {
    stop('one_currency', { codes: { and: codes } }, EX.currency);
  }
  const mark = marks[0] ?? null;
  const currency = mark?.code ?? ctx.defaultCurrency.toUpperCase();

  // Participants: everyone named, the payer too; me unless left out.
  const includeMe = !excludeMe && !(only && !meTyped);
  const participants = people.map((p) => p.id);
  if (includeMe && !participants.includes(ME)) participants.unshift(ME);
  const mentioned = people.some((p) => p.id !== ME);
  if (headcount !== null && mentioned && headcount !== participants.length) {
    stop(
      'headcount',
      { said: headcount, count: participants.length, me: includeMe ? 'yes' : 'no' },
      '/split 40 lunch @ann @bob @cho',
    );
  }
  const wholeGroup = !mentioned;
  if (wholeGroup && group === null && (noGroup || !ctx.channelHasGroup)) {
    if (!cost && candidates.length === 0) {
      const typed = tokens.map((t) => t.raw).join(' ');
      return fail('not_understood', {
        typed: typed.length > 60 ? `${typed.slice(0, 60)}…` : typed,
      });
    }
    return fail('who_shared');
  }

  // The split kind follows the values given.
  const valued = people.filter((p) => p.value !== null);
  const kinds = new Set(valued.map((p) => p.value!.kind));
  if (kinds.size > 1) {
    stop('one_kind', {}, EX.exact);
  }
  if (wholeGroup && valued.length > 0) stop('own_part_alone', {}, EX.exact);
  const kind = valued[0]?.value?.kind ?? null;
  const example = kind === 'percent' ? EX.percent : kind === 'shares' ? EX.shares : EX.exact;
  let split: Split = { kind: 'equal' };
  if (kind === 'amount') {
    split = {
      kind: 'exact',
      amounts: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'amount' }>;
        return { id: p.id, amount: minorOf(v, currency, example) };
      }),
    };
  } else if (kind === 'percent') {
    split = {
      kind: 'percent',
      percents: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'percent' }>;
        let basisPoints: number;
        try {
          basisPoints = parseMinor(v.decimal, 2);
        } catch {
          return stop('percent_decimals', { typed: v.raw }, example);
        }
        return { id: p.id, basisPoints };
      }),
    };
  } else if (kind === 'shares') {
    split = {
      kind: 'shares',
      shares: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'shares' }>;
        const count = Number(v.count);
        if (!/^\d+$/.test(v.count) || count < 1) {
          stop('shares_whole', { typed: v.raw }, example);
        }
        return { id: p.id, shares: count };
      }),
    };
  }

  const paidMinor = paid?.map((p) => ({
    id: p.id,
    amount: minorOf(p.amount, currency, EX.payers),
  }));
  if (paidMinor && (extras.tip || extras.tax)) {
    // What each payer paid is checked against the cost, and a tip or tax would change the cost
    // after that check: the payers would then no longer add up.
    return fail('payers_with_extras', {}, EX.payers);
  }
  if (paidMinor?.some((p) => p.amount === 0)) return fail('payer_paid_nothing', {}, EX.payers);
  let costMinor: number;
  let amountText: string;
  let eachMinor: number | null = null;
  if (cost) {
    const reading = cost.reading as { decimal: string };
    costMinor = minorOf({ ...cost, decimal: reading.decimal }, currency, EX.basic);
    amountText = cost.raw;
    if (each) {
      if (wholeGroup) stop('each_needs_people', {}, EX.each);
      if (split.kind !== 'equal') stop('each_equal_only', {}, EX.each);
      eachMinor = costMinor;
      costMinor *= participants.length;
      amountText = `${cost.raw} each`;
      if (costMinor > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(currency))
        tooLarge(amountText, currency, EX.basic);
    }
  } else if (paid && paidMinor) {
    // No total but what each payer paid: the total is what they paid together.
    costMinor = paidMinor.reduce((sum, p) => sum + p.amount, 0);
    amountText = paid.map((p) => p.amount.raw).join(' + ');
  } else if (split.kind === 'exact' && split.amounts.length >= 2) {
    // No total but an amount for each person: the total is their sum.
    costMinor = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    amountText = valued.map((p) => (p.value as { raw: string }).raw).join(' + ');
  } else if (split.kind === 'exact' && split.amounts.length === 1) {
    const only1 = valued[0]!;
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
  } else {
    return fail('no_amount');
  }
  if (costMinor === 0) return fail('zero');
  if (paidMinor) {
    const together = paidMinor.reduce((sum, p) => sum + p.amount, 0);
    if (together !== costMinor) {
      return fail(
        'payers_dont_add_up',
        { paid: { money: together, currency }, cost: { money: costMinor, currency } },
        EX.payers,
      );
    }
  }

  if (split.kind === 'exact') {
    const given = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    const valuedIds = new Set(split.amounts.map((a) => a.id));
    const open = participants.filter((id) => !valuedIds.has(id));
    const money = (minor: number) => ({ money: minor, currency });
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
  return {
    kind: 'expense',
    expense: {
      ...bill,
      currency,
      currencySource: mark?.source ?? 'default',
      currencyToken: mark?.token ?? null,
      amountText,
      each: eachMinor,
      description,
      participants,
      wholeGroup,
      payer,
      ...(paidMinor ? { payers: paidMinor } : {}),
      ...(repeat ? { repeat: repeat.repeat } : {}),
      group,
      ...(noGroup ? { noGroup: true as const } : {}),
      date: date ? ymd(date.date) : ctx.today,
    },
  };
}
