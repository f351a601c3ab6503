/**
 * Duplicate on a booked expense: the expense form opens as a new expense filled in from that one
 * (dated today), and is booked like any new form: once, however often it is submitted. A double
 * click opens one form. People on the expense who are not in this workspace cannot be chosen in
 * the form, so they are left out, and the form says so.
 */
import type { LookupBudget } from '../../accounts/lookups.js';
import { notesOf, parseExpenseRef } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { mrkdwn } from '../kit/text.js';
import { type ButtonArgs, readClick } from '../runtime/click.js';
import { todayIn } from '../shared/dates.js';
import { accessExpense } from '../shared/expense-access.js';
import { told } from '../shared/told.js';
import type { Voice } from '../shared/voice.js';
import { expenseSources } from './expense-sources.js';
import { encodeMeta, MAX_PARTICIPANTS } from './form.js';
import { formFromExpense, groupChoices, initialOf } from './from-expense.js';
import { type FormRequest, type Opened, openThenFill, refusedView, update } from './open.js';
import { expenseFormView, formTitle } from './views.js';

/** Two clicks this close together are one double click. */
const DOUBLE_CLICK_MS = 5_000;

/**
 * The line above the copy: what it was copied from (the description as typed, shown as text
 * whatever it holds), what the next step asks, and how many people were left out.
 */
export function copyNote(
  copy: { description: string; next: 'paid' | 'parts' | 'none'; leftOut: number },
  voice: Voice,
): string {
  return voice.t('form.copied', {
    description: mrkdwn(copy.description),
    next: copy.next,
    leftOut: copy.leftOut,
  });
}

export function duplicateClicked(deps: SlackDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    const click = await readClick(args, parseExpenseRef, (voice) => voice.t('actions.damaged'));
    if (told(click)) return;
    const message = args.body.message?.ts ?? '';
    const first = await deps.claims
      .claim(
        `duplicate:${click.user.team_id}:${click.user.user_id}:${click.ref.e}:${message}`,
        DOUBLE_CLICK_MS,
      )
      // Without the store, a second form is better than none: each books at most once.
      .catch(() => true);
    if (!first) {
      args.logger.info({
        msg: 'duplicate of expense {e}: a double click, one form opened',
        e: click.ref.e,
      });
      return;
    }
    const request: FormRequest = {
      deps,
      context: args.context,
      client: args.client,
      logger: args.logger,
      trigger_id: args.body.trigger_id,
      user: click.user,
      channel: args.body.channel?.id,
    };
    await openThenFill(
      request,
      {
        mode: 'copy',
        what: 'duplicate form',
        cannotOpen: 'form.not_opened_duplicate',
        thread_ts: undefined,
      },
      (opened, voice, lookups) => fillDuplicate(request, click.ref.e, opened, voice, lookups),
    );
  };
}

async function fillDuplicate(
  r: FormRequest,
  expenseId: number,
  opened: Opened,
  voice: Voice,
  lookups: LookupBudget,
): Promise<void> {
  const { deps, user } = r;
  const title = formTitle('copy', voice);
  const access = await accessExpense(
    deps,
    user,
    expenseId,
    voice.t('expense.nothing_booked'),
    voice,
  );
  if (!access.ok) {
    const view = refusedView(
      access,
      title,
      'form.connect_first_duplicate',
      voice,
      'form.duplicate_not_on_it',
    );
    await update(r.client, opened, view, r.logger);
    return;
  }
  const { expense } = access;
  const { groups, me, minor, slackOf } = await expenseSources(deps, user, access, lookups);
  const sharing = expense.users.filter((u) => minor(u.owed_share) > 0);
  const { form: copy, equal } = formFromExpense(
    expense,
    { minor, slackOf },
    {
      voice,
      person: user.user_id,
      participants: (owing) =>
        owing
          .map((u) => slackOf(u.user_id))
          .filter((id): id is string => id !== undefined)
          .slice(0, MAX_PARTICIPANTS),
      date: todayIn(me?.tz, deps.now()),
      notes: notesOf(expense.details),
      repeat: 'never',
    },
  );
  const alsoPaid = copy.alsoPaid ?? [];
  const leftOut = sharing.length - copy.participants.length;
  // A copy of an unequal split, or of several payers, carries its parts to the second step.
  if (!equal || alsoPaid.length > 0) await deps.expenses.saveDraft(user, opened.id, { copy });
  const next = alsoPaid.length > 0 ? 'paid' : !equal ? 'parts' : 'none';
  const note = copyNote({ description: expense.description, next, leftOut }, voice);
  await update(
    r.client,
    opened,
    expenseFormView(
      {
        mode: 'copy',
        meta: encodeMeta(deps.offers, user, {
          ...(r.channel ? { c: r.channel } : {}),
          ...(me?.tz ? { z: me.tz } : {}),
          ...(me?.locale ? { l: me.locale } : {}),
        }),
        initial: {
          ...initialOf(copy, expense, voice),
          participants: copy.participants.length > 0 ? copy.participants : [user.user_id],
          repeat: undefined,
        },
        groups: groupChoices(groups),
        currencyUnit: deps.reference.unit(expense.currency_code),
        note,
      },
      voice,
    ),
    r.logger,
  );
}
