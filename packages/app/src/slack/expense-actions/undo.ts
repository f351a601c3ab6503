import { ServiceBaseException } from '../../service/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { buttonListener } from '../shared/button.js';
import { accessExpense, deniedMessage } from '../shared/expense-access.js';
import { parseExpenseRef, undoneMessage } from '../shared/expense-message.js';
import { plainNotice } from '../shared/notices.js';
import { describeServiceFailure, refusedText } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';

const NOTHING_CHANGED = 'Nothing was changed.';

/** What someone on the expense who did not book it reads when they press its Undo. */
export const NOT_THE_BOOKER =
  "Only the person who booked this expense can undo it. You're on it, so Delete removes it for everyone (and its Undo brings it back). Nothing was changed.";

/**
 * Undo on a booked expense: deletes it with the clicking person's own link and replaces the
 * message. The message is public, and the service lets anyone on an expense delete it, so the
 * click is checked first: only the person who booked it (the service's `created_by`) may undo it;
 * anyone else on it is pointed to Delete, and anyone not on it hears so. A double click (or a
 * redelivery) finds the booker's claim taken and does nothing more; a refusal or a failure gives
 * the claim back so that the button can be pressed again.
 */
export const undoClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `undo of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged:
      "This Undo button is damaged, so I can't tell which expense it meant. Nothing was changed.",
    claim: {
      // Per clicker: someone else's refused click never holds up the booker's.
      key: ({ ref, user }) => `undo:${user.team_id}:${ref.e}:${user.user_id}`,
      ttlMs: DEDUPE_TTL_MS,
      keep: true,
    },
    queued: false,
    relinks: true,
    failureText: (error, voice) =>
      error instanceof ServiceBaseException && error.outcome_unknown
        ? "The expense service didn't confirm the undo in time. Press Undo again to make sure it's done."
        : describeServiceFailure(voice, error, NOTHING_CHANGED).text,
    work: async ({ ref, user, reply, args, giveBack }) => {
      const access = await accessExpense(deps, user, ref.e, NOTHING_CHANGED);
      if (!access.ok) {
        await giveBack();
        await reply.ephemeral(deniedMessage(access));
        return;
      }
      if (access.expense.created_by?.id !== access.record.service_user_id) {
        await giveBack();
        args.logger.info(`undo of expense ${ref.e}: refused, the clicker did not book it`);
        await reply.ephemeral(plainNotice(NOT_THE_BOOKER));
        return;
      }
      const result = await access.client.deleteExpense(ref.e);
      if (!result.success) {
        await giveBack();
        const voice = await voiceOf(deps, user, args.logger);
        await reply.ephemeral(plainNotice(refusedText(voice, result.errors, NOTHING_CHANGED)));
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
