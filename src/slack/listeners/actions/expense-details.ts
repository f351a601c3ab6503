import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ServiceBaseException } from '../../../service/index.js';
import type { SlackDeps } from '../../deps.js';
import { accessFailure } from '../../expenses/access.js';
import { bookedFromExpense, userName, whoIsWho } from '../../expenses/people.js';
import { replyWithRespond } from '../../reply.js';
import { describeServiceFailure } from '../../service-failure.js';
import { expenseDetailsMessage } from '../../views/expense-details.js';
import { parseExpenseRef } from '../../views/expense-message.js';
import { connectPrompt, plainNotice } from '../../views/notices.js';

/** Details: the whole split and the comments, privately, read with the clicker's own token. */
export function detailsClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    respond,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const reply = replyWithRespond(respond);
    const ref = parseExpenseRef(action.value);
    if (!ref) {
      await reply.ephemeral(
        plainNotice("This button is damaged, so I can't tell which expense it meant."),
      );
      return;
    }
    const user = { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
    deps.work.push(async () => {
      try {
        const record = await deps.tokens.get(user);
        if (!record) {
          const url = await deps.linking.connectUrl(user);
          await reply.ephemeral(connectPrompt({ url, reason: 'first_time' }));
          return;
        }
        const client = deps.service.forLink(record);
        const expense = await client.getExpense(ref.e);
        const [who, groups, comments, categories] = await Promise.all([
          whoIsWho(deps, user, record.service_user_id, client, expense),
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
          expenseDetailsMessage({
            expense: booked,
            category:
              expense.category?.name ??
              (categories && expense.category
                ? (deps.reference.categoryName(expense.category.id) ?? null)
                : null),
            notes: expense.details || null,
            repeat: expense.repeat_interval ?? null,
            receiptUrl: expense.receipt?.original ?? expense.receipt?.large ?? null,
            deleted: Boolean(expense.deleted_at),
            comments: comments
              .filter((c) => !c.deleted_at)
              .map((c) => ({
                author: c.comment_type === 'System' ? 'Update' : userName(c.user ?? undefined),
                at: c.created_at,
                content: c.content,
                system: c.comment_type === 'System',
              })),
          }),
        );
      } catch (error) {
        logger.warn(`details of expense ${ref.e} failed: ${(error as Error).message}`);
        if (error instanceof ServiceBaseException && describeServiceFailure(error, '').relink) {
          await deps.tokens.delete(user);
          deps.directory.forget(user);
          const url = await deps.linking.connectUrl(user);
          await reply.ephemeral(connectPrompt({ url, reason: 'revoked' }));
          return;
        }
        await reply
          .ephemeral(
            plainNotice(
              error instanceof ServiceBaseException
                ? accessFailure(error, '').replace('change it', 'see it').trim()
                : 'Something went wrong on my side. Try again in a minute.',
            ),
          )
          .catch(() => undefined);
      }
    });
  };
}
