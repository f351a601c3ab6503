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

export class Lru<K, V> {
  readonly #entries = new Map<K, V>();

  /** `name` lists a cache that lives as long as the process in `keptCaches`. */
  constructor(
    readonly capacity: number,
    name?: string,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`an Lru holds at least one entry, not ${capacity}`);
    }
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
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    // A Map iterates in insertion order: writing the key again moves it to the young end.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
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
    if (this.#entries.has(key)) return this.get(key) as V;
    const value = make(key);
    this.set(key, value);
    return value;
  }
}
