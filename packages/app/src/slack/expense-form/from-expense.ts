/**
 * A booked expense as the form's fields hold it: the one mapping Edit and Duplicate start from.
 * Amounts in minor units; people as Slack ids where the expense's people are in this workspace;
 * an unequal split as exact amounts (the service keeps amounts only); several payers stay several,
 * each with what they paid. What differs between the two is handed in: the date, the notes, the
 * repeat and who of the sharers can be shown.
 */
import type { Expense, RepeatInterval } from '../../service/index.js';
import { looksEqual } from '../shared/expense-people.js';
import type { Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';
import { expensePayers } from './expense-payers.js';
import type { CheckedForm, EditBase } from './form.js';
import type { FormInitial } from './views.js';

export interface ExpenseSources {
  minor(text: string): number;
  slackOf(serviceId: number): string | undefined;
}

export interface FormFromExpense {
  form: CheckedForm;
  /** Whether everyone sharing it owes the same (give or take the leftover unit). */
  equal: boolean;
}

export function formFromExpense(
  expense: Expense,
  sources: ExpenseSources,
  o: {
    voice: Voice;
    /** Who the form is for: the payer when none of the payers is in this workspace. */
    person: string;
    /** Who shares it, among `sharing` (the users who owe a part), as the form shows them. */
    participants: (sharing: Expense['users']) => string[];
    date: string;
    notes: string;
    repeat: RepeatInterval;
  },
): FormFromExpense {
  const { minor, slackOf } = sources;
  const sharing = expense.users.filter((u) => minor(u.owed_share) > 0);
  const participants = o.participants(sharing);
  const payers = expensePayers(expense.users, slackOf, expense.currency_code, o.voice);
  const { alsoPaid, paid } = payers;
  const equal = looksEqual(expense.users.map((u) => minor(u.owed_share)));
  const values: Record<string, string> = Object.create(null);
  for (const u of sharing) {
    const id = slackOf(u.user_id);
    if (id && participants.includes(id)) {
      values[id] = amountInput(minor(u.owed_share), expense.currency_code, o.voice);
    }
  }
  const form: CheckedForm = {
    cost: minor(expense.cost),
    currency: expense.currency_code,
    description: expense.description,
    date: o.date,
    category_id: expense.category?.id ?? null,
    group_id: expense.group_id || null,
    participants,
    payer: payers.payer ?? o.person,
    ...(alsoPaid.length > 0 ? { alsoPaid, paid } : {}),
    method: equal ? 'equal' : 'exact',
    notes: o.notes,
    repeat: o.repeat,
    files: [],
    ...(equal ? {} : { values }),
  };
  return { form, equal };
}

/** The form's first step filled in from a form an expense was mapped to. */
export function initialOf(form: CheckedForm, expense: Expense, voice: Voice): FormInitial {
  return {
    amountText: amountInput(form.cost, form.currency, voice),
    currency: form.currency,
    description: form.description,
    date: form.date,
    category: expense.category ? { id: expense.category.id, name: expense.category.name } : null,
    group_id: form.group_id,
    participants: form.participants.filter((p) => !p.startsWith('svc:')),
    payer: form.payer,
    alsoPaid: form.alsoPaid ?? [],
    method: form.method,
    notes: form.notes,
    repeat: form.repeat,
  };
}

/**
 * What an edit starts from, kept for its submission: the form as mapped, the shares as the
 * service had them, and who each Slack user on it is at the service.
 */
export function editBaseOf(
  expense: Expense,
  form: CheckedForm,
  slackOf: ExpenseSources['slackOf'],
  o: { person: string; breakdown: string | undefined },
): EditBase {
  const creator = expense.created_by ? slackOf(expense.created_by.id) : undefined;
  return {
    expense_id: expense.id,
    form,
    shares: expense.users.map((u) => ({
      user_id: u.user_id,
      paid_share: u.paid_share,
      owed_share: u.owed_share,
    })),
    ids: Object.fromEntries(
      expense.users.flatMap((u) => {
        const slack = slackOf(u.user_id);
        return slack ? [[slack, u.user_id]] : [];
      }),
    ),
    peopleEditable: expense.users.every((u) => slackOf(u.user_id) !== undefined),
    bookedBy: creator ?? o.person,
    ...(o.breakdown ? { breakdown: o.breakdown } : {}),
  };
}

/** The person's groups as the form's Group select lists them ("no group" left out). */
export function groupChoices(groups: ReadonlyArray<{ id: number; name: string }>) {
  return groups.filter((g) => g.id !== 0).map((g) => ({ id: g.id, name: g.name }));
}
