import { errorsBody } from './http.js';

export interface FaultInput {
  /** An exact path, or a prefix ending in `*` ("/api/v3.0/*"). */
  path: string;
  method?: string;
  latency_ms?: number;
  status?: number;
  retry_after?: number;
  body?: unknown;
  /** Share of matching requests the fault hits, 0..1; 1 when omitted. */
  error_rate?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Hit only the next N matching requests, then expire. */
  times?: number;
}

export interface Fault extends FaultInput {
  id: string;
  hits: number;
}

/** The real service's bodies for the statuses a fault usually injects. */
export function defaultFaultBody(status: number): unknown {
  if (status === 401) return { error: 'Invalid API request: you are not logged in' };
  if (status === 429) {
    return {
      error: 'That action is forbidden. Please wait a few minutes before making further requests.',
    };
  }
  if (status === 503) return errorsBody('The service is temporarily unavailable');
  if (status === 404) return errorsBody('Invalid API Request: record not found');
  if (status === 403) {
    return errorsBody('Invalid API Request: you do not have permission to perform that action');
  }
  return errorsBody('Internal server error');
}

/** Turns untrusted control-plane JSON into a fault, or a message saying what is wrong with it. */
export function validateFault(input: unknown): FaultInput | string {
  if (input === null || typeof input !== 'object') return 'the body must be a JSON object';
  const raw = input as Record<string, unknown>;
  if (typeof raw.path !== 'string' || !raw.path.startsWith('/')) {
    return 'path must be a string starting with "/" (an exact path, or a prefix ending in "*")';
  }
  const fault: FaultInput = { path: raw.path };
  if (raw.method !== undefined) {
    if (typeof raw.method !== 'string') return 'method must be a string';
    fault.method = raw.method.toUpperCase();
  }
  const numbers = ['latency_ms', 'status', 'retry_after', 'error_rate', 'times'] as const;
  for (const key of numbers) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      return `${key} must be a non-negative number`;
    }
    fault[key] = value;
  }
  if (fault.status !== undefined && (fault.status < 100 || fault.status > 599)) {
    return 'status must be an HTTP status between 100 and 599';
  }
  if (fault.error_rate !== undefined && fault.error_rate > 1) return 'error_rate must be in 0..1';
  if (fault.latency_ms !== undefined && fault.latency_ms > 120_000) {
    return 'latency_ms must be at most 120000';
  }
  if (fault.times !== undefined && (!Number.isInteger(fault.times) || fault.times < 1)) {
    return 'times must be a positive integer';
  }
  if (raw.drop !== undefined) {
    if (typeof raw.drop !== 'boolean') return 'drop must be true or false';
    fault.drop = raw.drop;
  }
  if (raw.body !== undefined) fault.body = raw.body;
  if (fault.latency_ms === undefined && fault.status === undefined && !fault.drop) {
    return 'a fault needs latency_ms, status or drop';
  }
  return fault;
}

/**
 * Injected faults, checked on every request. With none registered (the normal case, and every
 * benchmark) matching costs one length check.
 */
export class FaultTable {
  private faults: Fault[] = [];
  private nextId = 1;

  add(input: FaultInput): Fault {
    const fault: Fault = { ...input, id: String(this.nextId++), hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The first fault that hits this request, counting the hit against its `times`. */
  take(method: string, path: string): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    for (const fault of this.faults) {
      if (fault.method && fault.method !== method) continue;
      const matches = fault.path.endsWith('*')
        ? path.startsWith(fault.path.slice(0, -1))
        : path === fault.path;
      if (!matches) continue;
      const rate = fault.error_rate ?? 1;
      if (rate < 1 && Math.random() >= rate) continue;
      fault.hits += 1;
      if (fault.times !== undefined && fault.hits >= fault.times) this.remove(fault.id);
      return fault;
    }
    return undefined;
  }
}
