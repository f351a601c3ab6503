/**
 * `/split` kinds about booked expenses: `list` (recent expenses, filtered), `export` (the same
 * as a CSV file), `undo` (the person's last expense booked from Slack), and the form itself when
 * it can't be opened (a `/split` carried out after linking has no trigger id left).
 */
import type { ServiceClient } from '../../service/index.js';
import { deletedMessage } from '../booking/index.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import { plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import {
  linked,
  type SplitContext,
  type SplitRequest,
  tellFailure,
  tellProblem,
} from '../shared/split-context.js';
import { told } from '../shared/told.js';
import { type ExpenseQuery, resolveQuery } from './expense-query.js';
import { exportExpenses } from './export.js';
import { formOffer, offeredFormRef } from './form-offer.js';
import { listPage } from './list-page.js';

/** Runs `run` with the caller's link, after asking them to connect when they have none. */
async function withService(
  c: SplitRequest,
  nothingDone: string,
  run: (client: ServiceClient, me: number) => Promise<void>,
): Promise<void> {
  const link = await linked(c);
  if (told(link)) return;
  try {
    await run(link.client, link.record.service_user_id);
  } catch (error) {
    await tellFailure(c, error, nothingDone);
  }
}

/**
 * The form, asked for without a trigger id to open it with: a mention or a DM is offered a
 * button that opens it for their thread; a command carried out after linking is asked again.
 */
export async function formWithoutTrigger(c: SplitRequest): Promise<void> {
  const { typed } = c.inv;
  if (!typed) return c.reply.ephemeral(plainNotice(c.voice.t('split.form_again')));
  const ref = {
    channel: c.inv.channel_id,
    thread_ts: typed.thread_ts,
    fromThread: typed.in_thread === true,
    ...(typed.photo ? { photo: true } : {}),
  };
  await c.reply.ephemeral(formOffer(c.voice, ref, offeredFormRef(c.deps.offers, c.user, ref)));
}

/**
 * `list` and `export`: the typed filters resolved at the service (or the reason they can't be),
 * then the answer `answer` makes of the query; `searched` is the note saying that words with no
 * group of that name were searched for in descriptions.
 */
async function withQuery(
  c: SplitContext<'list'> | SplitContext<'export'>,
  nothingDone: string,
  answer: (
    client: ServiceClient,
    me: number,
    query: ExpenseQuery,
    searched: string | undefined,
  ) => Promise<SlackMessage>,
): Promise<void> {
  await withService(c, nothingDone, async (client, me) => {
    const resolved = await resolveQuery({
      deps: c.deps,
      user: c.user,
      client,
      me,
      filters: c.parsed,
      verb: c.parsed.kind,
      voice: c.voice,
      lookups: c.lookups,
    });
    if ('problem' in resolved) {
      return tellProblem(c, resolved.problem.message, resolved.problem.example);
    }
    const searched =
      resolved.searched === null
        ? undefined
        : c.voice.t('split.searched', { words: mrkdwn(resolved.searched) });
    await c.reply.ephemeral(await answer(client, me, resolved.query, searched));
  });
}

export async function listExpenses(c: SplitContext<'list'>): Promise<void> {
  await withQuery(c, '', (client, me, query, searched) =>
    listPage({
      deps: c.deps,
      user: c.user,
      client,
      me,
      query,
      starts: [0],
      voice: c.voice,
      note: searched,
    }),
  );
}

export async function exportCommand(c: SplitContext<'export'>): Promise<void> {
  await withQuery(c, c.voice.t('split.no_file_sent'), (client, _me, query, searched) =>
    exportExpenses({
      deps: c.deps,
      user: c.user,
      client,
      query,
      voice: c.voice,
      logger: c.logger,
      note: searched,
    }),
  );
}

export async function undoLast(c: SplitRequest): Promise<void> {
  const { voice } = c;
  const last = await c.deps.expenses.lastBooked(c.user);
  if (!last) {
    await c.reply.ephemeral(plainNotice(voice.t('split.undo_nothing')));
    return;
  }
  const nothingDeleted = voice.t('split.nothing_deleted');
  await withService(c, nothingDeleted, async (client) => {
    const result = await client.deleteExpense(last.expense_id);
    if (!result.success) {
      await c.deps.expenses.forgetBooked(c.user, last.expense_id);
      await c.reply.ephemeral(plainNotice(refusedText(voice, result.errors, nothingDeleted)));
      return;
    }
    await c.deps.expenses.forgetBooked(c.user, last.expense_id);
    if (last.channel && last.ts) {
      const { channel, ts } = last;
      // The message the channel sees stays in the voice of its booker, who is undoing it.
      const voice = c.voice;
      await c.deps.slack
        .forTeam(c.user.team_id)
        .then((slack) =>
          slack.chat.update({
            channel,
            ts,
            ...deletedMessage(
              { expenseId: last.expense_id, deletedBy: c.user.user_id, what: last.description },
              voice,
            ),
          }),
        )
        .catch((error: Error) =>
          c.logger.warn({ msg: '/split undo: message not updated: {error}', error: error.message }),
        );
    }
    await c.reply.ephemeral(
      plainNotice(
        voice.t('split.undo_done', { description: mrkdwn(last.description), id: last.expense_id }),
      ),
    );
  });
}
