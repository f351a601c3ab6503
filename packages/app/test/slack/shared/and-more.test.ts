/**
 * "…and N more", where a list is cut, in the reader's language with its plural rules and its way
 * of writing the number: the cut list of groups, the cut list of balances and the debts left to
 * `/split balance`.
 */
import { describe, expect, it } from 'vitest';
import { groupsMessage } from '../../../src/slack/groups/views.js';
import { clipLines } from '../../../src/slack/shared/balance-blocks.js';
import { blocksText } from '../../support/harness.js';
import { spaced, voices } from '../../support/voice-support.js';

/** What is left of `left` lines too long to keep: the line that says how many there were. */
function tail(voice: (typeof voices)['de'], left: number): string {
  const lines = Array.from({ length: left }, () => 'x'.repeat(100));
  return spaced(clipLines(lines, 60, voice));
}

describe('the number of lines left out', () => {
  it('is said in German, French and Japanese, one and many, the number written their way', () => {
    expect(tail(voices.de, 2)).toBe('…und 2 weitere');
    expect(tail(voices.de, 1_234)).toBe('…und 1.234 weitere');
    expect(tail(voices.fr, 2)).toBe('… et 2 autres');
    expect(tail(voices.fr, 1_234)).toBe('… et 1 234 autres');
    expect(tail(voices.ja, 2)).toBe('…ほか 2 件');
    expect(tail(voices.ja, 1_234)).toBe('…ほか 1,234 件');
    expect(tail(voices.en, 1_234)).toBe('…and 1,234 more');
  });

  it('takes the singular where the language has one', () => {
    expect(spaced(voices.fr.t('balances.and_more', { count: 1 }))).toBe('… et 1 autre');
    expect(spaced(voices.fr.t('balances.groups_more', { count: 1 }))).toBe('1 autre');
    expect(spaced(voices.fr.t('balances.more_debts_elsewhere', { count: 1 }))).toMatch(
      /^… et 1 autre\. /,
    );
    expect(voices.de.t('balances.more_debts_elsewhere', { count: 2_000 })).toMatch(
      /^…und 2\.000 weitere\. /,
    );
  });

  it('cuts the list of groups in the reader’s language', () => {
    const groups = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      name: `Gruppe mit einem recht langen Namen Nummer ${i + 1}`,
      members: 2,
      balance: [],
    }));
    const german = blocksText(groupsMessage(voices.de, { groups }).blocks);
    expect(german).toMatch(/…und \d+ weitere/);
    expect(german).not.toMatch(/and \d+ more/);
    const japanese = blocksText(groupsMessage(voices.ja, { groups }).blocks);
    expect(japanese).toMatch(/…ほか \d+ 件/);
  });
});
