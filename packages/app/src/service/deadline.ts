/**
 * A time limit for one HTTP call: a signal that aborts after `ms`, and a way to stop the clock once
 * the call is over. `AbortSignal.timeout` gives the same signal, but on Node 20 each one is made
 * transferable and registered with a finalization registry that clears its timer: two to ten
 * microseconds more per call and a weak reference for the collector to trace, for every service
 * call and every answer posted. The reason is the same TimeoutError.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Stops the clock; the signal then never aborts. */
  clear(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  // A call still waiting never keeps the process alive, as AbortSignal.timeout's timer does not.
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
