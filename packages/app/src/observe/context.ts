/**
 * The request a piece of work belongs to, carried through every await and callback that follows
 * from it (AsyncLocalStorage), so that a log line written deep in a service call names the Slack
 * request that caused it without each function passing an id along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/** What a Slack request is, as the metrics and logs name it. */
export type SlackRequestKind =
  | 'command'
  | 'action'
  | 'view'
  | 'options'
  | 'shortcut'
  | 'event'
  | 'other';

interface RequestContext {
  readonly requestId: string;
  /** Known once Bolt has parsed the body. */
  kind?: SlackRequestKind;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * 32 random bits for the process, then a count: unique enough to find one request's lines among a
 * day's of every replica. Drawing 64 random bits for each request instead was 1 to 2 % of the
 * app's processor time in a burst of commands.
 */
const PROCESS_PART = randomBytes(4).toString('hex');
let counted = 0;

export function newRequestId(): string {
  counted = (counted + 1) % 0x1_0000_0000;
  return PROCESS_PART + counted.toString(16).padStart(8, '0');
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** Runs `fn` as a new request: everything it starts, now or later, carries the same id. */
export function withRequest<T>(fn: () => T, requestId: string = newRequestId()): T {
  return storage.run({ requestId }, fn);
}
