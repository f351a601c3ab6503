/**
 * What `/split list`, its paging buttons and `/split export` share: the filters typed turned into
 * what the service knows (a group id, service user ids), and a scan of the service's expenses,
 * newest first, page by page (get_expenses' limit and offset). The service filters by one group or
 * one friend and by dates; other people and words of the description are checked here, on each
 * expense, so a scan reads more expenses than it keeps and says how far it read.
 */
import { resolvePeople } from '../../accounts/people.js';
import type { DateRange, ListFilters } from '../../core/command/index.js';
import type { Expense, ExpenseFilters, ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../shared/message.js';
import { errorNotice } from '../shared/notices.js';

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

/** A private notice whose text carries mentions (plainNotice escapes them). */
function mentionNotice(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** The typed filters resolved at the service, or what to tell the person when one can't be. */
export async function resolveQuery(input: {
  deps: Pick<SlackDeps, 'directory' | 'tokens'>;
  user: SlackUserKey;
  client: ServiceClient;
  me: number;
  filters: ListFilters;
  verb: 'list' | 'export';
}): Promise<{ query: ExpenseQuery } | { problem: SlackMessage }> {
  const { deps, user, client, me, filters, verb } = input;
  let group: ExpenseQuery['group'] = null;
  if (filters.group) {
    const wanted = filters.group.trim().toLowerCase();
    const find = async (fresh: boolean) =>
      (await deps.directory.groups(user, client, fresh)).find(
        (g) => g.id !== 0 && g.name.trim().toLowerCase() === wanted,
      );
    const found = (await find(false)) ?? (await find(true));
    if (!found) {
      // Words without "in" are read as a group's name; the person may have meant a search.
      const search = filters.group.includes(' ') ? `"${filters.group}"` : filters.group;
      return {
        problem: errorNotice(
          `You have no group called "${filters.group}". To find expenses by their description, say "about": /split ${verb} about ${search}`,
          `/split ${verb} in Roommates`,
        ),
      };
    }
    group = { id: found.id, name: found.name };
  }
  const people: number[] = [];
  if (filters.mentions.length > 0) {
    const resolved = await resolvePeople({
      caller: { ...user, service_user_id: me },
      ids: filters.mentions,
      tokens: deps.tokens,
      directory: deps.directory,
      client,
    });
    if ('problem' in resolved) {
      return {
        problem: mentionNotice(`<@${resolved.problem.user_id}> has no expenses with you.`),
      };
    }
    let fresh: Map<string, number> | undefined;
    for (const mention of filters.mentions) {
      const person = resolved.people.get(mention);
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
        return { problem: mentionNotice(`You have no expenses with <@${mention}> yet.`) };
      }
      if (id !== me && !people.includes(id)) people.push(id);
    }
  }
  return {
    query: {
      group,
      people,
      mentions: filters.mentions,
      range: filters.range,
      words: filters.words,
    },
  };
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
 * "with <@U1>, in Roommates, about “taxi”, since 2026-10-01": what was asked for. `text` is
 * applied to what the person typed (the group's name, the words), e.g. to escape it for mrkdwn.
 */
export function describeQuery(q: ExpenseQuery, text: (typed: string) => string = (t) => t): string {
  const { from, to } = q.range;
  return [
    q.mentions.length > 0 ? `with ${q.mentions.map((m) => `<@${m}>`).join(', ')}` : '',
    q.group ? `in ${text(q.group.name)}` : '',
    q.words.length > 0 ? `about ${q.words.map((w) => `“${text(w)}”`).join(' and ')}` : '',
    from && to
      ? from === to
        ? `on ${from}`
        : `from ${from} to ${to}`
      : from
        ? `since ${from}`
        : to
          ? `until ${to}`
          : '',
  ]
    .filter(Boolean)
    .join(' ');
}
