import { ServiceBaseException } from '../../service/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { buttonListener } from '../shared/button.js';
import { parseExpenseRef, undoneMessage } from '../shared/expense-message.js';
import { plainNotice } from '../shared/notices.js';
import { describeServiceFailure, refusedText } from '../shared/service-failure.js';

const NOTHING_CHANGED = 'Nothing was changed.';

/**
 * Undo on a booked expense: deletes it with the clicking person's own link and replaces the
 * message. A double click (or a redelivery) finds the expense already claimed and does nothing
 * more; a failure gives the claim back so that the button can be pressed again.
 */
export const undoClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `undo of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged:
      "This Undo button is damaged, so I can't tell which expense it meant. Nothing was changed.",
    claim: {
      key: ({ ref, user }) => `undo:${user.team_id}:${ref.e}`,
      ttlMs: DEDUPE_TTL_MS,
      keep: true,
    },
    queued: false,
    relinks: true,
    failureText: (error) =>
      error instanceof ServiceBaseException && error.outcome_unknown
        ? "The expense service didn't confirm the undo in time. Press Undo again to make sure it's done."
        : describeServiceFailure(error, NOTHING_CHANGED).text,
    work: async ({ ref, user, reply, args, giveBack, linked }) => {
      const record = await linked();
      if (!record) return;
      const result = await deps.service.forLink(record).deleteExpense(ref.e);
      if (!result.success) {
        await giveBack();
        await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING_CHANGED)));
        return;
      }
      await args.respond({
        replace_original: true,
        ...undoneMessage({
          expenseId: ref.e,
          undoneBy: user.user_id,
          original: args.body.message?.text ?? '',
        }),
      });
    },
  });
