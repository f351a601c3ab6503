/**
 * The one booking path. `/split` (typed, mentioned, or in a DM), the expense form, `/split paid`
 * and whatever books next call it here, and none copies a part of it:
 *
 * 1. the group: the one named, else the channel's, else the person's default (group.ts);
 * 2. its currency: the group's saved one, else the one most of its expenses are in (currency.ts);
 * 3. who shares it: as named, else the group's default split (split-default.ts);
 * 4. the people as the service knows them, the exact shares, and one create_expense carrying a
 *    marker (plan.ts, marker.ts); an unknown outcome is looked for, never sent again
 *    (reconcile.ts);
 * 5. the answer message (expense-message.ts).
 *
 * typed.ts runs the five for a `/split` text; the form chooses the group and people in its
 * fields and hands them to step 4.
 */
export {
  type GroupCurrencyChoice,
  type GroupCurrencyOf,
  groupCurrency,
  groupCurrencyNote,
  groupCurrencyOf,
  groupCurrencyShown,
  groupStartCurrency,
  saveGroupCurrency,
  usualCurrency,
  withNote,
} from './currency.js';
export {
  type BookedExpense,
  deletedMessage,
  encodeExpenseRef,
  expenseHeader,
  expenseMessage,
  headerOf,
  parseExpenseRef,
  type RepeatEvery,
  receiptUrlOf,
  repeatName,
  undoneMessage,
  type Who,
  whoText,
} from './expense-message.js';
export { type BoundGroup, boundGroup, findGroup } from './group.js';
export { bookingMarker, carriesMarker, notesOf, type Once, withMarker } from './marker.js';
export {
  bookPlan,
  type GroupChoice,
  problemText,
  type SharesOf,
  shareRows,
  singleUse,
} from './plan.js';
export { findBooking, type Lookout, lookUntilSettled, type SentCreate } from './reconcile.js';
export {
  defaultAsSplit,
  defaultParts,
  defaultShort,
  leftTheGroup,
  leftTheGroupText,
  namesNobody,
  withDefaultNote,
} from './split-default.js';
export { bookExpense } from './typed.js';
