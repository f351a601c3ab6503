/**
 * The parser's refusals as a person reads them: every kind, reached by what people type, written
 * in every language with its values (no placeholder left, no message missing a value), and the
 * forms with people the reader can mention.
 */
import { describe, expect, it } from 'vitest';
import {
  type ParseContext,
  PROBLEM_IDS,
  type ProblemId,
  parseAmount,
  parseCommand,
  parseSum,
  resolveMe,
  type Trouble,
} from '../../../src/core/command/index.js';
import { exampleText } from '../../../src/slack/shared/examples.js';
import { troubleText } from '../../../src/slack/shared/parse-problem.js';
import { LANGUAGES, voiceFor } from '../../../src/voice/index.js';

const ctx: ParseContext = { today: '2026-11-21', defaultCurrency: 'USD' };
const bound: ParseContext = { ...ctx, channelHasGroup: true };
const ANN = '<@U0ANN|ann>';
const BOB = '<@U0BOB|bob>';
const CHO = '<@U0CHO|cho>';

/** Texts people type that are refused, at least one for each kind of refusal. */
const TYPED: Array<[string, ParseContext?]> = [
  ['x'.repeat(4001)],
  [`--5 lunch ${ANN}`],
  [`1.500 lunch ${ANN}`],
  [`12+1.2.3 lunch ${ANN}`],
  [`12+1.500 lunch ${ANN}`],
  [`-5 lunch ${ANN}`],
  [`+5 lunch ${ANN}`],
  [`¥12.50 lunch ${ANN}`],
  [`0.001 lunch ${ANN}`],
  [`2000000000 lunch ${ANN}`],
  [`40 lunch ${ANN} 12+`],
  [`12++3 lunch ${ANN}`],
  [`12+-3 lunch ${ANN}`],
  [`12+3x lunch ${ANN}`],
  [`€12+$3 lunch ${ANN}`],
  [`Infinity lunch ${ANN}`],
  [`40 lunch 60% ${ANN}`],
  [`€12 $40 lunch ${ANN}`],
  [`40 lunch ${ANN} 3 coffees`],
  [`40 lunch ${ANN} 0x`],
  [`40 lunch ${ANN} 2x3x`],
  [`40 lunch ${ANN} %`],
  [`40 lunch ${ANN} -40%`],
  [`40 lunch ${ANN} 40%%`],
  [`40 lunch ${ANN} 33.333% ${BOB} 66.667%`],
  [`40 lunch ${ANN} 2026-1-1-1`],
  [`40 lunch ${ANN} Feb 30`],
  [`40 lunch ${ANN} on 2026-02-30`],
  [`40 lunch ${ANN} on 2026-13-01`],
  [`40 lunch ${ANN} on 2026-12-25`],
  [`40 lunch ${ANN} on 1999-01-01`],
  [`40 lunch ${ANN} on 03/04`],
  [`40 lunch ${ANN} yesterday today`],
  [`I owe ${ANN} 12.34`],
  [`40 lunch me ${ANN} except me`],
  [`€40 dinner ${ANN} $25`],
  [`40 lunch ${ANN} among 4`],
  ['hello there'],
  ['40 lunch'],
  [`40 lunch ${ANN} 25 ${BOB} 50%`],
  ['40 lunch me 10', bound],
  [`60 dinner ${ANN} paid by me 40 ${BOB} 20 +tip 10%`],
  [`60 dinner ${ANN} paid by me 60 ${BOB} 0`],
  ['$7 each coffee', bound],
  [`$7 each coffee ${ANN} 2x ${BOB} 1x`],
  [`lunch ${ANN} 40`],
  [`lunch me 40 ${ANN}`],
  [`${ANN} lunch`],
  [`0 lunch ${ANN}`],
  [`60 dinner paid by me 40 ${BOB} 30`],
  [`40 lunch ${ANN} 25 ${BOB} 20`],
  [`40 lunch except me ${ANN} 25 ${BOB} 10`],
  [`40 lunch ${ANN} 60% ${BOB} 60%`],
  [`40 lunch except me ${ANN} 30% ${BOB} 30%`],
  [`40 lunch ${ANN} +tip -5`],
  [`40 lunch ${ANN} +tax`],
  [`40 lunch ${ANN} +tip 10% +tip 5%`],
  [`40 lunch ${ANN} +tip 150%`],
  [`group default Roommates me 50% ${ANN} 50% clear`],
  [`group default Roommates me 50% ${ANN}`],
  [`group default Roommates ${ANN} 50%`],
  [`group default Roommates me 20 ${ANN} 20`],
  [`group default Roommates me 50% ${ANN} 2x`],
  [`group default Roommates me 50% ${ANN} 40%`],
  ['group default Roommates USD EUR'],
  ['feed sideways'],
  ['40 lunch in Roommates for dinner in Attic'],
  [`60 dinner paid by me 40 ${BOB} ${CHO} 20`],
  [`40 lunch ${ANN} paid by`],
  [`60 dinner ${ANN} paid ${BOB} paid`],
  [`60 dinner paid by me 40 ${BOB} 20 paid by ${ANN}`],
  [`60 dinner paid by me 40 ${BOB} 10 ${BOB} 10`],
  [`60 dinner paid by ${ANN} 40 me 10 me 10`],
  ['paid <!subteam^S1|@team> 15'],
  [`paid ${ANN} ${BOB} 15`],
  [`paid ${ANN}`],
  [`${ANN} paid me`],
  [`paid ${ANN} 15 20`],
  [`paid ${ANN} 0`],
  ['remind'],
  [`remind ${ANN} ${BOB}`],
  [`remind ${ANN} now`],
  ['40 lunch <!subteam^S1|@team>'],
  ['40 lunch <!channel>'],
  ['40 lunch @ann'],
  ['40 lunch ann@example.com'],
  [`40 lunch ${ANN} 20 ${ANN} 20`],
  [`40 lunch me 20 me 20 ${ANN}`],
  [`40 lunch ${ANN} every day`],
  [`40 lunch ${ANN} repeat`],
  [`40 lunch ${ANN} monthly weekly`],
  ['list about'],
  ['list in'],
  [`list about ${'x'.repeat(201)}`],
  ['list since someday'],
  ['list from 2026-11-20 to 2026-11-01'],
  [`balance ${ANN} Roommates`],
  ['group create'],
  ['group add Roommates'],
  [`group add ${ANN}`],
  ['group delete'],
  ['group use'],
  ['group frobnicate'],
];

/** Every refusal the texts above, the amount fields and resolveMe give. */
function refusals(): Trouble[] {
  const found: Trouble[] = [];
  for (const [text, context] of TYPED) {
    const result = parseCommand(text, context ?? ctx);
    if (result.kind === 'error') found.push(result.problem);
  }
  for (const typed of ['', 'lunch', '-5', '1+'.repeat(300)]) {
    const read = parseAmount(typed, 'USD');
    if ('problem' in read) found.push(read.problem);
  }
  for (const typed of ['', '12 lunch', '+5', '12++3']) {
    const read = parseSum(typed, 'EUR');
    if ('problem' in read) found.push(read.problem);
  }
  const both = parseCommand(`40 lunch me 20 <@U0ME> 20 ${ANN}`, ctx);
  if (both.kind === 'expense') {
    const resolved = resolveMe(both.expense, 'U0ME');
    if ('problem' in resolved) found.push(resolved.problem);
  }
  return found;
}

describe('the refusals of the parser', () => {
  const found = refusals();

  it('are reached, every kind, by what people type', () => {
    const reached = new Set<ProblemId>(found.map((t) => t.id));
    // What computeShares refuses past the parser's own checks: nothing typed reaches it.
    const unreached = PROBLEM_IDS.filter((id) => !reached.has(id) && id !== 'does_not_add_up');
    expect(unreached).toEqual([]);
  });

  for (const language of LANGUAGES) {
    it(`are written in ${language}, each with its values`, async () => {
      const voice = await voiceFor({ locale: language, tz: 'UTC' });
      const english = await voiceFor({ locale: 'en-US' });
      for (const trouble of [...found, { id: 'does_not_add_up' as const, values: {} }]) {
        const text = troubleText(voice, trouble, ['U0DAN']);
        expect(text, trouble.id).not.toMatch(/[{}]|undefined|NaN|\[object/);
        expect(text.length, trouble.id).toBeGreaterThan(10);
        if (language !== 'en') {
          expect(text, `${language} ${trouble.id}`).not.toBe(troubleText(english, trouble));
        }
      }
    });
  }
});

describe('a refusal for a German or a Japanese reader', () => {
  it('writes dates, amounts and months their way', async () => {
    const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
    const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
    const refused = (text: string) => {
      const result = parseCommand(text, ctx);
      if (result.kind !== 'error') throw new Error(`${text} was read as ${result.kind}`);
      return result.problem;
    };
    const future = refused(`40 lunch ${ANN} on 2026-12-25`);
    expect(troubleText(de, future)).toBe(
      'Fr., 25. Dez. 2026 liegt in der Zukunft: Eine Ausgabe braucht ein vergangenes Datum.',
    );
    expect(troubleText(ja, future)).toBe(
      '2026年12月25日(金) は未来の日付です。経費には過去の日付が必要です。',
    );
    const over = refused(`€40 lunch ${ANN} €25 ${BOB} €20`);
    expect(troubleText(de, over)).toBe(
      'Die Anteile ergeben 45,00\u00a0€, mehr als die Kosten (40,00\u00a0€).',
    );
    expect(troubleText(ja, refused(`40 lunch ${ANN} Feb 30`))).toBe(
      '2月30日 という日はありません（「Feb 30」）。',
    );
    expect(troubleText(de, refused(`40 lunch ${ANN} on 03/04`))).toBe(
      'Ist 03/04 der 4. März oder der 3. April? Schreib das Datum als Jahr-Monat-Tag.',
    );
    expect(troubleText(ja, refused(`40 lunch ${ANN} monthly weekly`))).toBe(
      '繰り返しは 1 つにしてください。毎月ですか、毎週ですか？',
    );
  });

  it('offers the two readings of "1.500" as different numbers, written their way', async () => {
    const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
    const result = parseCommand(`1.500 lunch ${ANN}`, ctx);
    if (result.kind !== 'error') throw new Error('1.500 was read');
    expect(troubleText(de, result.problem)).toBe(
      '„1.500“ ist nicht eindeutig: 1500 oder 1,5? Schreib 1500 für Tausender oder höchstens zwei Stellen nach dem Punkt.',
    );
  });
});

describe('what a person typed, in a refusal', () => {
  it('is escaped, whatever it holds', async () => {
    const en = await voiceFor({ locale: 'en-US' });
    for (const typed of ['<!channel>', '<https://x.example|y>', '*b*', 'fish & chips']) {
      const text = troubleText(en, { id: 'feed_unknown', values: { typed } });
      expect(text).not.toMatch(/<!|<https|\*b\*|& /);
    }
    expect(troubleText(en, { id: 'feed_unknown', values: { typed: '<!channel> *b* &' } })).toBe(
      'I don\'t know "feed &lt;!channel&gt; \u200b*\u200bb\u200b*\u200b &amp;". Try feed on or feed off.',
    );
  });
});

describe('a /split form, written for the reader', () => {
  it('puts the people they can mention in place of the stand-ins, in order of appearance', async () => {
    const en = await voiceFor({ locale: 'en-US' });
    expect(exampleText(en, '/split 40 lunch @ann 25 @bob 15', ['U0DAN', 'U0EVE'])).toBe(
      '/split 40 lunch <@U0DAN> 25 <@U0EVE> 15',
    );
    expect(exampleText(en, '/split group add @cho Roommates', ['U0DAN'])).toBe(
      '/split group add <@U0DAN> Roommates',
    );
    // The same stand-in is the same person; with fewer people, the rest name nobody.
    expect(exampleText(en, '/split 40 lunch @ann @bob paid by @ann', ['U0DAN'])).toBe(
      '/split 40 lunch <@U0DAN> @someone-else paid by <@U0DAN>',
    );
    expect(exampleText(en, '/split 40 lunch @ann', [])).toBe('/split 40 lunch @someone');
  });

  it('keeps a person the command typed, and escapes the rest', async () => {
    const en = await voiceFor({ locale: 'en-US' });
    expect(exampleText(en, '/split 3 *coffees* 45 USD <@U0BOB> & co', ['U0DAN'])).toBe(
      '/split 3 \u200b*\u200bcoffees\u200b*\u200b 45 USD <@U0BOB> &amp; co',
    );
  });
});
