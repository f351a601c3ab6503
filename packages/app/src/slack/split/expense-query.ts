/**
 * What `/split list`, its paging buttons and `/split export` share: the filters typed turned into
 * what the service knows (a group id, service user ids), and a scan of the service's expenses,
 * newest first, page by page (get_expenses' limit and offset). The service filters by one group or
 * one friend and by dates; other people and words of the description are checked here, on each
 * expense, so a scan reads more expenses than it keeps and says how far it read.
 */
import type { LookupBudget } from '../../accounts/lookups.js';
import { resolvePeople } from '../../accounts/people.js';
import { type DateRange, type ListFilters, searchWords } from '../../core/command/index.js';
import type { Expense, ExpenseFilters, Group, ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { mention, mrkdwn } from '../kit/text.js';
import { noGroupCalledText } from '../shared/ledger.js';
import type { Voice } from '../shared/voice.js';

/** The filters in the service's terms; small enough to ride in a button's value. */
export interface ExpenseQuery {
  group: { id: number; name: string } | null;
  /** Service ids of the people mentioned (the caller left out): each must be on the expense. */
  people: number[];
  /** The Slack ids mentioned, for the title. */
  mentions: string[];
  range: DateRange;
  words: string[];
}

/** What to tell the person instead of a list (mrkdwn in their voice), with a form that works. */
export interface QueryProblem {
  message: string;
  example?: string;
}

/** The caller's group called `name`: from the cached list, else a fresh one. */
async function groupNamed(
  deps: Pick<SlackDeps, 'directory'>,
  user: SlackUserKey,
  client: ServiceClient,
  name: string,
): Promise<{ found: Group | undefined; names: string[] }> {
  const wanted = name.trim().toLowerCase();
  let groups: Group[] = [];
  for (const fresh of [false, true]) {
    groups = (await deps.directory.groups(user, client, fresh)).filter((g) => g.id !== 0);
    const found = groups.find((g) => g.name.trim().toLowerCase() === wanted);
    if (found) return { found, names: [] };
  }
  return { found: undefined, names: groups.map((g) => g.name) };
}

/**
 * The typed filters resolved at the service, or what to tell the person when one can't be. Words
 * typed with no `in` or `about` (`list taxi`) are a group's name when the person has a group so
 * called, else words of the description: `searched` says so, for the answer to tell.
 */
interface QueryInput {
  deps: Pick<SlackDeps, 'directory' | 'tokens'>;
  user: SlackUserKey;
  client: ServiceClient;
  me: number;
  filters: ListFilters;
  verb: 'list' | 'export';
  voice: Voice;
  /** The request's Slack lookups: the people the filters mention. */
  lookups: LookupBudget;
}

export async function resolveQuery(
  input: QueryInput,
): Promise<{ query: ExpenseQuery; searched: string | null } | { problem: QueryProblem }> {
  const { filters } = input;
  const inGroup = await queryGroup(input);
  if ('problem' in inGroup) return inGroup;
  const people = await queryPeople(input);
  if ('problem' in people) return people;
  const { group, words, searched } = inGroup;
  return {
    query: { group, people: people.ids, mentions: filters.mentions, range: filters.range, words },
    searched,
  };
}

/** The group asked for by `in`, or by loose words when a group is so called, else search words. */
async function queryGroup(
  input: QueryInput,
): Promise<
  | { group: ExpenseQuery['group']; words: string[]; searched: string | null }
  | { problem: QueryProblem }
> {
  const { deps, user, client, filters, verb, voice } = input;
  let group: ExpenseQuery['group'] = null;
  const words = [...filters.words];
  let searched: string | null = null;
  if (filters.group) {
    const { found, names } = await groupNamed(deps, user, client, filters.group);
    if (!found) {
      return {
        problem: {
          message: noGroupCalledText(
            voice,
            filters.group,
            names.map((name) => ({ name })),
          ),
          example: `/split ${verb} in ${names[0] ?? 'Roommates'}`,
        },
      };
    }
    group = { id: found.id, name: found.name };
  } else if (filters.loose) {
    const { found } = await groupNamed(deps, user, client, filters.loose);
    if (found) group = { id: found.id, name: found.name };
    else {
      words.push(...searchWords(filters.loose));
      searched = filters.loose;
    }
  }
  return { group, words, searched };
}

/** The service ids of the people mentioned, the caller left out; a problem for one not found. */
async function queryPeople(
  input: QueryInput,
): Promise<{ ids: number[] } | { problem: QueryProblem }> {
  const { deps, user, client, me, filters, voice, lookups } = input;
  const people: number[] = [];
  if (filters.mentions.length === 0) return { ids: people };
  const resolved = await resolvePeople({
    caller: { ...user, service_user_id: me },
    ids: filters.mentions,
    tokens: deps.tokens,
    directory: deps.directory,
    lookups,
    client,
  });
  if ('problem' in resolved) {
    return {
      problem: {
        message: voice.t('split.no_expenses_with', {
          person: mention(resolved.problem.user_id),
        }),
      },
    };
  }
  let fresh: Map<string, number> | undefined;
  for (const typed of filters.mentions) {
    const person = resolved.people.get(typed);
    let id = person && 'user_id' in person.ref ? person.ref.user_id : undefined;
    const email = person?.slack?.email?.toLowerCase();
    if (id === undefined && email) {
      // The cached friends may predate the expense that made them friends.
      fresh ??= new Map(
        (await client.getFriends())
          .filter((f) => f.email)
          .map((f) => [String(f.email).toLowerCase(), f.id]),
      );
      id = fresh.get(email);
    }
    if (id === undefined) {
      return {
        problem: { message: voice.t('split.no_expenses_yet', { person: mention(typed) }) },
      };
    }
    if (id !== me && !people.includes(id)) people.push(id);
  }
  return { ids: people };
}

/** What the service filters itself: a group, else the first person; and the dates. */
function serviceFilters(q: ExpenseQuery): ExpenseFilters {
  return {
    visible: true,
    ...(q.group ? { group_id: q.group.id } : {}),
    ...(!q.group && q.people[0] !== undefined ? { friend_id: q.people[0] } : {}),
    ...(q.range.from ? { dated_after: `${q.range.from}T00:00:00Z` } : {}),
    ...(q.range.to ? { dated_before: `${q.range.to}T23:59:59Z` } : {}),
  };
}

/** Whether an expense passes the filters the service does not apply. */
function matches(q: ExpenseQuery, e: Expense): boolean {
  if (e.payment) return false;
  if (!q.people.every((id) => e.users.some((u) => u.user_id === id))) return false;
  const description = e.description.toLowerCase();
  return q.words.every((w) => description.includes(w.toLowerCase()));
}

interface Scan {
  /** The matches found, at most `want`, newest first. */
  items: Expense[];
  /**
   * The service offset to go on from: the next match's when one more was found, else where the
   * scan stopped reading; null when the service has nothing further.
   */
  next: number | null;
  /** How many expenses were read from the service. */
  read: number;
  /** The scan stopped at `maxRead` before it knew whether more match. */
  stoppedEarly: boolean;
}

/** Service page size while scanning: a page of the service's maximum reasonable size. */
const PAGE = 50;

/**
 * Reads the service's expenses from `offset` on and keeps those that match, until `want` are found
 * and it knows whether there is one more, the service has no more, or `maxRead` were read.
 */
export async function scanExpenses(
  client: ServiceClient,
  q: ExpenseQuery,
  options: { offset: number; want: number; maxRead: number },
): Promise<Scan> {
  const filters = serviceFilters(q);
  const items: Expense[] = [];
  const seen = new Set<number>();
  let offset = options.offset;
  let read = 0;
  while (read < options.maxRead) {
    const limit = Math.min(PAGE, options.maxRead - read);
    const page = await client.getExpenses({ ...filters, offset, limit });
    for (const e of page) {
      read += 1;
      offset += 1;
      // A new expense shifts the pages while we read: one already seen is not kept twice.
      if (seen.has(e.id) || !matches(q, e)) continue;
      seen.add(e.id);
      if (items.length === options.want) {
        return { items, next: offset - 1, read, stoppedEarly: false };
      }
      items.push(e);
    }
    if (page.length < limit) return { items, next: null, read, stoppedEarly: false };
  }
  return { items, next: offset, read, stoppedEarly: true };
}

/**
 * "with <@U1>, in Roommates, about “taxi”, since Oct 1, 2026": what was asked for, as mrkdwn in
 * the reader's voice; empty when nothing was.
 */
export function describeQuery(q: ExpenseQuery, voice: Voice): string {
  const { from, to } = q.range;
  const parts: string[] = [];
  if (q.mentions.length > 0) {
    parts.push(voice.t('split.query_with', { people: voice.list(q.mentions.map(mention)) }));
  }
  if (q.group) parts.push(voice.t('split.query_in', { group: mrkdwn(q.group.name) }));
  if (q.words.length > 0) {
    const quoted = q.words.map((w) => voice.t('split.query_word', { word: mrkdwn(w) }));
    parts.push(voice.t('split.query_about', { words: voice.list(quoted) }));
  }
  if (from && to) {
    parts.push(
      from === to
        ? voice.t('split.query_on', { date: voice.date(from) })
        : voice.t('split.query_between', { from: voice.date(from), to: voice.date(to) }),
    );
  } else if (from) parts.push(voice.t('split.query_since', { date: voice.date(from) }));
  else if (to) parts.push(voice.t('split.query_until', { date: voice.date(to) }));
  return parts.join(', ');
}
