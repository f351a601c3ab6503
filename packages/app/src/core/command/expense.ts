/** The expense grammar: puts the clauses together into one checked expense. */
import { currencyExponent, parseMinor, toDecimal } from '../money.js';
import { computeShares, type Split } from '../split.js';
import { tooLarge } from './amounts.js';
import { joinSpacedSums, minorOf } from './arithmetic.js';
import { chooseCost, takeEach, takeNumbers } from './cost.js';
import { takeDate, ymd } from './dates.js';
import { descriptionOf } from './description.js';
import { EX, fail, stop } from './errors.js';
import { addExtras, takeExtras } from './extras.js';
import { takeGroup } from './group.js';
import { DEBT_WORDS } from './keywords.js';
import { takePayers } from './payers.js';
import { refuseNonPeople, takeExclusion, takePeople } from './people.js';
import { takeRepeat } from './repeat.js';
import { wordIn } from './tokens.js';
import {
  MAX_AMOUNT_MAJOR,
  ME,
  type ParseContext,
  type ParseResult,
  type Scan,
  type Token,
  type Value,
} from './types.js';

export function parseExpense(typedTokens: Token[], ctx: ParseContext): ParseResult {
  const tokens = joinSpacedSums(typedTokens);
  refuseNonPeople(tokens);
  if (tokens.some((t) => wordIn(t, DEBT_WORDS))) {
    return fail(
      'I book shared expenses and payments, not debts. To record a payment, type `/split paid @ann 15` (or `/split @ann paid me 15`); Settle up in `/split balance` pays a whole balance.',
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
  const { group, currencyByIn } = takeGroup(scan);
  const { people, meTyped } = takePeople(scan);
  for (const id of paid ? paid.map((p) => p.id) : [payer]) {
    if (id !== ME && !people.some((p) => p.id === id)) people.push({ id, value: null });
  }
  if (meTyped && excludeMe) stop('You wrote both "me" and "except me": which is it?');
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
    stop(
      `One currency per expense, please: I see ${codes.join(' and ')}.`,
      '/split €40 dinner @ann €25 @bob €15',
    );
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
      `You said ${headcount} people, but I count ${participants.length}${includeMe ? ' (you included)' : ''}: mention each of them.`,
      '/split 40 lunch @ann @bob @cho',
    );
  }
  const wholeGroup = !mentioned;
  if (wholeGroup && group === null && !ctx.channelHasGroup) {
    if (!cost && candidates.length === 0) {
      const typed = tokens.map((t) => t.raw).join(' ');
      return fail(
        `I didn't understand "${typed.length > 60 ? `${typed.slice(0, 60)}…` : typed}". To book an expense, give the amount and mention people; \`/split help\` shows everything.`,
      );
    }
    return fail('Who shared it? Mention them with @ (type @ and pick from the list).');
  }

  // The split kind follows the values given.
  const valued = people.filter((p) => p.value !== null);
  const kinds = new Set(valued.map((p) => p.value!.kind));
  if (kinds.size > 1) {
    stop(
      'Use one kind of split: amounts for everyone, percentages for everyone, or shares (2x) for everyone.',
      EX.exact,
    );
  }
  if (wholeGroup && valued.length > 0) {
    stop('To give yourself a part, mention the others too.', EX.exact);
  }
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
          return stop(`Percentages take at most two decimals ("${v.raw}").`, example);
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
          stop(`Shares are whole numbers from 1 ("${v.raw}" is not).`, example);
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
    return fail(
      'With several payers, write the total with the tip and tax in it, and what each paid of it.',
      EX.payers,
    );
  }
  if (paidMinor?.some((p) => p.amount === 0)) {
    return fail('Each payer must have paid something: leave out whoever paid nothing.', EX.payers);
  }
  let costMinor: number;
  let amountText: string;
  let eachMinor: number | null = null;
  if (cost) {
    const reading = cost.reading as { decimal: string };
    costMinor = minorOf({ ...cost, decimal: reading.decimal }, currency, EX.basic);
    amountText = cost.raw;
    if (each) {
      if (wholeGroup)
        stop(
          '"each" needs the people mentioned, so that I can count them.',
          '/split $7 each coffee @ann @bob',
        );
      if (split.kind !== 'equal')
        stop('"each" is for equal splits only.', '/split $7 each coffee @ann @bob');
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
    const who = only1.id === ME ? 'your part' : `<@${only1.id}>'s part`;
    const raw = (only1.value as { raw: string }).raw;
    return fail(
      `Is ${raw} the total or ${who}? Put the total first: \`/split ${raw} lunch @ann\` splits it, \`/split ${raw} lunch @ann ${raw}\` gives it all to Ann.`,
      `/split ${raw} lunch @ann`,
    );
  } else {
    return fail('How much was it? I found no amount.');
  }
  if (costMinor === 0) return fail('The amount is zero: nothing to split.');
  if (paidMinor) {
    const exponent = currencyExponent(currency);
    const together = paidMinor.reduce((sum, p) => sum + p.amount, 0);
    if (together !== costMinor) {
      return fail(
        `The payers paid ${toDecimal(together, exponent)} together, but the cost is ${toDecimal(costMinor, exponent)} ${currency}: what each paid must add up to the cost.`,
        EX.payers,
      );
    }
  }

  if (split.kind === 'exact') {
    const exponent = currencyExponent(currency);
    const given = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    const valuedIds = new Set(split.amounts.map((a) => a.id));
    const open = participants.filter((id) => !valuedIds.has(id));
    const total = `${toDecimal(costMinor, exponent)} ${currency}`;
    if (given > costMinor) {
      return fail(
        `The parts add up to ${toDecimal(given, exponent)}, more than the cost (${total}).`,
        example,
      );
    }
    if (given < costMinor && open.length === 0) {
      return fail(
        `The parts add up to ${toDecimal(given, exponent)}, ${toDecimal(costMinor - given, exponent)} short of the cost (${total}): give the rest to someone.`,
        example,
      );
    }
  }
  const check = wholeGroup
    ? { shares: [] }
    : computeShares({ cost: costMinor, payer, participants, split, payers: paidMinor });
  if ('error' in check) {
    return fail(`That doesn't add up: ${check.error}.`, example);
  }

  const description = descriptionOf(tokens, used);
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
      ...(repeat ? { repeat } : {}),
      group,
      date: date ? ymd(date) : ctx.today,
    },
  };
}
