import { describe, expect, it } from 'vitest';
import {
  HELP_DETAILS,
  HELP_OVERVIEW,
  HELP_TOPICS,
  type ParseResult,
} from '../../../src/core/command/index.js';
import { asTyped, ctx, parse } from './helpers.js';

/** What each example of the help says it does, as the kind it parses to. */
const KINDS: Record<string, ParseResult['kind']> = {
  '/split': 'open_modal',
  balance: 'balance',
  list: 'list',
  undo: 'undo',
  groups: 'groups',
  group: 'group_default',
  paid: 'paid',
  remind: 'remind',
  export: 'export',
  feed: 'feed',
  connect: 'connect',
  whoami: 'whoami',
  disconnect: 'disconnect',
};

function kindOf(example: string): ParseResult['kind'] {
  const words = example.split(' ');
  if (words.length === 1) return 'open_modal';
  const first = words[1]!;
  if (first === 'group') {
    const sub = words[2]!;
    return sub === 'default' ? 'group_default' : (`group_${sub}` as ParseResult['kind']);
  }
  if (first.startsWith('@')) return 'paid';
  return KINDS[first] ?? 'expense';
}

describe('help', () => {
  const lines = [...HELP_OVERVIEW, ...HELP_TOPICS.flatMap((topic) => HELP_DETAILS[topic])];

  it('offers only examples that parse, each to what it says', () => {
    for (const line of lines) {
      expect(parse(asTyped(line.example), ctx).kind, line.example).toBe(kindOf(line.example));
    }
  });

  it('shows five forms first, and every topic has some', () => {
    expect(HELP_OVERVIEW).toHaveLength(5);
    for (const topic of HELP_TOPICS) expect(HELP_DETAILS[topic].length).toBeGreaterThan(0);
  });

  it('reads a topic after help, in English, and after the words for help of other languages', () => {
    for (const word of ['help', 'hilfe', 'aide', 'ayuda', 'ajuda', 'ヘルプ', 'commands']) {
      expect(parse(`${word} payers`)).toEqual({ kind: 'help', topic: 'payers', asked: null });
      expect(parse(`${word} Reminders?`)).toEqual({
        kind: 'help',
        topic: 'reminders',
        asked: null,
      });
    }
    expect(parse('help csv')).toEqual({ kind: 'help', topic: 'export', asked: null });
    expect(parse('help itemize')).toEqual({ kind: 'help', topic: 'itemise', asked: null });
  });

  it('answers a topic it does not have with the overview, saying what was asked', () => {
    expect(parse('help toString')).toEqual({ kind: 'help', topic: null, asked: 'toString' });
    expect(parse('help paid by')).toEqual({ kind: 'help', topic: null, asked: 'paid by' });
    // `aide` is also an English word: before something that is no topic it starts an expense.
    expect(parse('aide 40 <@U0ANN|ann>').kind).toBe('expense');
  });
});
