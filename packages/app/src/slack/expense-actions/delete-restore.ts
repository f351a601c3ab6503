/**
 * Delete (after Slack's confirmation dialog) and Restore: one implementation, since
 * they differ only in who may click, the service call and what the message shows afterwards. Both
 * act with the clicker's own token, and only when the clicker is on the expense; Restore belongs to
 * whoever deleted it, as the Undo of a booking belongs to whoever booked it.
 * The clicker reads the answers in their own voice; the message, which the whole channel sees,
 * stays in the voice of the person who booked the expense.
 */
import type { BlockAction } from '@slack/bolt';
import type { LookupBudget } from '../../accounts/lookups.js';
import type { Expense, ServiceClient, SuccessResult } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { MessageKey } from '../../voice/index.js';
import {
  deletedMessage,
  expenseHeader,
  expenseMessage,
  headerOf,
  parseExpenseRef,
  type Who,
} from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { buttonListener } from '../runtime/click.js';
import {
  type Access,
  accessExpense,
  changeFailure,
  deniedMessage,
  notice,
  refusal,
  sentences,
} from '../shared/expense-access.js';
import { bookedFromExpense, whoIsWho } from '../shared/expense-people.js';
import { otherPersonVoice, type Voice } from '../shared/voice.js';

/** Long enough to swallow a double click, short enough that Delete works again after an Undo. */
const CLICK_CLAIM_MS = 30_000;

interface Change {
  verb: 'delete' | 'restore';
  /** The sentence that says what did not happen when the change fails. */
  nothingDone: MessageKey;
  /** Whether the expense is already as the click would leave it. */
  done(expense: { deleted_at?: string | null }): boolean;
  /** Why this clicker, on the expense, may not make the change; undefined when they may. */
  refusal?(expense: Expense, serviceUserId: number, voice: Voice): string | undefined;
  call(client: ServiceClient, id: number): Promise<SuccessResult>;
  /** What replaces the message once the change is made. */
  after(input: {
    user: SlackUserKey;
    id: number;
    body: BlockAction;
    access: Extract<Access, { ok: true }>;
    voice: Voice;
    lookups: LookupBudget;
  }): Promise<SlackMessage>;
}

const changeClicked = (deps: SlackDeps, change: Change) =>
  buttonListener(deps, {
    name: (ref) => `${change.verb} of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: (voice) =>
      sentences(voice, voice.t('actions.damaged_button'), voice.t(change.nothingDone)),
    claim: {
      key: ({ ref, user }) => `${change.verb}:${user.team_id}:${ref.e}`,
      ttlMs: CLICK_CLAIM_MS,
      keep: false,
    },
    queued: true,
    relinks: false,
    failure: (error, voice) => notice(changeFailure(error, voice.t(change.nothingDone), voice)),
    work: async ({ ref, user, reply, args, voice, lookups }) => {
      const nothingDone = voice.t(change.nothingDone);
      const access = await accessExpense(deps, user, ref.e, nothingDone, voice);
      if (!access.ok) {
        await reply.ephemeral(deniedMessage(access));
        return;
      }
      const done = change.done(access.expense);
      const refused = done
        ? undefined
        : change.refusal?.(access.expense, access.record.service_user_id, voice);
      if (refused) {
        await reply.ephemeral(notice(refused));
        return;
      }
      // The click's claim is given back once its work ends, so a double click whose second click
      // arrives later (on this replica or another) finds the change made: it only shows it again.
      const result: SuccessResult = done
        ? { success: true, errors: {} }
        : await change.call(access.client, ref.e);
      if (!result.success) {
        await reply.ephemeral(notice(refusal(voice, result.errors, nothingDone)));
        return;
      }
      const message = await change.after({
        user,
        id: ref.e,
        body: args.body,
        access,
        voice,
        lookups,
      });
      await args.respond({ replace_original: true, ...message });
    },
  });

/**
 * Who booked the expense in this workspace (the service's `created_by`, found among the people on
 * it), and the voice the message everyone sees is written in: theirs. The clicker's own when they
 * booked it, or when the booker can't be found in Slack.
 */
async function bookerOf(
  deps: SlackDeps,
  user: SlackUserKey,
  access: Extract<Access, { ok: true }>,
  expense: Expense,
  clicker: Voice,
  lookups: LookupBudget,
): Promise<{ bookedBy: string; voice: Voice; who: Map<number, Who> | undefined }> {
  const creator = expense.created_by?.id;
  if (creator === undefined || creator === access.record.service_user_id) {
    return { bookedBy: user.user_id, voice: clicker, who: undefined };
  }
  const who = await whoIsWho(
    deps,
    user,
    access.record.service_user_id,
    access.client,
    expense,
    lookups,
  );
  const found = who.get(creator);
  if (!found || !('slack' in found)) return { bookedBy: user.user_id, voice: clicker, who };
  return {
    bookedBy: found.slack,
    voice: await otherPersonVoice(
      deps,
      { team_id: user.team_id, user_id: found.slack },
      undefined,
      lookups,
    ),
    who,
  };
}

/** The message then shows the expense deleted, with a Restore button. */
export const deleteClicked = (deps: SlackDeps) =>
  changeClicked(deps, {
    verb: 'delete',
    nothingDone: 'expense.nothing_deleted',
    done: (expense) => Boolean(expense.deleted_at),
    call: (client, id) => client.deleteExpense(id),
    async after({ user, id, body, access, voice, lookups }) {
      await deps.expenses.forgetBooked(user, id).catch(() => undefined);
      // The channel's message stays in its booker's voice, whoever deleted it.
      const booker = await bookerOf(deps, user, access, access.expense, voice, lookups).catch(
        () => ({
          voice,
        }),
      );
      return deletedMessage(
        {
          expenseId: id,
          deletedBy: user.user_id,
          what:
            headerOf(body.message?.blocks) ||
            expenseHeader(amountsOf(access.expense), booker.voice),
        },
        booker.voice,
      );
    },
  });

/** The parts of a service expense its header names, in minor units. */
function amountsOf(expense: Expense): { description: string; cost: number; currency: string } {
  const booked = bookedFromExpense(expense, new Map(), { bookedBy: '', group: null });
  return { description: booked.description, cost: booked.cost, currency: booked.currency };
}

/** Restore on a deleted expense's message: shows it again as booked. */
export const restoreClicked = (deps: SlackDeps) =>
  changeClicked(deps, {
    verb: 'restore',
    nothingDone: 'expense.still_deleted',
    done: (expense) => !expense.deleted_at,
    refusal: (expense, me, voice) =>
      expense.deleted_by?.id === me ? undefined : voice.t('actions.restore_not_yours'),
    call: (client, id) => client.undeleteExpense(id),
    async after({ user, id, access, voice, lookups }) {
      const expense = await access.client.getExpense(id);
      const [booker, groups] = await Promise.all([
        bookerOf(deps, user, access, expense, voice, lookups),
        deps.directory.groups(user, access.client).catch(() => []),
      ]);
      const who =
        booker.who ??
        (await whoIsWho(
          deps,
          user,
          access.record.service_user_id,
          access.client,
          expense,
          lookups,
        ));
      return expenseMessage(
        bookedFromExpense(expense, who, {
          bookedBy: booker.bookedBy,
          group: groups.find((g) => g.id === expense.group_id && g.id !== 0)?.name ?? null,
        }),
        // Written again as it was booked: in the booker's words, amounts and dates.
        booker.voice,
      );
    },
  });
