import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ServiceBaseException } from '../../../service/index.js';
import type { SlackDeps } from '../../deps.js';
import { accessExpense, accessFailure } from '../../expenses/access.js';
import { bookedFromExpense, whoIsWho } from '../../expenses/people.js';
import { replyWithRespond } from '../../reply.js';
import { refusedText } from '../../service-failure.js';
import { expenseMessage, parseExpenseRef } from '../../views/expense-message.js';
import { connectPrompt, plainNotice } from '../../views/notices.js';

const NOTHING = 'It is still deleted.';
const CLICK_CLAIM_MS = 30_000;

/** Undo on a deleted expense's message: restores it and shows it again as booked. */
export function restoreClicked(deps: SlackDeps) {
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
      await reply.ephemeral(plainNotice(`This button is damaged. ${NOTHING}`));
      return;
    }
    const user = { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
    const key = `restore:${user.team_id}:${ref.e}`;
    deps.work.push(async () => {
      if (!(await deps.claims.claim(key, CLICK_CLAIM_MS))) return;
      try {
        const access = await accessExpense(deps, user, ref.e, NOTHING);
        if (!access.ok) {
          await reply.ephemeral(
            access.kind === 'connect'
              ? connectPrompt({ url: access.url, reason: access.reason })
              : plainNotice(access.text),
          );
          return;
        }
        const result = await access.client.undeleteExpense(ref.e);
        if (!result.success) {
          await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING)));
          return;
        }
        const expense = await access.client.getExpense(ref.e);
        const [who, groups] = await Promise.all([
          whoIsWho(deps, user, access.record.service_user_id, access.client, expense),
          deps.directory.groups(user, access.client).catch(() => []),
        ]);
        const creator = expense.created_by ? who.get(expense.created_by.id) : undefined;
        await respond({
          replace_original: true,
          ...expenseMessage(
            bookedFromExpense(expense, who, {
              bookedBy: creator && 'slack' in creator ? creator.slack : user.user_id,
              group: groups.find((g) => g.id === expense.group_id && g.id !== 0)?.name ?? null,
            }),
          ),
        });
      } catch (error) {
        logger.warn(`restore of expense ${ref.e} failed: ${(error as Error).message}`);
        await reply
          .ephemeral(
            plainNotice(
              error instanceof ServiceBaseException
                ? accessFailure(error, NOTHING)
                : `Something went wrong on my side. ${NOTHING}`,
            ),
          )
          .catch(() => undefined);
      } finally {
        await deps.claims.release(key).catch(() => undefined);
      }
    });
  };
}
