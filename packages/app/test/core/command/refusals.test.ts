/**
 * The parser returns its refusals, never throws them (core/command/errors.ts): each step that
 * refuses hands its error result up to parseCommand. Every refusal the parser can give is earned
 * here by a text, and must come back as an `error` result with its id: a step whose caller let
 * a refusal drop would read on and answer otherwise, and a throw would fail the test, since no
 * catch is left to turn it into an answer. And no file of the grammar throws or catches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSource } from '../../../../../scripts/architecture.js';
import {
  MAX_AMOUNT_CHARS,
  MAX_COMMAND_CHARS,
  type ParseContext,
  type ParseResult,
  PROBLEM_IDS,
  type ProblemId,
  parseAmount,
  parseCommand,
  parseSum,
} from '../../../src/core/command/index.js';
import { ANN, BOB, CHO, ctx } from './helpers.js';

const GERMAN: ParseContext = { ...ctx, locale: 'de-DE' };
const YEN: ParseContext = { ...ctx, defaultCurrency: 'JPY' };

/** A text for each refusal of parseCommand, and the reader it needs when not the default. */
const COMMANDS: Array<[ProblemId, string, ParseContext?]> = [
  ['too_long', `40 lunch ${ANN} ${'x'.repeat(MAX_COMMAND_CHARS)}`],
  ['amount_unreadable', `--3 lunch ${ANN}`],
  ['amount_unclear', `1.500 lunch ${ANN}`],
  ['amount_unclear_in_sum', `12+1.500 lunch ${ANN}`],
  ['amount_negative', `-5 lunch ${ANN}`],
  ['amount_signed', `+5 lunch ${ANN}`],
  ['no_cents', `1200.50 ramen ${ANN}`, YEN],
  ['too_many_decimals', `0.001 lunch ${ANN}`],
  ['too_large', `99999999999999999999 lunch ${ANN}`],
  ['sum_trailing_plus', `12+ lunch ${ANN}`],
  ['sum_double_plus', `12++3 lunch ${ANN}`],
  ['sum_minus', `12+-3 lunch ${ANN}`],
  ['sum_item_unreadable', `12+abc lunch ${ANN}`],
  ['sum_two_currencies', `€12+$3 lunch ${ANN}`],
  ['plain_digits', `1e3 lunch ${ANN}`],
  ['percent_whose', `40 lunch ${ANN} join 50%`],
  ['several_amounts', `€40 lunch $5 ${ANN}`],
  ['which_cost', `40 lunch 3 coffees ${ANN}`],
  ['shares_whole', `40 lunch ${ANN} 0x ${BOB} 1x`],
  ['shares_many_x', `40 lunch ${ANN} x2x`],
  ['percent_needs_number', `40 lunch ${ANN} %`],
  ['percent_negative', `40 lunch ${ANN} -40%`],
  ['percent_unreadable', `40 lunch ${ANN} %40`],
  ['percent_decimals', `40 lunch ${ANN} 33.333% ${BOB} 66.667%`],
  ['date_unreadable', `40 lunch ${ANN} 3/4/5/6`],
  ['no_such_date', `40 lunch ${ANN} Feb 30`],
  ['no_such_date_in_year', `40 lunch ${ANN} 2026-02-30`],
  ['no_such_month', `40 lunch ${ANN} 2026-13-01`],
  ['date_future', `40 lunch ${ANN} 2026-12-31`],
  ['date_too_old', `40 lunch ${ANN} 1999-01-01`],
  ['date_ambiguous', `40 lunch ${ANN} on 11/3`],
  ['two_dates', `40 lunch ${ANN} 2026-11-01 Nov 3`],
  ['debts', `${ANN} owes me 40`],
  ['me_and_except_me', `40 lunch me ${ANN} except me`],
  ['one_currency', `€40 dinner ${ANN} $25 ${BOB} €15`],
  ['headcount', `40 lunch among 3 ${ANN}`],
  ['not_understood', 'lunch'],
  ['who_shared', '40 lunch'],
  ['one_kind', `40 lunch ${ANN} 10 ${BOB} 2x`],
  ['own_part_alone', `40 lunch me 1x in Roommates`],
  ['payers_with_extras', `60 dinner paid by me 40 ${BOB} 20 +tip 10%`],
  ['payer_paid_nothing', `60 dinner paid by me 60 ${BOB} 0`],
  ['each_needs_people', '7 each coffee', { ...ctx, channelHasGroup: true }],
  ['each_equal_only', `$7 each coffee ${ANN} 3 ${BOB} 4`],
  ['total_or_part', `lunch ${ANN} 40`],
  ['no_amount', `lunch ${ANN}`],
  ['zero', `0 lunch ${ANN}`],
  ['payers_dont_add_up', `40 dinner paid by me 40 ${BOB} 30`],
  ['parts_over', `40 lunch ${ANN} 25 ${BOB} 20`],
  ['parts_short', `40 lunch except me ${ANN} 25 ${BOB} 10`],
  ['percents_over', `40 lunch ${ANN} 60% ${BOB} 50%`],
  ['percents_not_100', `40 lunch except me ${ANN} 60% ${BOB} 30%`],
  ['extra_negative', `80 dinner ${ANN} +tip -2`],
  ['extra_needs_value', `80 dinner ${ANN} +tip`],
  ['extra_twice', `80 dinner ${ANN} +tip 10% +tip 5%`],
  ['extra_over_100', `80 dinner ${ANN} +tip 150%`],
  ['default_clear_and_set', 'group default Roommates EUR clear'],
  ['default_needs_value', `group default Roommates me 60% ${ANN}`],
  ['default_no_amounts', `group default Roommates me 50 ${ANN} 50`],
  ['default_one_kind', `group default Roommates me 50% ${ANN} 1x`],
  ['default_percents_total', `group default Roommates me 60% ${ANN} 30%`],
  ['default_two_currencies', 'group default Roommates USD EUR'],
  ['feed_unknown', 'feed sometimes'],
  ['one_group', `40 lunch ${ANN} in Roommates no group`],
  ['how_much_paid', `60 dinner paid by me 40 ${BOB}`],
  ['who_paid', `40 lunch ${ANN} paid by`],
  ['several_payers_amounts', `40 lunch I paid 400, ${BOB} paid`],
  ['payers_once', `40 lunch paid by ${ANN} paid by ${BOB}`],
  ['payer_twice', `60 lunch paid by me 30 me 30`],
  ['payment_usergroup', 'paid <!here> 15'],
  ['payment_one_person', `paid ${ANN} ${BOB} 15`],
  ['payment_amount', `paid ${ANN}`],
  ['payment_one_amount', `paid ${ANN} 15 20`],
  ['payment_zero', `paid ${ANN} 0`],
  ['remind_who', 'remind'],
  ['one_person', `balance ${ANN} ${BOB}`],
  ['remind_extra', `remind ${ANN} tomorrow`],
  ['usergroup', '40 lunch <!subteam^S1|team>'],
  ['broadcast', '40 lunch <!here>'],
  ['unknown_person', '40 lunch @ann'],
  ['email_not_mention', '40 lunch ann@example.com'],
  ['two_values', `40 lunch ${ANN} 10 ${ANN} 20`],
  ['repeat_unsupported', `40 lunch ${ANN} every day`],
  ['repeat_how_often', `40 lunch ${ANN} repeat sometimes`],
  ['repeat_two', `40 lunch ${ANN} monthly weekly`],
  ['search_which_words', 'list about'],
  ['list_which_group', 'list in'],
  ['search_too_long', `list about ${'word '.repeat(50)}`],
  ['date_after_unreadable', 'list since'],
  ['range_backwards', 'list from 2026-11-20 to 2026-11-01'],
  ['person_or_group', `balance ${ANN} Roommates`],
  ['group_name_missing', 'group create'],
  ['group_who_joins', 'group add Roommates'],
  ['group_which_join', `group add ${CHO}`],
  ['group_which_delete', 'group delete'],
  ['group_which_use', 'group use'],
  ['group_unknown_sub', 'group juggle'],
  // The same refusals as a reader of another language meets them.
  ['two_dates', `40 Mittagessen ${ANN} gestern am 3.11.`, GERMAN],
  ['repeat_unsupported', `40 Mittagessen ${ANN} jeden Tag`, GERMAN],
];

/** Refusals of the field readers, parseAmount and parseSum, for a form's amount field. */
const FIELDS: Array<[ProblemId, 'amount' | 'sum', string]> = [
  ['amount_too_long', 'amount', '1'.repeat(MAX_AMOUNT_CHARS + 1)],
  ['amount_missing', 'amount', ' '],
  ['amount_not_one', 'amount', '12 lunch'],
  ['amount_negative', 'amount', '-12'],
  ['too_many_decimals', 'amount', '12.3456'],
  ['sum_missing', 'sum', ''],
  ['sum_not_one', 'sum', 'lunch'],
  ['sum_leading_plus', 'sum', '+5'],
  ['amount_unreadable_in_sum', 'sum', '12+1..5'],
  ['sum_two_currencies', 'sum', '€12+$3'],
  ['too_large', 'sum', '99999999999999+1'],
];

/**
 * The one refusal no text is known to earn: computeShares' own, said plainly behind the checks
 * that name what does not add up (expense.ts), which leave it nothing to refuse.
 */
const UNEARNED: ProblemId[] = ['does_not_add_up'];

const idOf = (result: ParseResult) => (result.kind === 'error' ? result.problem.id : result.kind);

describe('every refusal comes back as an error result', () => {
  for (const [id, text, context] of COMMANDS) {
    it(`${id}: ${text.slice(0, 60)}`, () => {
      expect(idOf(parseCommand(text, context ?? ctx))).toBe(id);
    });
  }
  for (const [id, reader, text] of FIELDS) {
    it(`${id} (${reader} field): ${text.slice(0, 60)}`, () => {
      const read = reader === 'amount' ? parseAmount(text, 'USD') : parseSum(text, 'USD');
      expect('problem' in read && read.problem.id).toBe(id);
    });
  }

  it('covers every refusal the parser has', () => {
    const earned = new Set([...COMMANDS.map(([id]) => id), ...FIELDS.map(([id]) => id)]);
    expect(PROBLEM_IDS.filter((id) => !earned.has(id) && !UNEARNED.includes(id))).toEqual([]);
  });
});

describe('the grammar', () => {
  const folder = new URL('../../../src/core/command/', import.meta.url).pathname;
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );

  it('neither throws nor catches, nor calls what throws for a bad number', () => {
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      maskSource(readFileSync(join(folder, file), 'utf8'))
        .split('\n')
        .flatMap((line, i) =>
          /\b(throw|try|catch|parseMinor|MoneyError)\b/.test(line) ? [`${file}:${i + 1}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
