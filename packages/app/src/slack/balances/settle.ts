/**
 * Settling up: records what was confirmed as payments (expenses with payment=true, the debtor
 * paying the creditor exactly what is owed), and only while it is still what is owed. The balance
 * is read again first; when it moved since the button was drawn, nothing is recorded and the
 * person sees the new figure. That same check keeps a second click, or a click on an old
 * message, from paying twice.
 */
import { minorOf, summarizeGroup } from '../../core/balances.js';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import type { ExpenseShare, ServiceClient } from '../../service/index.js';
import type { Voice } from '../../voice/index.js';
import { mrkdwn } from '../kit/text.js';
import { toGroupInput } from '../shared/ledger.js';
import { serviceMessage } from '../shared/service-failure.js';
import type { SettleRef } from '../shared/settle-ref.js';

interface Payment {
  /** 0 = outside groups. */
  group_id: number;
  debtor: number;
  creditor: number;
  /** Minor units, > 0. */
  amount: number;
  currency: string;
}

export type SettleOutcome =
  | { kind: 'recorded'; expenseIds: number[] }
  /** The balance is no longer what was confirmed: `now` is the signed amount (positive = they owe me). */
  | { kind: 'changed'; now: number }
  /** Some payments were recorded, then the service refused or failed. */
  | { kind: 'partial'; recorded: number; of: number; error: unknown }
  /** The service refused the first payment, giving `reason` (null when it gave none). */
  | { kind: 'refused'; reason: string | null };

/** Sum of a currency's entries, in minor units; positive = the friend owes me. */
function amountIn(entries: ReadonlyArray<{ currency_code: string; amount: string }>, c: string) {
  return entries
    .filter((e) => e.currency_code.toUpperCase() === c)
    .reduce((sum, e) => sum + minorOf(e), 0);
}

/** The payments that would settle `ref` now, or the changed balance. */
export async function planSettlement(
  client: ServiceClient,
  me: number,
  ref: SettleRef,
): Promise<{ payments: Payment[] } | { changed: number }> {
  const signed = ref.p === 1 ? -ref.a : ref.a;
  if (ref.k === 'f') {
    const friend = await client.getFriend(ref.id);
    const total = amountIn(friend.balance, ref.c);
    if (total !== signed) return { changed: total };
    // Group by group, so that each group's own balance is settled too, not only the total.
    const payments: Payment[] = [];
    let covered = 0;
    for (const g of friend.groups ?? []) {
      const amount = amountIn(g.balance, ref.c);
      if (amount === 0) continue;
      covered += amount;
      payments.push(
        amount > 0
          ? { group_id: g.group_id, debtor: friend.id, creditor: me, amount, currency: ref.c }
          : {
              group_id: g.group_id,
              debtor: me,
              creditor: friend.id,
              amount: -amount,
              currency: ref.c,
            },
      );
    }
    const rest = total - covered;
    if (rest !== 0) {
      payments.push(
        rest > 0
          ? { group_id: 0, debtor: friend.id, creditor: me, amount: rest, currency: ref.c }
          : { group_id: 0, debtor: me, creditor: friend.id, amount: -rest, currency: ref.c },
      );
    }
    return { payments };
  }
  const other = ref.o ?? 0;
  const group = summarizeGroup(toGroupInput(await client.getGroup(ref.id)), me);
  const [debtor, creditor] = ref.p === 1 ? [me, other] : [other, me];
  const debt = group.debts.find(
    (d) => d.currency === ref.c && d.from.id === debtor && d.to.id === creditor,
  );
  if (!debt || debt.amount !== ref.a) {
    const now = debt ? debt.amount : 0;
    return { changed: ref.p === 1 ? -now : now };
  }
  return { payments: [{ group_id: ref.id, debtor, creditor, amount: ref.a, currency: ref.c }] };
}

function paymentShares(p: Payment): ExpenseShare[] {
  const amount = toWireAmount(p.amount, currencyExponent(p.currency));
  return [
    { user_id: p.debtor, paid_share: amount, owed_share: '0' },
    { user_id: p.creditor, paid_share: '0', owed_share: amount },
  ];
}

/**
 * For a settling carried out by a durable job (Pay part…): notes that make its payments findable
 * again, and a durable record made before each create goes out, so that whoever resumes the job
 * after a crash looks for them before settling again.
 */
interface SettleOnce {
  details: string;
  sending(at: number): Promise<void>;
}

export async function settle(
  client: ServiceClient,
  me: number,
  ref: SettleRef,
  /** What each payment is called, in the words of who records it. */
  description: string,
  once?: SettleOnce,
): Promise<SettleOutcome> {
  const plan = await planSettlement(client, me, ref);
  if ('changed' in plan) return { kind: 'changed', now: plan.changed };
  const expenseIds: number[] = [];
  for (const [index, p] of plan.payments.entries()) {
    // Outside the try: a job taken over by another replica stops here, whatever the index.
    await once?.sending(Date.now());
    try {
      const result = await client.createExpense({
        description,
        payment: true,
        cost: toWireAmount(p.amount, currencyExponent(p.currency)),
        currency_code: p.currency,
        ...(p.group_id !== 0 ? { group_id: p.group_id } : {}),
        ...(once ? { details: once.details } : {}),
        users: paymentShares(p),
      });
      if (!result.expense) {
        const reason = serviceMessage(result.errors) ?? null;
        if (index === 0) return { kind: 'refused', reason };
        return {
          kind: 'partial',
          recorded: index,
          of: plan.payments.length,
          error: new Error(reason ?? 'refused without a reason'),
        };
      }
      expenseIds.push(result.expense.id);
    } catch (error) {
      if (index === 0) throw error;
      return { kind: 'partial', recorded: index, of: plan.payments.length, error };
    }
  }
  return { kind: 'recorded', expenseIds };
}

/** "Recorded: you paid Ann €20.00.", in mrkdwn. */
export function recordedText(ref: SettleRef, voice: Voice): string {
  const values = { name: mrkdwn(ref.n), amount: voice.money(ref.a, ref.c) };
  return ref.p === 1
    ? voice.t('settle.recorded_you_paid', values)
    : voice.t('settle.recorded_they_paid', values);
}

/** "Ann owes you €5.00", "you owe Ann €5.00", "settled up": a balance as it stands, in mrkdwn. */
export function stateText(ref: SettleRef, now: number, voice: Voice): string {
  const name = mrkdwn(ref.n);
  if (now === 0) return voice.t('settle.state_settled');
  return now > 0
    ? voice.t('settle.state_owes_you', { name, amount: voice.money(now, ref.c) })
    : voice.t('settle.state_you_owe', { name, amount: voice.money(-now, ref.c) });
}

/** That the service refused a payment, and why when it said. */
export function refusedText(reason: string | null, voice: Voice): string {
  return reason
    ? voice.t('settle.refused', { reason: mrkdwn(reason) })
    : voice.t('settle.refused_silently');
}

/** Why nothing was recorded when the balance moved, in mrkdwn. */
export function changedText(ref: SettleRef, now: number, voice: Voice): string {
  return voice.t('settle.changed', {
    state: stateText(ref, now, voice),
    scope: ref.k === 'g' ? 'group' : 'friend',
    currency: ref.c,
  });
}
