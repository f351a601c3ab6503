/**
 * The `/split` forms the app shows (in help, in the greeting, beside a refusal) in the reader's
 * own words. The grammar writes its examples once, in English, with stand-ins: `@ann`, `@bob` and
 * `@cho` for people, and a few words for things (lunch, taxi, Roommates...). Here each person
 * stand-in becomes someone the reader can mention, in the order it first appears, or, with fewer
 * people than stand-ins, a placeholder that names nobody ("@someone"): an example never names
 * a person who is not in the workspace. Each word becomes the reader's language's own ("Mittagessen",
 * "WG"). Descriptions and group names are free text to the grammar, so a form keeps working
 * whatever the words; its keywords stay as the grammar reads them.
 */
import type { MessageKey } from '../../voice/index.js';
import { mrkdwn } from '../kit/text.js';
import type { Voice } from './voice.js';

/** The people examples are written with. */
const STAND_INS = /@(?:ann|bob|cho)\b/g;
/** Each stand-in's placeholder, where a line names them in a code span (no mention shows there). */
const NOBODY = new Map([
  ['@ann', 1],
  ['@bob', 2],
  ['@cho', 3],
]);
const MENTION = /(<@[UW][A-Z0-9]+>)/;

/** The words examples are written with, and each one's key; longer phrases first. */
const WORDS = new Map<string, MessageKey>([
  ['team lunch', 'examples.team_lunch'],
  ['pizza night', 'examples.pizza_night'],
  ['lunch', 'examples.lunch'],
  ['dinner', 'examples.dinner'],
  ['taxi', 'examples.taxi'],
  ['coffee', 'examples.coffee'],
  ['rent', 'examples.rent'],
  ['cleaning', 'examples.cleaning'],
  ['Roommates', 'examples.roommates'],
]);
const WORD = new RegExp(`\\b(?:${[...WORDS.keys()].join('|')})\\b`, 'g');

/**
 * A `/split` form for mrkdwn, with the reader's people and words in it (see above). Mentions the
 * form already holds (someone the person typed) stay mentions; everything else is escaped.
 */
export function exampleText(voice: Voice, example: string, people: readonly string[]): string {
  const chosen = new Map<string, string>();
  const withPeople = example.replace(STAND_INS, (standIn) => {
    let person = chosen.get(standIn);
    if (person === undefined) {
      const next = people[chosen.size];
      person =
        next === undefined ? voice.t('examples.someone', { n: chosen.size + 1 }) : `<@${next}>`;
      chosen.set(standIn, person);
    }
    return person;
  });
  return withPeople
    .split(MENTION)
    .map((part, i) =>
      i % 2 === 1 ? part : mrkdwn(part.replace(WORD, (word) => voice.t(WORDS.get(word)!))),
    )
    .join('');
}

/**
 * A line of the app's own text (a help line, a hint: no value in it) whose code spans show a form
 * with stand-ins: each word becomes the reader's, and each person a placeholder that names nobody
 * (a mention inside a code span shows as its raw id, so no person is put there).
 */
export function inOwnWords(voice: Voice, text: string): string {
  return text
    .replace(STAND_INS, (standIn) => voice.t('examples.someone', { n: NOBODY.get(standIn) ?? 1 }))
    .replace(WORD, (word) => voice.t(WORDS.get(word)!));
}
