/**
 * Delete (after Slack's confirmation dialog) and its Undo, restore: one implementation, since
 * they differ only in who may click, the service call and what the message shows afterwards. Both
 * act with the clicker's own token, and only when the clicker is on the expense; the Undo of a
 * delete belongs to whoever deleted it, as the Undo of a booking belongs to whoever booked it.
 */
import type { BlockAction } from '@slack/bolt';
import type { Expense, ServiceClient, SuccessResult } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { buttonListener } from '../shared/button.js';
import {
  type Access,
  accessExpense,
  changeFailure,
  deniedMessage,
} from '../shared/expense-access.js';
import {
  deletedMessage,
  expenseMessage,
  headerOf,
  parseExpenseRef,
} from '../shared/expense-message.js';
import { bookedFromExpense, whoIsWho } from '../shared/expense-people.js';
import type { SlackMessage } from '../shared/message.js';
import { plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';

/** Long enough to swallow a double click, short enough that Delete works again after an Undo. */
const CLICK_CLAIM_MS = 30_000;

interface Change {
  verb: 'delete' | 'restore';
  nothingDone: string;
  /** Whether the expense is already as the click would leave it. */
  done(expense: { deleted_at?: string | null }): boolean;
  /** Why this clicker, on the expense, may not make the change; undefined when they may. */
  refusal?(expense: Expense, serviceUserId: number): string | undefined;
  call(client: ServiceClient, id: number): Promise<SuccessResult>;
  /** What replaces the message once the change is made. */
  after(input: {
    user: SlackUserKey;
    id: number;
    body: BlockAction;
    access: Extract<Access, { ok: true }>;
  }): Promise<SlackMessage>;
}

const changeClicked = (deps: SlackDeps, change: Change) =>
  buttonListener(deps, {
    name: (ref) => `${change.verb} of expense ${ref.e}`,
    parse: parseExpenseRef,
    damaged: `This button is damaged. ${change.nothingDone}`,
    claim: {
      key: ({ ref, user }) => `${change.verb}:${user.team_id}:${ref.e}`,
      ttlMs: CLICK_CLAIM_MS,
      keep: false,
    },
    queued: true,
    relinks: false,
    failureText: (error, voice) => changeFailure(voice, error, change.nothingDone),
    work: async ({ ref, user, reply, args }) => {
      const access = await accessExpense(deps, user, ref.e, change.nothingDone);
      if (!access.ok) {
        await reply.ephemeral(deniedMessage(access));
        return;
      }
      const done = change.done(access.expense);
      const refused = done
        ? undefined
        : change.refusal?.(access.expense, access.record.service_user_id);
      if (refused) {
        await reply.ephemeral(plainNotice(refused));
        return;
      }
      // The click's claim is given back once its work ends, so a double click whose second click
      // arrives later (on this replica or another) finds the change made: it only shows it again.
      const result: SuccessResult = done
        ? { success: true, errors: {} }
        : await change.call(access.client, ref.e);
      if (!result.success) {
        const voice = await voiceOf(deps, user, args.logger);
        await reply.ephemeral(plainNotice(refusedText(voice, result.errors, change.nothingDone)));
        return;
      }
      const message = await change.after({ user, id: ref.e, body: args.body, access });
      await args.respond({ replace_original: true, ...message });
    },
  });

/** The message then shows the expense deleted, with an Undo that restores it. */
export const deleteClicked = (deps: SlackDeps) =>
  changeClicked(deps, {
    verb: 'delete',
    nothingDone: 'Nothing was deleted.',
    done: (expense) => Boolean(expense.deleted_at),
    call: (client, id) => client.deleteExpense(id),
    async after({ user, id, body, access }) {
      await deps.expenses.forgetBooked(user, id).catch(() => undefined);
      return deletedMessage({
        expenseId: id,
        deletedBy: user.user_id,
        what: headerOf(body.message?.blocks) || access.expense.description,
      });
    },
  });

/** Undo on a deleted expense's message: restores it and shows it again as booked. */
export const restoreClicked = (deps: SlackDeps) =>
  changeClicked(deps, {
    verb: 'restore',
    nothingDone: 'It is still deleted.',
    done: (expense) => !expense.deleted_at,
    refusal: (expense, me) =>
      expense.deleted_by?.id === me
        ? undefined
        : 'Only the person who deleted this expense can undo that. It is still deleted.',
    call: (client, id) => client.undeleteExpense(id),
    async after({ user, id, access }) {
      const expense = await access.client.getExpense(id);
      const [who, groups, me] = await Promise.all([
        whoIsWho(deps, user, access.record.service_user_id, access.client, expense),
        deps.directory.groups(user, access.client).catch(() => []),
        deps.directory.slackUser(user.team_id, user.user_id).catch(() => undefined),
      ]);
      const creator = expense.created_by ? who.get(expense.created_by.id) : undefined;
      return expenseMessage(
        bookedFromExpense(expense, who, {
          bookedBy: creator && 'slack' in creator ? creator.slack : user.user_id,
          group: groups.find((g) => g.id === expense.group_id && g.id !== 0)?.name ?? null,
          // The same locale the booking was shown in, so a restored message reads as before.
          locale: me?.locale,
        }),
      );
    },
  });
