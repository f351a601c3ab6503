import type { SlackDeps } from '../../deps.js';
import { accessExpense, changeFailure, deniedMessage } from '../../expenses/access.js';
import { refusedText } from '../../service-failure.js';
import { deletedMessage, headerOf, parseExpenseRef } from '../../views/expense-message.js';
import { plainNotice } from '../../views/notices.js';
import { buttonListener } from './button.js';

const NOTHING = 'Nothing was deleted.';
/** Long enough to swallow a double click, short enough that Delete works again after an Undo. */
const CLICK_CLAIM_MS = 30_000;

/**
 * Delete (after Slack's confirmation dialog): with the clicker's own token, only when they are on
 * the expense; the message then shows it deleted, with an Undo that restores it.
 */
export const deleteClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `delete of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: `This button is damaged. ${NOTHING}`,
    claim: {
      key: ({ ref, user }) => `delete:${user.team_id}:${ref.e}`,
      ttlMs: CLICK_CLAIM_MS,
      keep: false,
    },
    queued: true,
    relinks: false,
    failureText: (error) => changeFailure(error, NOTHING),
    work: async ({ ref, user, reply, args }) => {
      const access = await accessExpense(deps, user, ref.e, NOTHING);
      if (!access.ok) {
        await reply.ephemeral(deniedMessage(access));
        return;
      }
      const result = await access.client.deleteExpense(ref.e);
      if (!result.success) {
        await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING)));
        return;
      }
      await deps.expenses.forgetBooked(user, ref.e).catch(() => undefined);
      await args.respond({
        replace_original: true,
        ...deletedMessage({
          expenseId: ref.e,
          deletedBy: user.user_id,
          what: headerOf(args.body.message?.blocks) || access.expense.description,
        }),
      });
    },
  });
