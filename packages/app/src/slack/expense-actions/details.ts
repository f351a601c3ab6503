import { ServiceBaseException, ServiceNotAllowedException } from '../../service/index.js';
import { notesOf, parseExpenseRef, receiptUrlOf } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { buttonListener } from '../runtime/click.js';
import { accessFailure, notice, sentences } from '../shared/expense-access.js';
import { bookedFromExpense, nameOf, whoIsWho } from '../shared/expense-people.js';
import { told } from '../shared/told.js';
import { expenseDetailsMessage } from './details-view.js';

/** Details: the whole split and the comments, privately, read with the clicker's own token. */
export const detailsClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `details of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: (voice) => voice.t('actions.damaged'),
    queued: true,
    relinks: true,
    failure: (error, voice) =>
      notice(
        error instanceof ServiceNotAllowedException
          ? voice.t('actions.details_not_on_it')
          : error instanceof ServiceBaseException
            ? accessFailure(error, '', voice)
            : sentences(voice, voice.t('expense.our_side'), voice.t('actions.try_again')),
      ),
    work: async ({ ref, user, reply, linked, voice, lookups }) => {
      const record = await linked();
      if (told(record)) return;
      const client = deps.service.forLink(record);
      const expense = await client.getExpense(ref.e);
      const [who, groups, comments, categories] = await Promise.all([
        whoIsWho(deps, user, record.service_user_id, client, expense, lookups),
        deps.directory.groups(user, client).catch(() => []),
        expense.comments ? Promise.resolve(expense.comments) : client.getComments(ref.e),
        deps.reference.categories().catch(() => undefined),
      ]);
      const creator = expense.created_by ? who.get(expense.created_by.id) : undefined;
      const booked = bookedFromExpense(expense, who, {
        bookedBy: creator && 'slack' in creator ? creator.slack : user.user_id,
        group: groups.find((g) => g.id === expense.group_id && g.id !== 0)?.name ?? null,
      });
      await reply.ephemeral(
        expenseDetailsMessage(
          {
            expense: booked,
            category:
              expense.category?.name ??
              (categories && expense.category
                ? (deps.reference.categoryName(expense.category.id) ?? null)
                : null),
            notes: notesOf(expense.details) || null,
            repeat: expense.repeat_interval ?? null,
            receiptUrl: receiptUrlOf(expense.receipt),
            deleted: Boolean(expense.deleted_at),
            comments: comments
              .filter((c) => !c.deleted_at)
              .map((c) => ({
                author: nameOf(c.user ?? undefined),
                at: c.created_at,
                content: c.content,
                system: c.comment_type === 'System',
              })),
          },
          voice,
        ),
      );
    },
  });
