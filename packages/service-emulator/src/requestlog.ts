export interface LoggedRequest {
  method: string;
  path: string;
  /** The API operation, or undefined for OAuth pages and unknown routes. */
  op?: string;
  status: number;
  actor_id: number | null;
  at: string;
}

/** How many recent requests the log keeps; counts and the total are never trimmed. */
export const REQUEST_LOG_CAPACITY = 10_000;

/**
 * Every request the emulator answered outside its control plane: a bounded list of the latest
 * ones, and per-route counts ("GET /api/v3.0/get_expenses") that benchmarks and tests read to
 * count service calls. Recording is O(1).
 */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private start = 0;
  private counts = new Map<string, number>();
  private total = 0;

  record(entry: LoggedRequest, route: string): void {
    if (this.entries.length < REQUEST_LOG_CAPACITY) {
      this.entries.push(entry);
    } else {
      this.entries[this.start] = entry;
      this.start = (this.start + 1) % REQUEST_LOG_CAPACITY;
    }
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
    this.total += 1;
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
    this.counts = new Map();
    this.total = 0;
  }

  toJSON(): { requests: LoggedRequest[]; counts: Record<string, number>; total: number } {
    const requests = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    return { requests, counts: Object.fromEntries(this.counts), total: this.total };
  }
}
