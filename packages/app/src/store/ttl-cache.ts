/**
 * A small in-process cache with a time to live, for lookups that may be a few minutes stale
 * (friends, Slack profiles, the caller's service profile) so that a steady-state `/split` costs
 * one service call. Only what can safely differ between replicas goes here; anything that must be
 * shared (tokens, link states, dedupe claims) lives in the store.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  /** Concurrent misses for one key share one load instead of each calling out. */
  readonly #loading = new Map<string, Promise<V>>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
    readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.#entries.size >= this.maxEntries && !this.#entries.has(key)) {
      // Maps iterate in insertion order: the first key is the oldest write.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /**
   * Drops the value and any load under way: what that load brings back is not kept, since it may
   * have been read before whatever made the value stale. Says whether a value or a load was held.
   */
  invalidate(key: string): boolean {
    const held = this.get(key) !== undefined || this.#loading.has(key);
    this.#entries.delete(key);
    this.#loading.delete(key);
    return held;
  }

  /** The cached value, or the loader's result (cached on success; failures are not cached). */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const loading: Promise<V> = load().then(
      (value) => {
        if (this.#loading.get(key) === loading) {
          this.#loading.delete(key);
          this.set(key, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.#loading.get(key) === loading) this.#loading.delete(key);
        throw error;
      },
    );
    this.#loading.set(key, loading);
    return loading;
  }
}
