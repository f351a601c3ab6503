import type { SlackDeps } from '../../deps.js';
import { accessExpense, changeFailure, deniedMessage } from '../../expenses/access.js';
import { bookedFromExpense, whoIsWho } from '../../expenses/people.js';
import { refusedText } from '../../service-failure.js';
import { expenseMessage, parseExpenseRef } from '../../views/expense-message.js';
import { plainNotice } from '../../views/notices.js';
import { buttonListener } from './button.js';

const NOTHING = 'It is still deleted.';
const CLICK_CLAIM_MS = 30_000;

/** Undo on a deleted expense's message: restores it and shows it again as booked. */
export const restoreClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `restore of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: `This button is damaged. ${NOTHING}`,
    claim: {
      key: ({ ref, user }) => `restore:${user.team_id}:${ref.e}`,
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
      await args.respond({
        replace_original: true,
        ...expenseMessage(
          bookedFromExpense(expense, who, {
            bookedBy: creator && 'slack' in creator ? creator.slack : user.user_id,
            group: groups.find((g) => g.id === expense.group_id && g.id !== 0)?.name ?? null,
          }),
        ),
      });
    },
  });
