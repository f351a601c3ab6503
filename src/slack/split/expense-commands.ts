/**
 * `/split` kinds about booked expenses: `list` (recent expenses, filtered), `undo` (the
 * person's last expense booked from Slack), and the form itself when it can't be opened (a `/split`
 * carried out after linking has no trigger id left).
 */
import { resolvePeople } from '../../accounts/people.js';
import { currencyExponent, parseMinor } from '../../core/money.js';
import type { ServiceClient } from '../../service/index.js';
import { deletedMessage } from '../shared/expense-message.js';
import { userName } from '../shared/expense-people.js';
import type { SlackMessage } from '../shared/message.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import {
  linked,
  type SplitContext,
  type SplitRequest,
  tellFailure,
} from '../shared/split-context.js';
import { expenseListMessage, type ListedExpense } from './list-view.js';

const LIST_SIZE = 20;
const MAX_SCANNED = 500;
const LIST_EXAMPLE = '/split list @ann in Roommates from 2026-11-01 to 2026-11-20';

/** Runs `run` with the caller's link, after asking them to connect when they have none. */
async function withService(
  c: SplitRequest,
  nothingDone: string,
  run: (client: ServiceClient, me: number) => Promise<void>,
): Promise<void> {
  const link = await linked(c);
  if (!link) return;
  try {
    await run(link.client, link.record.service_user_id);
  } catch (error) {
    await tellFailure(c, error, nothingDone);
  }
}

/** A private notice whose text carries mentions (plainNotice escapes them). */
function mentionNotice(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

export async function formWithoutTrigger(c: SplitRequest): Promise<void> {
  await c.reply.ephemeral(
    plainNotice("You're connected. Type /split again to open the expense form."),
  );
}

export async function listExpenses(c: SplitContext<'list'>): Promise<void> {
  const { mentions, group, range } = c.parsed;
  await withService(c, '', async (client, me) => {
    let group_id: number | undefined;
    let groupName: string | undefined;
    if (group) {
      const wanted = group.trim().toLowerCase();
      const find = async (fresh: boolean) =>
        (await c.deps.directory.groups(c.user, client, fresh)).find(
          (g) => g.id !== 0 && g.name.trim().toLowerCase() === wanted,
        );
      const found = (await find(false)) ?? (await find(true));
      if (!found) {
        await c.reply.ephemeral(errorNotice(`You have no group called "${group}".`, LIST_EXAMPLE));
        return;
      }
      group_id = found.id;
      groupName = found.name;
    }
    const ids: number[] = [];
    if (mentions.length > 0) {
      const people = await resolvePeople({
        caller: { ...c.user, service_user_id: me },
        ids: mentions,
        tokens: c.deps.tokens,
        directory: c.deps.directory,
        client,
      });
      if ('problem' in people) {
        await c.reply.ephemeral(
          mentionNotice(`<@${people.problem.user_id}> has no expenses with you.`),
        );
        return;
      }
      let fresh: Map<string, number> | undefined;
      for (const mention of mentions) {
        const person = people.people.get(mention);
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
          await c.reply.ephemeral(mentionNotice(`You have no expenses with <@${mention}> yet.`));
          return;
        }
        if (id !== me) ids.push(id);
      }
    }
    const wanted = LIST_SIZE + 1;
    const found = [];
    // friend_id narrows to the first person; anyone else mentioned is checked on each expense.
    for await (const e of client.iterateExpenses(
      {
        visible: true,
        // A person's whole history can be long; the list is about recent ones.
        limit: MAX_SCANNED,
        ...(group_id !== undefined ? { group_id } : {}),
        ...(group_id === undefined && ids[0] !== undefined ? { friend_id: ids[0] } : {}),
        ...(range.from ? { dated_after: `${range.from}T00:00:00Z` } : {}),
        ...(range.to ? { dated_before: `${range.to}T23:59:59Z` } : {}),
      },
      { pageSize: 50 },
    )) {
      if (e.payment) continue;
      if (!ids.every((id) => e.users.some((u) => u.user_id === id))) continue;
      found.push(e);
      if (found.length >= wanted) break;
    }
    const items: ListedExpense[] = found.slice(0, LIST_SIZE).map((e) => {
      const exponent = currencyExponent(e.currency_code);
      const minor = (t: string) => {
        try {
          return parseMinor(t, exponent);
        } catch {
          return 0;
        }
      };
      const payer = [...e.users].sort((a, b) => minor(b.paid_share) - minor(a.paid_share))[0];
      const mine = e.users.find((u) => u.user_id === me);
      return {
        id: e.id,
        description: e.description,
        cost: minor(e.cost),
        currency: e.currency_code,
        date: e.date.slice(0, 10),
        paidBy: payer?.user_id === me ? 'you' : userName(payer?.user),
        myShare: mine ? minor(mine.owed_share) : null,
        group: groupName ?? null,
      };
    });
    const filters = [
      mentions.length > 0 ? `with ${mentions.map((m) => `<@${m}>`).join(', ')}` : '',
      groupName ? `in ${groupName}` : '',
      range.from && range.to
        ? range.from === range.to
          ? `on ${range.from}`
          : `from ${range.from} to ${range.to}`
        : range.from
          ? `since ${range.from}`
          : range.to
            ? `until ${range.to}`
            : '',
    ]
      .filter(Boolean)
      .join(' ');
    await c.reply.ephemeral(
      expenseListMessage({
        filters,
        items,
        more: found.length > LIST_SIZE,
        locale: c.me?.locale,
      }),
    );
  });
}

export async function undoLast(c: SplitRequest): Promise<void> {
  const last = await c.deps.expenses.lastBooked(c.user);
  if (!last) {
    await c.reply.ephemeral(
      plainNotice(
        "There's nothing to undo: I don't know of an expense you booked from Slack lately.",
      ),
    );
    return;
  }
  await withService(c, 'Nothing was deleted.', async (client) => {
    const result = await client.deleteExpense(last.expense_id);
    if (!result.success) {
      await c.deps.expenses.forgetBooked(c.user, last.expense_id);
      await c.reply.ephemeral(plainNotice(refusedText(result.errors, 'Nothing was deleted.')));
      return;
    }
    await c.deps.expenses.forgetBooked(c.user, last.expense_id);
    if (last.channel && last.ts) {
      const { channel, ts } = last;
      await c.deps.slack
        .forTeam(c.user.team_id)
        .then((slack) =>
          slack.chat.update({
            channel,
            ts,
            ...deletedMessage({
              expenseId: last.expense_id,
              deletedBy: c.user.user_id,
              what: last.description,
            }),
          }),
        )
        .catch((error: Error) =>
          c.logger.warn(`/split undo: message not updated: ${error.message}`),
        );
    }
    await c.reply.ephemeral(
      plainNotice(
        `Deleted “${last.description}” (expense #${last.expense_id}) for everyone on it.`,
      ),
    );
  });
}
