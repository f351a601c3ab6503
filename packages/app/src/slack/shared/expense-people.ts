/**
 * The service's view of an expense turned back into Slack terms: who each person on it is in
 * this workspace (their own link when it is the caller, else their e-mail among the caller's
 * friends or group co-members, looked up in Slack), and the expense as the message shows it.
 */
import type { LookupBudget } from '../../accounts/lookups.js';
import { currencyExponent, parseMinor, splitEqually } from '../../core/money.js';
import type { Expense, ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { type BookedExpense, receiptUrlOf, type Who } from '../booking/expense-message.js';
import type { SlackDeps } from '../deps.js';

type Named = { first_name?: string | null; last_name?: string | null } | undefined;

/** A service user's name as the service has it; empty when it has none. */
export function nameOf(u: Named): string {
  return [u?.first_name, u?.last_name].filter(Boolean).join(' ');
}

/** A service user's name; "Someone", in the reader's words, when the service gives none. */
export function userName(u: Named, voice: Pick<Voice, 't'>) {
  return nameOf(u) || voice.t('expense.someone');
}

/**
 * Slack id (or name) of each service user on the expense. An expense can hold any number of
 * people: those the directory already knows are named from its cache, as many more as `lookups`
 * allows are looked up, and the rest keep the service's own name.
 */
export async function whoIsWho(
  deps: Pick<SlackDeps, 'directory'>,
  user: SlackUserKey,
  me: number,
  client: ServiceClient,
  expense: Expense,
  lookups: LookupBudget,
): Promise<Map<number, Who>> {
  const out = new Map<number, Who>();
  const emails = new Map<number, string>();
  const others = expense.users.filter((u) => u.user_id !== me);
  if (others.length > 0) {
    const [friends, groups] = await Promise.all([
      deps.directory.friends(user, client).catch(() => []),
      expense.group_id ? deps.directory.groups(user, client).catch(() => []) : Promise.resolve([]),
    ]);
    for (const f of friends) if (f.email) emails.set(f.id, f.email);
    for (const g of groups)
      for (const m of g.members ?? []) if (m.email && !emails.has(m.id)) emails.set(m.id, m.email);
    if (others.some((u) => !emails.has(u.user_id))) {
      // The cached friends may predate this expense, which made its people friends. The links of
      // one message refresh them once between them.
      for (const f of await deps.directory.friends(user, client, true).catch(() => []))
        if (f.email && !emails.has(f.id)) emails.set(f.id, f.email);
    }
  }
  await Promise.all(
    expense.users.map(async (u) => {
      if (u.user_id === me) {
        out.set(u.user_id, { slack: user.user_id });
        return;
      }
      const email = emails.get(u.user_id);
      const slackId = email
        ? await deps.directory.slackIdByEmail(user.team_id, email, lookups).catch(() => null)
        : null;
      out.set(u.user_id, slackId ? { slack: slackId } : { name: nameOf(u.user) });
    }),
  );
  return out;
}

/** Whether the owed shares are what an equal split in this order gives. */
export function looksEqual(owed: number[]): boolean {
  const total = owed.reduce((a, b) => a + b, 0);
  const sharing = owed.filter((o) => o > 0);
  if (sharing.length === 0 || total <= 0) return false;
  const equal = splitEqually(total, sharing.length);
  return [...sharing].sort((a, b) => b - a).every((o, i) => o === equal[i]);
}

/** The expense message's data from the service's expense. */
export function bookedFromExpense(
  expense: Expense,
  who: Map<number, Who>,
  input: { bookedBy: string; group: string | null },
): BookedExpense {
  const exponent = currencyExponent(expense.currency_code);
  const minor = (text: string) => {
    try {
      return parseMinor(text, exponent);
    } catch {
      return 0;
    }
  };
  const lines = expense.users.map((u) => ({
    who: who.get(u.user_id) ?? { name: nameOf(u.user) },
    paid: minor(u.paid_share),
    owed: minor(u.owed_share),
  }));
  const payerRow = [...lines].sort((a, b) => b.paid - a.paid)[0];
  return {
    id: expense.id,
    description: expense.description,
    cost: minor(expense.cost),
    currency: expense.currency_code,
    date: expense.date.slice(0, 10),
    payer: payerRow?.who ?? { name: '' },
    lines,
    group: input.group,
    split: looksEqual(lines.map((l) => l.owed)) ? 'equal' : 'exact',
    bookedBy: input.bookedBy,
    repeat:
      expense.repeat_interval && expense.repeat_interval !== 'never'
        ? expense.repeat_interval
        : null,
    receiptUrl: receiptUrlOf(expense.receipt),
  };
}
