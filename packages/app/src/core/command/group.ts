/** `in <group>` in an expense, which may also be a currency (`in EUR`). */
import { isBareNumber } from './amounts.js';
import { amountOrSumAt } from './arithmetic.js';
import { currencyOf } from './currencies.js';
import { EX, fail, refused } from './errors.js';
import { GROUP_STOPS } from './keywords.js';
import { malformed } from './malformed.js';
import { fold, isWord } from './tokens.js';
import type { CurrencyMark, ErrorResult, Scan } from './types.js';
import { grammarOf } from './words.js';

/**
 * `in <group>`, `in group <name>`, `in "<name>"`, or a currency written `in EUR`; and `no group`
 * (`ohne Gruppe`, `sans groupe`...), which books outside groups wherever it is typed.
 */
export function takeGroup({ tokens, used, ctx }: Scan):
  | {
      group: string | null;
      currencyByIn: CurrencyMark | null;
      noGroup: boolean;
    }
  | ErrorResult {
  const { groupStops, noGroup: outside } = grammarOf(ctx);
  const stops = (lower: string) => GROUP_STOPS.has(lower) || groupStops.has(fold(lower));
  let group: string | null = null;
  let currencyByIn: CurrencyMark | null = null;
  let noGroup = false;
  // First, so that a group's name after `in` never swallows them (`in Trip no group`).
  for (let i = 0; i < tokens.length; i++) {
    const none = outside.at(tokens, i, used);
    if (!none) continue;
    for (let k = i; k < i + none.length; k++) used[k] = true;
    noGroup = true;
  }
  for (let i = 0; i < tokens.length; i++) {
    if (used[i] || !isWord(tokens[i], 'in')) continue;
    let k = i + 1;
    if (isWord(tokens[k], 'group', 'group:')) k++;
    const first = tokens[k];
    if (first?.t === 'quoted') {
      group = first.text;
      for (let j = i; j <= k; j++) used[j] = true;
      continue;
    }
    const code = first?.t === 'word' ? currencyOf(first.raw, ctx.defaultCurrency) : null;
    const afterCode = tokens[k + 1];
    const codeEnds =
      afterCode === undefined ||
      afterCode.t !== 'word' ||
      stops(afterCode.lower) ||
      isBareNumber(afterCode.raw);
    if (code && k === i + 1 && code.source !== 'word' && codeEnds) {
      currencyByIn = code;
      used[i] = true;
      used[k] = true;
      continue;
    }
    const words: string[] = [];
    let j = k;
    for (; j < tokens.length; j++) {
      const token = tokens[j];
      if (used[j] || token?.t !== 'word' || stops(token.lower)) break;
      const amount = amountOrSumAt(tokens, j, ctx.defaultCurrency);
      if (refused(amount)) return amount;
      if (amount || isBareNumber(token.raw)) break;
      if (malformed(token.raw)) break;
      words.push(token.raw);
    }
    if (words.length === 0) continue;
    if (group !== null) return fail('one_group', {}, EX.group);
    group = words.join(' ').replace(/[,.;:]$/, '');
    for (let m = i; m < j; m++) used[m] = true;
  }
  if (noGroup && group !== null) return fail('one_group', {}, EX.group);
  return { group, currencyByIn, noGroup };
}
