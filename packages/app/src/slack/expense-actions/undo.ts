import { ServiceBaseException } from '../../service/index.js';
import { expenseHeader, headerOf, parseExpenseRef, undoneMessage } from '../booking/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { buttonListener } from '../runtime/click.js';
import {
  accessExpense,
  changeFailure,
  deniedMessage,
  notice,
  refusal,
  sentences,
} from '../shared/expense-access.js';
import { bookedFromExpense } from '../shared/expense-people.js';

/**
 * Undo on a booked expense: deletes it with the clicking person's own link and replaces the
 * message. The message is public, and the service lets anyone on an expense delete it, so the
 * click is checked first: only the person who booked it (the service's `created_by`) may undo it;
 * anyone else on it is pointed to Delete, and anyone not on it hears so. A double click (or a
 * redelivery) finds the booker's claim taken and does nothing more; a refusal or a failure gives
 * the claim back so that the button can be pressed again. Only the booker gets this far, so the
 * message that replaces it is written in the clicker's voice, which is the booker's.
 */
export const undoClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `undo of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: (voice) =>
      sentences(voice, voice.t('actions.undo_damaged'), voice.t('expense.nothing_changed')),
    claim: {
      // Per clicker: someone else's refused click never holds up the booker's.
      key: ({ ref, user }) => `undo:${user.team_id}:${ref.e}:${user.user_id}`,
      ttlMs: DEDUPE_TTL_MS,
      keep: true,
    },
    queued: false,
    relinks: true,
    failure: (error, voice) =>
      notice(
        error instanceof ServiceBaseException && error.outcome_unknown
          ? voice.t('actions.undo_unconfirmed')
          : changeFailure(error, voice.t('expense.nothing_changed'), voice),
      ),
    work: async ({ ref, user, reply, args, giveBack, voice }) => {
      const nothingChanged = voice.t('expense.nothing_changed');
      const access = await accessExpense(deps, user, ref.e, nothingChanged, voice);
      if (!access.ok) {
        await giveBack();
        await reply.ephemeral(deniedMessage(access));
        return;
      }
      if (access.expense.created_by?.id !== access.record.service_user_id) {
        await giveBack();
        args.logger.info({
          msg: 'undo of expense {e}: refused, the clicker did not book it',
          e: ref.e,
        });
        await reply.ephemeral(notice(voice.t('actions.undo_not_booker')));
        return;
      }
      const result = await access.client.deleteExpense(ref.e);
      if (!result.success) {
        await giveBack();
        await reply.ephemeral(notice(refusal(voice, result.errors, nothingChanged)));
        return;
      }
      const booked = bookedFromExpense(access.expense, new Map(), { bookedBy: '', group: null });
      await args.respond({
        replace_original: true,
        ...undoneMessage(
          {
            expenseId: ref.e,
            undoneBy: user.user_id,
            // The header as the message showed it (plain text), else the expense's own.
            what: headerOf(args.body.message?.blocks) || expenseHeader(booked, voice),
          },
          voice,
        ),
      });
    },
  });
