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
import { looksEqual } from '../shared/expense-people.js';
import type { Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';
import { expensePayers } from './expense-payers.js';
import { expenseSources } from './expense-sources.js';
import { type CheckedForm, encodeMeta, MAX_PARTICIPANTS } from './form.js';
import { type FormRequest, type Opened, openThenFill, update } from './open.js';
import { expenseFormView, formTitle, noticeView } from './views.js';

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
    const click = await readClick(deps, args, parseExpenseRef, (voice) =>
      voice.t('actions.damaged'),
    );
    if (!click) return;
    const message = args.body.message?.ts ?? '';
    const first = await deps.claims
      .claim(
        `duplicate:${click.user.team_id}:${click.user.user_id}:${click.ref.e}:${message}`,
        DOUBLE_CLICK_MS,
      )
      // Without the store, a second form is better than none: each books at most once.
      .catch(() => true);
    if (!first) {
      args.logger.info(`duplicate of expense ${click.ref.e}: a double click, one form opened`);
      return;
    }
    const request: FormRequest = {
      deps,
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
    await update(
      r.client,
      opened,
      access.kind === 'connect'
        ? noticeView(
            { title, text: voice.t('form.connect_first_duplicate'), connectUrl: access.url },
            voice,
          )
        : noticeView(
            {
              title,
              text: access.notOnIt ? voice.t('form.duplicate_not_on_it') : access.text,
            },
            voice,
          ),
      r.logger,
    );
    return;
  }
  const { expense } = access;
  const { groups, me, minor, slackOf } = await expenseSources(deps, user, access, lookups);
  const currency = expense.currency_code;
  const sharing = expense.users.filter((u) => minor(u.owed_share) > 0);
  const participants = sharing
    .map((u) => slackOf(u.user_id))
    .filter((id): id is string => id !== undefined)
    .slice(0, MAX_PARTICIPANTS);
  const leftOut = sharing.length - participants.length;
  // Several payers stay several, each with what they paid, as in Edit.
  const payers = expensePayers(expense.users, slackOf, currency, voice);
  const { alsoPaid, paid } = payers;
  const payer = payers.payer ?? user.user_id;
  const equal = looksEqual(expense.users.map((u) => minor(u.owed_share)));
  if (!equal || alsoPaid.length > 0) {
    // The service keeps amounts only, so a copy of an unequal split is an exact one, as in Edit.
    const values: Record<string, string> = Object.create(null);
    for (const u of sharing) {
      const id = slackOf(u.user_id);
      if (id && participants.includes(id))
        values[id] = amountInput(minor(u.owed_share), currency, voice);
    }
    const copy: CheckedForm = {
      cost: minor(expense.cost),
      currency: expense.currency_code,
      description: expense.description,
      date: todayIn(me?.tz, deps.now()),
      category_id: expense.category?.id ?? null,
      group_id: expense.group_id || null,
      participants,
      payer,
      ...(alsoPaid.length > 0 ? { alsoPaid, paid } : {}),
      method: equal ? 'equal' : 'exact',
      notes: notesOf(expense.details),
      repeat: 'never',
      files: [],
      ...(equal ? {} : { values }),
    };
    await deps.expenses.saveDraft(user, opened.id, { copy });
  }
  const note = copyNote(
    {
      description: expense.description,
      next: alsoPaid.length > 0 ? 'paid' : !equal ? 'parts' : 'none',
      leftOut,
    },
    voice,
  );
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
          amountText: amountInput(minor(expense.cost), currency, voice),
          currency: expense.currency_code,
          description: expense.description,
          date: todayIn(me?.tz, deps.now()),
          category: expense.category
            ? { id: expense.category.id, name: expense.category.name }
            : null,
          group_id: expense.group_id || null,
          participants: participants.length > 0 ? participants : [user.user_id],
          payer,
          alsoPaid,
          method: equal ? 'equal' : 'exact',
          notes: notesOf(expense.details),
        },
        groups: groups.filter((g) => g.id !== 0).map((g) => ({ id: g.id, name: g.name })),
        currencyUnit: deps.reference.unit(expense.currency_code),
        note,
      },
      voice,
    ),
    r.logger,
  );
}
