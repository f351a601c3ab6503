/**
 * A list of expense ids kept in listing order (newest `date` first, then highest id first), so
 * that a page of get_expenses is read from the front instead of sorting everything per request.
 * Insert and remove are a binary search plus one splice.
 */
export interface IndexEntry {
  /** Expense date in epoch milliseconds. */
  t: number;
  id: number;
}

function before(a: IndexEntry, b: IndexEntry): boolean {
  return a.t > b.t || (a.t === b.t && a.id > b.id);
}

export class SortedIndex {
  readonly entries: IndexEntry[] = [];

  private position(entry: IndexEntry): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.entries[mid]!, entry)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(entry: IndexEntry): void {
    const at = this.position(entry);
    const existing = this.entries[at];
    if (existing && existing.id === entry.id && existing.t === entry.t) return;
    this.entries.splice(at, 0, { t: entry.t, id: entry.id });
  }

  remove(entry: IndexEntry): void {
    const at = this.position(entry);
    const existing = this.entries[at];
    if (existing && existing.id === entry.id) this.entries.splice(at, 1);
  }

  get size(): number {
    return this.entries.length;
  }
}

/**
 * Walks several indexes at once in listing order, yielding each id once (an expense can be in the
 * caller's own index and in a group's index).
 */
export function* mergeIndexes(indexes: readonly SortedIndex[]): Generator<number> {
  if (indexes.length === 1) {
    for (const e of indexes[0]!.entries) yield e.id;
    return;
  }
  const cursors = indexes.map(() => 0);
  let last: IndexEntry | undefined;
  for (;;) {
    let best = -1;
    let bestEntry: IndexEntry | undefined;
    for (let i = 0; i < indexes.length; i++) {
      const entry = indexes[i]!.entries[cursors[i]!];
      if (entry && (!bestEntry || before(entry, bestEntry))) {
        best = i;
        bestEntry = entry;
      }
    }
    if (!bestEntry) return;
    cursors[best]!++;
    if (last && last.id === bestEntry.id && last.t === bestEntry.t) continue;
    last = bestEntry;
    yield bestEntry.id;
  }
}
