/**
 * The value of the buttons under `/split list`: the resolved filters and where each page so far
 * started at the service, so that Previous and Next need no new lookups and Previous returns to
 * exactly the page it came from. Read back with a schema: anyone can craft a click.
 */
import { int, object, optional, string } from '../../core/schema.js';
import type { ExpenseQuery } from './expense-query.js';

/** Slack's limit on a button's value. */
const MAX_VALUE = 2000;
/** Pages a person can go forward; past it the value grows long and the filters want narrowing. */
export const MAX_PAGES = 100;

const IDS = /^\d{1,15}(,\d{1,15})*$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const refSchema = object({
  s: string({ max: 1700, regex: IDS }),
  g: optional(int({ min: 1 })),
  gn: optional(string({ max: 200 })),
  p: optional(string({ max: 400, regex: IDS })),
  m: optional(string({ max: 600, regex: /^[UW][A-Z0-9]{1,20}(,[UW][A-Z0-9]{1,20})*$/ })),
  f: optional(string({ regex: DAY })),
  t: optional(string({ regex: DAY })),
  w: optional(string({ max: 400 })),
});

interface ListRef {
  query: ExpenseQuery;
  /** The service offset each page up to this one starts at; the last is this page's. */
  starts: number[];
}

/** The button value for `ref`, or undefined when it would be longer than Slack takes. */
export function encodeListRef(ref: ListRef): string | undefined {
  const { query: q, starts } = ref;
  const value = JSON.stringify({
    s: starts.join(','),
    ...(q.group ? { g: q.group.id, gn: q.group.name.slice(0, 200) } : {}),
    ...(q.people.length > 0 ? { p: q.people.join(',') } : {}),
    ...(q.mentions.length > 0 ? { m: q.mentions.join(',') } : {}),
    ...(q.range.from ? { f: q.range.from } : {}),
    ...(q.range.to ? { t: q.range.to } : {}),
    // Newlines never occur in a search word or phrase (whitespace is folded when parsed).
    ...(q.words.length > 0 ? { w: q.words.join('\n') } : {}),
  });
  return value.length <= MAX_VALUE ? value : undefined;
}

export function parseListRef(value: string | undefined): ListRef | undefined {
  const r = refSchema.readJson(value);
  if (!r) return undefined;
  const starts = r.s.split(',').map(Number);
  if (starts.length > MAX_PAGES + 1 || !starts.every(Number.isSafeInteger)) return undefined;
  if ((r.g === undefined) !== (r.gn === undefined)) return undefined;
  return {
    starts,
    query: {
      group: r.g !== undefined && r.gn !== undefined ? { id: r.g, name: r.gn } : null,
      people: r.p ? r.p.split(',').map(Number) : [],
      mentions: r.m ? r.m.split(',') : [],
      range: { from: r.f ?? null, to: r.t ?? null },
      words: r.w ? r.w.split('\n').filter((w) => w !== '') : [],
    },
  };
}
