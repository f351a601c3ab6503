/**
 * Expenses as CSV (RFC 4180: CRLF line ends, a field quoted when it holds a comma, a quote or a
 * line break, quotes doubled). One column per person for what they owe, so that each row's shares
 * add up to its cost. The headers are in the reader's language; the values stay what a
 * spreadsheet reads as they are: dates as yyyy-MM-dd, amounts as plain decimals with a point,
 * currencies as codes, text as it was written. Pure.
 */
import { currencyExponent, parseMinor, toDecimal } from '../../core/money.js';
import type { Expense } from '../../service/index.js';
import { nameOf } from '../shared/expense-people.js';
import type { Voice } from '../shared/voice.js';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (and a tab or carriage
 * return can hide one); a leading apostrophe makes it text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The words of a file's first row, in the reader's language. */
export interface CsvHeaders {
  date: string;
  description: string;
  category: string;
  currency: string;
  cost: string;
  paidBy: string;
  /** The column of what one person owes. */
  owes(name: string): string;
  group: string;
  /** A group the reader's list of groups lacks. */
  groupById(id: number): string;
  /** Whoever the service names not. */
  someone: string;
}

export function csvHeaders(voice: Voice): CsvHeaders {
  return {
    date: voice.t('split.csv.date'),
    description: voice.t('split.csv.description'),
    category: voice.t('split.csv.category'),
    currency: voice.t('split.csv.currency'),
    cost: voice.t('split.csv.cost'),
    paidBy: voice.t('split.csv.paid_by'),
    owes: (name) => voice.t('split.csv.owes', { name }),
    group: voice.t('split.csv.group'),
    groupById: (id) => voice.t('split.csv.group_id', { id: String(id) }),
    someone: voice.t('expense.someone'),
  };
}

/** An amount as the service wrote it, in the currency's minor unit ("20.5" -> "20.50"). */
function amount(text: string, currency: string): string {
  const exponent = currencyExponent(currency);
  try {
    return toDecimal(parseMinor(text, exponent), exponent);
  } catch {
    // Not something the service should send; the cell keeps it as sent rather than guessing.
    return text.trim();
  }
}

function hasAmount(text: string): boolean {
  return /[1-9]/.test(text);
}

export function expensesCsv(
  expenses: readonly Expense[],
  groupNames: ReadonlyMap<number, string>,
  headers: CsvHeaders,
): string {
  // One column per person, in the order they first appear; two people with one name are told
  // apart by their service id.
  const named = (u: Parameters<typeof nameOf>[0]) => nameOf(u) || headers.someone;
  const people = new Map<number, string>();
  for (const e of expenses)
    for (const u of e.users) if (!people.has(u.user_id)) people.set(u.user_id, named(u.user));
  const nameCount = new Map<string, number>();
  for (const name of people.values()) nameCount.set(name, (nameCount.get(name) ?? 0) + 1);
  const columns = [...people].map(([id, name]) => ({
    id,
    header: headers.owes((nameCount.get(name) ?? 0) > 1 ? `${name} (#${id})` : name),
  }));
  const header = [
    headers.date,
    headers.description,
    headers.category,
    headers.currency,
    headers.cost,
    headers.paidBy,
    ...columns.map((c) => c.header),
    headers.group,
  ];
  const rows = expenses.map((e) => {
    const payers = e.users.filter((u) => hasAmount(u.paid_share));
    const paidBy =
      payers.length === 1
        ? named(payers[0]?.user)
        : payers.map((u) => `${named(u.user)} ${amount(u.paid_share, e.currency_code)}`).join('; ');
    const owed = new Map(e.users.map((u) => [u.user_id, u.owed_share]));
    return [
      e.date.slice(0, 10),
      e.description,
      e.category?.name ?? '',
      e.currency_code,
      amount(e.cost, e.currency_code),
      paidBy,
      ...columns.map((c) => {
        const share = owed.get(c.id);
        return share === undefined ? '' : amount(share, e.currency_code);
      }),
      e.group_id ? (groupNames.get(e.group_id) ?? headers.groupById(e.group_id)) : '',
    ];
  });
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
