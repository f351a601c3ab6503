/**
 * Everything listeners need, handed in by app.ts (design example 5: factories, no globals, nothing
 * read from the environment below main.ts).
 */
import type { ChannelBindings } from '../accounts/bindings.js';
import type { Directory } from '../accounts/directory.js';
import type { Linking } from '../accounts/linking.js';
import type { ServiceFactory } from '../accounts/service.js';
import type { TtlCache } from '../accounts/ttl-cache.js';
import type { Claims, TokenStore } from '../store/index.js';
import type { WorkQueue } from './work-queue.js';

export interface SlackDeps {
  tokens: TokenStore;
  linking: Pick<Linking, 'connectUrl'>;
  bindings: ChannelBindings;
  /** Shared across replicas: dedupe of commands and clicks. */
  claims: Claims;
  directory: Directory;
  service: ServiceFactory;
  /** Wait before looking for a create whose outcome is unknown, so a slow service can finish it. */
  reconcileDelayMs: number;
  now(): Date;
  /** Where work after an ack runs (a few at a time, so that acks stay prompt). */
  work: WorkQueue;
  /**
   * Expenses this process booked lately (by id): a reconciliation never takes one of them for the
   * create it is looking for, even when it has the same description and cost.
   */
  booked: TtlCache<true>;
}

/** How long a dedupe claim lives: longer than any redelivery or double click. */
export const DEDUPE_TTL_MS = 60 * 60_000;
