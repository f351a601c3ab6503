/**
 * The options of the expense form's selects: an option within Slack's limits, and what its two
 * searchable selects (currency and category) answer. Pure.
 */
import type { types } from '@slack/bolt';
import type { Category, Currency } from '../../service/index.js';
import { clip } from '../shared/limits.js';
import { plain, VIEW_LIMITS } from '../shared/modal.js';

export type Option = { text: types.PlainTextElement; value: string };

export function option(text: string, value: string): Option {
  // Values are ids and codes, far below 150 characters; the text is what may run long.
  return { text: plain(text), value: clip(value, VIEW_LIMITS.optionValue) };
}

export function currencyOption(code: string, unit: string | undefined): Option {
  return option(unit && unit !== code ? `${code} · ${unit}` : code, code);
}

/** Currencies for the external select: codes that start with the query first, then the rest. */
/**
 * Longest search read in a select: longer than any currency's or category's name, so it matches
 * none, and is not read at all.
 */
const MAX_QUERY_CHARS = 100;

export function currencyOptions(currencies: readonly Currency[], query: string): Option[] {
  if (query.length > MAX_QUERY_CHARS) return [];
  const q = query.trim().toUpperCase();
  const score = (c: Currency) =>
    c.currency_code === q
      ? 0
      : c.currency_code.startsWith(q)
        ? 1
        : c.unit.toUpperCase() === q
          ? 2
          : c.currency_code.includes(q) || c.unit.toUpperCase().includes(q)
            ? 3
            : 9;
  return currencies
    .map((c) => ({ c, s: q === '' ? 3 : score(c) }))
    .filter((x) => x.s < 9)
    .sort((a, b) => a.s - b.s || a.c.currency_code.localeCompare(b.c.currency_code))
    .slice(0, VIEW_LIMITS.options) // an external select's answer holds 100 options at most
    .map((x) => currencyOption(x.c.currency_code, x.c.unit));
}

/** Subcategories grouped by their parent, matching the query; 100 options in all at most. */
export function categoryOptionGroups(
  categories: readonly Category[],
  query: string,
): Array<{ label: types.PlainTextElement; options: Option[] }> {
  if (query.length > MAX_QUERY_CHARS) return [];
  const q = query.trim().toLowerCase();
  const groups: Array<{ label: types.PlainTextElement; options: Option[] }> = [];
  let left: number = VIEW_LIMITS.options; // the whole answer counts against Slack's 100
  for (const parent of categories) {
    if (left <= 0) break;
    const matches = (parent.subcategories ?? []).filter(
      (s) => q === '' || s.name.toLowerCase().includes(q) || parent.name.toLowerCase().includes(q),
    );
    if (matches.length === 0) continue;
    const options = matches.slice(0, left).map((s) => option(s.name, String(s.id)));
    left -= options.length;
    groups.push({ label: plain(parent.name), options });
  }
  return groups;
}
