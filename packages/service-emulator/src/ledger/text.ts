/**
 * How the ledger names people and things inside notification and comment text. Notification
 * content is the service's small HTML subset, so everything a person typed is escaped here.
 */
import type { ExpenseRecord, UserRecord } from './model.js';
import type { State } from './state.js';

/** "Ada L.", the short form the service uses in notifications. */
export function shortName(user: UserRecord | undefined): string {
  if (!user) return 'Someone';
  return user.last_name ? `${user.first_name} ${user.last_name.charAt(0)}.` : user.first_name;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** "You" for the reader's own actions, else the escaped short name. */
export function nameFor(state: State, reader: number, userId: number): string {
  if (reader === userId) return 'You';
  return escapeHtml(shortName(state.users.get(userId)));
}

export function expenseTitle(expense: ExpenseRecord): string {
  return `“${escapeHtml(expense.description)}”`;
}
