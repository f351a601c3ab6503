/**
 * What a form that starts from a booked expense (Edit, Duplicate) reads besides the expense: who
 * each person on it is in Slack, the person's groups and profile, and the expense's amounts in
 * minor units.
 */
import type { LookupBudget } from '../../accounts/lookups.js';
import { currencyExponent, parseMinor } from '../../core/money.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { accessExpense } from '../shared/expense-access.js';
import { whoIsWho } from '../shared/expense-people.js';

type Granted = Extract<Awaited<ReturnType<typeof accessExpense>>, { ok: true }>;

export async function expenseSources(
  deps: SlackDeps,
  user: SlackUserKey,
  access: Granted,
  lookups: LookupBudget,
) {
  const { record, client, expense } = access;
  const [who, groups, me] = await Promise.all([
    whoIsWho(deps, user, record.service_user_id, client, expense, lookups),
    deps.directory.groups(user, client),
    deps.directory.slackUser(user.team_id, user.user_id, lookups).catch(() => undefined),
    // Warms the currency list, so that the submission can check the code without waiting.
    deps.reference.currencies().catch(() => undefined),
  ]);
  const exponent = currencyExponent(expense.currency_code);
  const minor = (text: string) => parseMinor(text, exponent);
  const slackOf = (id: number) => {
    const w = who.get(id);
    return w && 'slack' in w ? w.slack : undefined;
  };
  return { who, groups, me, exponent, minor, slackOf };
}
