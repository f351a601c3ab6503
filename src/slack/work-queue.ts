/**
 * Work that follows an ack, run a few at a time. Slack waits 3 seconds for an ack, and an ack is
 * one turn of the event loop, but it waits behind whatever else is ready on that loop: a burst of
 * 50 bookings all in flight at once puts up to 50 bookings' callbacks ahead of each new request.
 * Running only a few at a time keeps acks prompt during bursts; the rest wait their turn here (their
 * answers go out through response_urls, which stay valid for 30 minutes).
 */
export interface WorkQueue {
  /** Runs `job` when a slot is free; its failure is the job's own business (it must not throw). */
  push(job: () => Promise<void>): void;
  /** Resolves once nothing is queued or running (for shutdown and tests). */
  idle(): Promise<void>;
  readonly size: number;
}

export function createWorkQueue(concurrency: number): WorkQueue {
  const waiting: (() => Promise<void>)[] = [];
  let running = 0;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running === 0 && waiting.length === 0) {
      const wake = idleWaiters;
      idleWaiters = [];
      for (const w of wake) w();
    }
  };
  const next = () => {
    while (running < concurrency && waiting.length > 0) {
      const job = waiting.shift()!;
      running += 1;
      // setImmediate: requests that arrived meanwhile (acks) are read before the job starts.
      setImmediate(() => {
        job()
          .catch(() => undefined)
          .finally(() => {
            running -= 1;
            next();
            settle();
          });
      });
    }
  };
  return {
    push(job) {
      waiting.push(job);
      next();
    },
    idle() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    get size() {
      return running + waiting.length;
    },
  };
}
