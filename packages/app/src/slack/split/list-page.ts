/**
 * One page of `/split list`: up to 20 matching expenses from a given service offset, with
 * Older/Newer buttons that carry the filters and the page starts, and an Export button. The same
 * page is built for the command and for each click of a paging button.
 */
import { currencyExponent, parseMinor } from '../../core/money.js';
import type { Expense, ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import { userName } from '../shared/expense-people.js';
import type { Voice } from '../shared/voice.js';
import { describeQuery, type ExpenseQuery, scanExpenses } from './expense-query.js';
import { encodeListRef, MAX_PAGES } from './list-ref.js';
import { expenseListMessage, type ListedExpense } from './list-view.js';

const LIST_SIZE = 20;
/**
 * Expenses read from the service for one page at most: with filters the service can't apply, a
 * page may need many reads, and a click must be answered within Slack's response_url time.
 */
const MAX_READ_PER_PAGE = 500;

/** A service amount in minor units; one the service wrote wrongly counts as 0 in a list. */
function minorOf(e: Expense) {
  const exponent = currencyExponent(e.currency_code);
  return (text: string) => {
    try {
      return parseMinor(text, exponent);
    } catch {
      return 0;
    }
  };
}

/** Names of the caller's groups by id; a list without them still shows, without group names. */
export async function groupNames(
  deps: Pick<SlackDeps, 'directory'>,
  user: SlackUserKey,
  client: ServiceClient,
): Promise<Map<number, string>> {
  const groups = await deps.directory.groups(user, client).catch(() => []);
  return new Map(groups.filter((g) => g.id !== 0).map((g) => [g.id, g.name]));
}

export async function listPage(input: {
  deps: Pick<SlackDeps, 'directory'>;
  user: SlackUserKey;
  client: ServiceClient;
  me: number;
  query: ExpenseQuery;
  starts: number[];
  voice: Voice;
  /** Said under the list first (mrkdwn), e.g. that words were searched for. */
  note?: string | undefined;
}): Promise<SlackMessage> {
  const { query, starts, me, voice } = input;
  const offset = starts[starts.length - 1] ?? 0;
  const [scan, names] = await Promise.all([
    scanExpenses(input.client, query, { offset, want: LIST_SIZE, maxRead: MAX_READ_PER_PAGE }),
    groupNames(input.deps, input.user, input.client),
  ]);
  const items: ListedExpense[] = scan.items.map((e) => {
    const minor = minorOf(e);
    const payers = e.users
      .filter((u) => minor(u.paid_share) > 0)
      .sort((a, b) => minor(b.paid_share) - minor(a.paid_share));
    const nameOf = (u: (typeof e.users)[number] | undefined) =>
      u && u.user_id === me ? voice.t('split.list_you') : mrkdwn(userName(u?.user, voice));
    const mine = e.users.find((u) => u.user_id === me);
    return {
      id: e.id,
      description: e.description,
      cost: minor(e.cost),
      currency: e.currency_code,
      date: e.date.slice(0, 10),
      // Several payers are all named, the one who paid most first.
      paidBy: payers.length > 1 ? voice.list(payers.map(nameOf)) : nameOf(payers[0] ?? e.users[0]),
      myShare: mine ? minor(mine.owed_share) : null,
      group: e.group_id ? (names.get(e.group_id) ?? null) : null,
    };
  });
  const older =
    scan.next !== null && starts.length < MAX_PAGES
      ? encodeListRef({ query, starts: [...starts, scan.next] })
      : undefined;
  const newer =
    starts.length > 1 ? encodeListRef({ query, starts: starts.slice(0, -1) }) : undefined;
  const notes: string[] = input.note ? [input.note] : [];
  if (scan.stoppedEarly)
    notes.push(
      voice.t('split.list_stopped', {
        count: scan.read,
        by: query.words.length > 0 ? 'words' : 'people',
        older: voice.t('split.list_older'),
      }),
    );
  if (scan.next !== null && older === undefined) notes.push(voice.t('split.list_narrow'));
  return expenseListMessage(voice, {
    filters: describeQuery(query, voice),
    items,
    page: starts.length,
    buttons: { previous: newer, next: older, export: encodeListRef({ query, starts: [0] }) },
    note: notes.join(' ') || undefined,
  });
}
