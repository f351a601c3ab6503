/**
 * Debt arithmetic in integer minor units: repayments inside one expense, the pairwise ledger a
 * group keeps, and debt simplification. Pure functions and one small incremental structure.
 */

export interface Transfer {
  from: number;
  to: number;
  amount: number;
}

/**
 * Greedy matching of the largest debtor with the largest creditor (ties: lower user id first),
 * which is how the service answers both per-expense repayments and simplified group debts. With a
 * single creditor this yields one transfer per debtor.
 */
export function matchDebts(nets: ReadonlyMap<number, number>): Transfer[] {
  const debtors: { id: number; left: number }[] = [];
  const creditors: { id: number; left: number }[] = [];
  for (const [id, net] of nets) {
    if (net < 0) debtors.push({ id, left: -net });
    else if (net > 0) creditors.push({ id, left: net });
  }
  const byLargest = (a: { id: number; left: number }, b: { id: number; left: number }) =>
    b.left - a.left || a.id - b.id;
  const out: Transfer[] = [];
  while (debtors.length > 0 && creditors.length > 0) {
    debtors.sort(byLargest);
    creditors.sort(byLargest);
    const debtor = debtors[0]!;
    const creditor = creditors[0]!;
    const amount = Math.min(debtor.left, creditor.left);
    out.push({ from: debtor.id, to: creditor.id, amount });
    debtor.left -= amount;
    creditor.left -= amount;
    if (debtor.left === 0) debtors.shift();
    if (creditor.left === 0) creditors.shift();
  }
  return out;
}

/**
 * Who pays whom inside one expense: each debtor's outflow and each creditor's inflow equal their
 * net; with one payer, one entry per other participant.
 */
export function repayments(expense: {
  shares: readonly { user_id: number; paid: number; owed: number }[];
}): Transfer[] {
  const nets = new Map<number, number>();
  for (const s of expense.shares) nets.set(s.user_id, (nets.get(s.user_id) ?? 0) + s.paid - s.owed);
  return matchDebts(nets);
}

/** Key of an unordered pair: the lower id first. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * The balances of one group (or of all non-group expenses, group 0), per currency, kept up to
 * date as expenses come and go rather than recomputed per request.
 * - nets: user -> currency -> paid minus owed (positive = is owed). A currency once used stays,
 *   possibly at zero, as the service keeps "0.0" entries for group members.
 * - pairs: "low:high" -> currency -> amount low owes high (negative = high owes low).
 */
export class GroupLedger {
  readonly nets = new Map<number, Map<string, number>>();
  readonly pairs = new Map<string, Map<string, number>>();
  /** Bumped on every change, so derived values (simplified debts) can be cached. */
  version = 0;
  private simplifiedCache: { version: number; debts: DebtRow[] } | undefined;

  apply(
    currency: string,
    rows: readonly { user_id: number; net: number }[],
    transfers: readonly Transfer[],
    sign: 1 | -1,
  ): void {
    this.version++;
    for (const row of rows) {
      let byCurrency = this.nets.get(row.user_id);
      if (!byCurrency) {
        byCurrency = new Map();
        this.nets.set(row.user_id, byCurrency);
      }
      byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + sign * row.net);
    }
    for (const t of transfers) {
      const key = pairKey(t.from, t.to);
      const lowOwes = t.from < t.to ? t.amount : -t.amount;
      let byCurrency = this.pairs.get(key);
      if (!byCurrency) {
        byCurrency = new Map();
        this.pairs.set(key, byCurrency);
      }
      const next = (byCurrency.get(currency) ?? 0) + sign * lowOwes;
      if (next === 0) byCurrency.delete(currency);
      else byCurrency.set(currency, next);
      if (byCurrency.size === 0) this.pairs.delete(key);
    }
  }

  /** What `other` owes `me` in this ledger, per currency (negative = I owe them). */
  owedTo(me: number, other: number): Map<string, number> {
    const out = new Map<string, number>();
    const byCurrency = this.pairs.get(pairKey(me, other));
    if (!byCurrency) return out;
    for (const [currency, lowOwes] of byCurrency) {
      // lowOwes > 0 means the lower id owes the higher one.
      const otherOwesMe = me > other ? lowOwes : -lowOwes;
      if (otherOwesMe !== 0) out.set(currency, otherOwesMe);
    }
    return out;
  }

  /** Pairwise debts, netted per pair and currency, ordered by pair then currency. */
  originalDebts(filter?: (a: number, b: number) => boolean): DebtRow[] {
    const out: DebtRow[] = [];
    for (const [key, byCurrency] of this.pairs) {
      const [low, high] = key.split(':').map(Number) as [number, number];
      if (filter && !filter(low, high)) continue;
      for (const [currency, lowOwes] of byCurrency) {
        if (lowOwes > 0) out.push({ from: low, to: high, amount: lowOwes, currency });
        else if (lowOwes < 0) out.push({ from: high, to: low, amount: -lowOwes, currency });
      }
    }
    return out.sort((a, b) => a.from - b.from || a.to - b.to || cmp(a.currency, b.currency));
  }

  simplifiedDebts(): DebtRow[] {
    if (this.simplifiedCache?.version === this.version) return this.simplifiedCache.debts;
    const perCurrency = new Map<string, Map<number, number>>();
    for (const [user, byCurrency] of this.nets) {
      for (const [currency, net] of byCurrency) {
        if (net === 0) continue;
        let nets = perCurrency.get(currency);
        if (!nets) {
          nets = new Map();
          perCurrency.set(currency, nets);
        }
        nets.set(user, net);
      }
    }
    const debts: DebtRow[] = [];
    for (const currency of [...perCurrency.keys()].sort()) {
      for (const t of matchDebts(perCurrency.get(currency)!)) debts.push({ ...t, currency });
    }
    this.simplifiedCache = { version: this.version, debts };
    return debts;
  }

  /** Whether `user` has any non-zero net in this ledger. */
  hasBalance(user: number): boolean {
    const byCurrency = this.nets.get(user);
    if (!byCurrency) return false;
    for (const amount of byCurrency.values()) if (amount !== 0) return true;
    return false;
  }
}

export interface DebtRow extends Transfer {
  currency: string;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
