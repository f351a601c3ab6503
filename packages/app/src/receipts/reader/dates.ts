/**
 * The date printed on a receipt, in the forms the five languages use: 14/03/2025, 03/14/2025,
 * 14.03.25, 2025-03-14, 14 Mar 2025, Mar 14, 2025, 14. März 2025, 14 mars 2025,
 * 14 de marzo de 2025, 14 de março de 2025. Patterns have bounded repetitions only, so each
 * position costs a constant amount of work and a line costs time linear in its length.
 */

const MAX_DATE_TEXT = 160;

const MONTHS = new Map<string, number>();
const names: [number, string[]][] = [
  [1, ['jan', 'january', 'januar', 'janvier', 'janv', 'enero', 'ene', 'janeiro']],
  [2, ['feb', 'february', 'februar', 'fevrier', 'fevr', 'fev', 'febrero', 'fevereiro']],
  [3, ['mar', 'march', 'marz', 'maerz', 'mars', 'marzo', 'marco']],
  [4, ['apr', 'april', 'avril', 'avr', 'abril', 'abr']],
  [5, ['may', 'mai', 'mayo', 'maio']],
  [6, ['jun', 'june', 'juni', 'juin', 'junio', 'junho']],
  [7, ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'julho']],
  [8, ['aug', 'august', 'aout', 'agosto', 'ago']],
  [9, ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'setembro', 'set']],
  [10, ['oct', 'october', 'okt', 'oktober', 'octobre', 'octubre', 'outubro', 'out']],
  [11, ['nov', 'november', 'novembre', 'noviembre', 'novembro']],
  [12, ['dec', 'december', 'dez', 'dezember', 'decembre', 'diciembre', 'dic', 'dezembro']],
];
for (const [month, list] of names) for (const name of list) MONTHS.set(name, month);

function fold(text: string): string {
  return text
    .slice(0, MAX_DATE_TEXT)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function fullYear(year: number, digits: number): number {
  return digits === 2 ? 2000 + year : year;
}

function iso(year: number, month: number, day: number): string | null {
  if (year < 1990 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface FoundDate {
  iso: string;
  /** Day and month could be either way round (03/04/2025) and the order was chosen by locale. */
  ambiguous: boolean;
}

const NUMERIC = /(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?!\d)/g;
const DAY_MONTH_YEAR =
  /(?<![\d])(\d{1,2})\.?\s{0,2}(?:de\s{1,2})?([a-z]{3,10})\.?,?\s{0,2}(?:de\s{1,2})?(\d{4}|\d{2})(?!\d)/g;
const MONTH_DAY_YEAR = /(?<![a-z])([a-z]{3,10})\.?\s{1,2}(\d{1,2}),?\s{1,2}(\d{4})(?!\d)/g;

/**
 * The first date in a line of text, or null. `monthFirst` chooses the order of an ambiguous
 * numeric date (03/04/2025): true where amounts are written the American way.
 */
export function findDate(text: string, monthFirst: boolean): FoundDate | null {
  const folded = fold(text);
  for (const match of folded.matchAll(NUMERIC)) {
    const [, a = '', , b = '', c = ''] = match;
    const first = Number(a);
    const second = Number(b);
    const third = Number(c);
    if (a.length === 4) {
      const found = iso(first, second, third);
      if (found && c.length <= 2) return { iso: found, ambiguous: false };
      continue;
    }
    if (a.length > 2 || (c.length !== 2 && c.length !== 4)) continue;
    const year = fullYear(third, c.length);
    const dayFirst = iso(year, second, first);
    const monthFirstDate = iso(year, first, second);
    if (dayFirst && monthFirstDate && dayFirst !== monthFirstDate) {
      return { iso: monthFirst ? monthFirstDate : dayFirst, ambiguous: true };
    }
    const found = dayFirst ?? monthFirstDate;
    if (found) return { iso: found, ambiguous: false };
  }
  for (const match of folded.matchAll(DAY_MONTH_YEAR)) {
    const month = MONTHS.get(match[2] ?? '');
    if (month === undefined) continue;
    const found = iso(fullYear(Number(match[3]), match[3]!.length), month, Number(match[1]));
    if (found) return { iso: found, ambiguous: false };
  }
  for (const match of folded.matchAll(MONTH_DAY_YEAR)) {
    const month = MONTHS.get(match[1] ?? '');
    if (month === undefined) continue;
    const found = iso(Number(match[3]), month, Number(match[2]));
    if (found) return { iso: found, ambiguous: false };
  }
  return null;
}
