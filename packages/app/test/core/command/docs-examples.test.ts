/**
 * Every `/split …` example written in docs/split-syntax.md parses, as the page promises; the few
 * the page shows being asked about or needing a bound channel are named here with the answer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAMMAR_LANGUAGES, LEXICONS } from '../../../src/core/command/index.js';
import { phrasesOf } from './grammar-tables.js';
import { asTyped, ctx, parse } from './helpers.js';

const PAGE = readFileSync(new URL('../../../../../docs/split-syntax.md', import.meta.url), 'utf8');
const EXAMPLES = [...new Set([...PAGE.matchAll(/`(\/split(?: [^`]*)?)`/g)].map((m) => m[1]!))];

/** Examples the page shows being answered with a question, and the start of that question. */
const ASKED = new Map([
  ['/split group use', 'Which group should this channel use?'],
  ['/split lunch @ann 40', 'Is 40 the total or <@U0ANN>'],
  ['/split 60 dinner paid by me 40 @bob @cho 20', 'How much did <@U0BOB> pay?'],
  ['/split 60 dinner paid by me 40 @bob', 'How much did <@U0BOB> pay?'],
]);
/** Examples that name nobody, shown as typed in a channel bound to a group. */
const IN_A_BOUND_CHANNEL = new Set(['/split 1200 rent']);

describe('the examples of docs/split-syntax.md', () => {
  it('are found on the page', () => {
    expect(EXAMPLES.length).toBeGreaterThan(50);
    for (const example of [...ASKED.keys(), ...IN_A_BOUND_CHANNEL]) {
      expect(EXAMPLES).toContain(example);
    }
  });

  for (const example of EXAMPLES) {
    it(example, () => {
      const context = IN_A_BOUND_CHANNEL.has(example) ? { ...ctx, channelHasGroup: true } : ctx;
      const result = parse(asTyped(example), context);
      const asked = ASKED.get(example);
      if (asked === undefined) expect(result.kind, JSON.stringify(result)).not.toBe('error');
      else expect(result.kind === 'error' && result.message).toMatch(asked);
    });
  }
});

describe('the "Other languages" section of docs/split-syntax.md', () => {
  const section = PAGE.slice(PAGE.indexOf('## Other languages'), PAGE.indexOf('## Payments'));

  for (const language of GRAMMAR_LANGUAGES) {
    it(`lists every word of ${language}, as typed`, () => {
      const missing = phrasesOf(LEXICONS[language]).filter((w) => !section.includes(`\`${w}\``));
      expect(missing).toEqual([]);
    });
  }
});
