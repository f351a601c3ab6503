/**
 * What an expense's change says in each affected person's notifications, in the service's small
 * HTML subset, from the reader's point of view ("You" for their own part).
 */

import type { ExpenseRecord, UserRecord } from './model.js';
import { formatMoney } from './money.js';
import type { State } from './state.js';
import { expenseTitle, nameFor } from './text.js';

export function notifyExpense(
  state: State,
  actor: UserRecord,
  expense: ExpenseRecord,
  type: number,
  verb: string,
  extraRecipients: Iterable<number> = [],
): void {
  const recipients = new Set([
    actor.id,
    ...expense.shares.map((s) => s.user_id),
    ...extraRecipients,
  ]);
  state.notify(
    recipients,
    {
      type,
      created_by: actor.id,
      source: { type: 'Expense', id: expense.id },
      image_shape: 'square',
    },
    (reader) => {
      if (expense.payment) return paymentText(state, reader, actor, expense, type, verb);
      const title =
        type === 2
          ? `<strike>${expenseTitle(expense)}</strike>`
          : `<strong>${expenseTitle(expense)}</strong>`;
      let text = `<strong>${nameFor(state, reader, actor.id)}</strong> ${verb} ${title}.`;
      const share = expense.shares.find((s) => s.user_id === reader);
      if (share && type !== 2) {
        const net = share.paid - share.owed;
        if (net > 0)
          text += `<br><font color="#5bc5a7">You get back ${formatMoney(net, expense.currency_code)}</font>`;
        if (net < 0)
          text += `<br><font color="#ff652f">You owe ${formatMoney(-net, expense.currency_code)}</font>`;
      }
      return text;
    },
  );
}

/**
 * A payment reads as who paid whom: "You paid Ben R. €6.00." for the payer, "Ann B. paid you
 * €6.00." for the one paid, and, when someone else changed it, who did and what.
 */
function paymentText(
  state: State,
  reader: number,
  actor: UserRecord,
  expense: ExpenseRecord,
  type: number,
  verb: string,
): string {
  const payer = expense.shares.find((s) => s.paid > 0);
  const paid = expense.shares.find((s) => s.owed > 0);
  if (!payer || !paid) {
    return `<strong>${nameFor(state, reader, actor.id)}</strong> ${verb} a payment.`;
  }
  const from = `<strong>${nameFor(state, reader, payer.user_id)}</strong>`;
  const to =
    reader === paid.user_id ? 'you' : `<strong>${nameFor(state, reader, paid.user_id)}</strong>`;
  const what = `${from} paid ${to} ${formatMoney(payer.paid, expense.currency_code)}`;
  if (type === 0 && actor.id === payer.user_id) return `${what}.`;
  const shown = type === 2 ? `<strike>${what}</strike>` : what;
  return `<strong>${nameFor(state, reader, actor.id)}</strong> ${verb} a payment: ${shown}.`;
}
