/**
 * What the expense form keeps between requests, in the shared store (so that any replica can take
 * the next step): the first step's values while the second step is open, the values an edit form
 * started from (to send only what changed), and each person's last expense booked from Slack (for
 * `/split undo`). private_metadata stays small: it carries only where the form came from.
 */
import type Keyv from 'keyv';
import type { SlackUserKey } from './token-store.js';

/** Forms are abandoned long before this; the store forgets them on its own. */
const DRAFT_TTL_MS = 6 * 60 * 60_000;
/** `/split undo` is for a mistake just made, not last month's expense. */
const LAST_BOOKED_TTL_MS = 7 * 24 * 60 * 60_000;

export interface BookedRecord {
  expense_id: number;
  description: string;
  /** Where its message is, when known (chat.postMessage returned it). */
  channel?: string;
  ts?: string;
}

/** `Draft` is the form's own shape: the store keeps it as the form wrote it. */
export interface ExpenseStore<Draft> {
  /** Kept under the person's own key, so that removing their data can find it. */
  saveDraft(user: SlackUserKey, viewId: string, draft: Draft): Promise<void>;
  draft(user: SlackUserKey, viewId: string): Promise<Draft | undefined>;
  rememberBooked(user: SlackUserKey, record: BookedRecord): Promise<void>;
  lastBooked(user: SlackUserKey): Promise<BookedRecord | undefined>;
  forgetBooked(user: SlackUserKey, expense_id: number): Promise<void>;
}

export function createExpenseStore<Draft>(keyv: Keyv): ExpenseStore<Draft> {
  const draftKey = (user: SlackUserKey, view: string) =>
    `draft:${user.team_id}:${user.user_id}:${view}`;
  const lastKey = (user: SlackUserKey) => `last:${user.team_id}:${user.user_id}`;
  return {
    async saveDraft(user, viewId, draft) {
      await keyv.set(draftKey(user, viewId), draft, DRAFT_TTL_MS);
    },
    async draft(user, viewId) {
      return ((await keyv.get(draftKey(user, viewId))) as Draft | undefined) ?? undefined;
    },
    async rememberBooked(user, record) {
      await keyv.set(lastKey(user), record, LAST_BOOKED_TTL_MS);
    },
    async lastBooked(user) {
      return ((await keyv.get(lastKey(user))) as BookedRecord | undefined) ?? undefined;
    },
    async forgetBooked(user, expense_id) {
      const last = (await keyv.get(lastKey(user))) as BookedRecord | undefined;
      if (last?.expense_id === expense_id) await keyv.delete(lastKey(user));
    },
  };
}
