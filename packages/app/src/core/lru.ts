/**
 * A map that holds at most `capacity` entries and forgets the least recently used one to make
 * room. Every in-process cache whose keys come from outside (a locale, a time zone, a currency,
 * anything a request or a profile carries) is one of these, so that a stream of distinct keys
 * costs a bounded amount of memory however long it runs: the working set stays, the rest is made
 * again when asked for.
 */
/** The process-wide caches, by a name written in the code: a fixed few. */
const named = new Map<string, { readonly size: number; readonly capacity: number }>();

/** How full each process-wide cache is, so that a test can hold every one of them to its cap. */
export function keptCaches(): Map<string, { size: number; capacity: number }> {
  return new Map(
    [...named].map(([name, lru]) => [name, { size: lru.size, capacity: lru.capacity }]),
  );
}

/** A kept value, and when it was last moved to the young end (a count of moves, not a time). */
interface Kept<V> {
  value: V;
  moved: number;
}

/**
 * Uses are counted the way an LRU counts them, with one saving: a read moves its entry to the
 * young end only once the entry is in the older half (more than half the capacity's moves ago).
 * Moving is a delete and an insert, and the hot caches (compiled messages, formatters) are read
 * many times a request, almost always for entries read a moment before; in a burst those moves
 * were several percent of a booking's processor time. An entry read within the younger half
 * cannot be the next to go: at least half the capacity is older than it.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, Kept<V>>();
  #moves = 0;
  readonly #young: number;

  /** `name` lists a cache that lives as long as the process in `keptCaches`. */
  constructor(
    readonly capacity: number,
    name?: string,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`an Lru holds at least one entry, not ${capacity}`);
    }
    this.#young = capacity >> 1;
    if (name !== undefined) named.set(name, this);
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value kept for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const kept = this.#entries.get(key);
    return kept === undefined ? undefined : this.#used(key, kept);
  }

  #used(key: K, kept: Kept<V>): V {
    if (this.#moves - kept.moved >= this.#young) {
      // A Map iterates in insertion order: writing the key again moves it to the young end.
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      kept.moved = ++this.#moves;
    }
    return kept.value;
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, { value, moved: ++this.#moves });
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** The value kept for `key`, else `make(key)`, kept. A value of `null` is kept like any other. */
  getOrMake(key: K, make: (key: K) => V): V {
    const kept = this.#entries.get(key);
    if (kept !== undefined) return this.#used(key, kept);
    const value = make(key);
    this.set(key, value);
    return value;
  }
}
