import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthStore } from './auth.js';
import type { ControllableClock } from './clock.js';
import type { ConsentStore } from './consent-store.js';
import type { FaultTable } from './faults.js';
import type { Ledger } from './ledger.js';
import type { RequestLog } from './requestlog.js';

/** Everything a running emulator holds; one per server. */
export interface Emulator {
  ledger: Ledger;
  auth: AuthStore;
  clock: ControllableClock;
  faults: FaultTable;
  log: RequestLog;
  consent: ConsentStore;
  /** The address the server is bound to: the control plane answers requests addressed to it. */
  host: string;
  /**
   * Settles once every change applied so far is on disk (with --data), undefined when there is
   * nothing to wait for. Awaited before any answer that reports or shows a change, so that what a
   * client was told survives a crash.
   */
  durable(): Promise<void> | undefined;
}

/** One request in flight, with what the request log needs to know about it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  pathname: string;
  /** The raw query string, without '?'. */
  search: string;
  startedAt: bigint;
  op?: string;
  actorId: number | null;
  /** Delay from a latency fault, slept once the request body has been read. */
  latencyMs?: number;
}
