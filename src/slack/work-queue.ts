/**
 * Work that follows an ack, a few jobs at a time. Slack waits 3 seconds for an ack, and an ack is
 * one turn of the event loop, but it waits behind whatever else is ready on that loop: a burst of
 * 50 bookings all in flight at once puts up to 50 bookings' callbacks ahead of each new request.
 *
 * So only `slots` jobs run at once while they are busy. A job still running after `slotMs` is
 * taken to be waiting on the network (a slow service), not using the processor, and gives its
 * slot to the next job; at most `maxRunning` jobs are in flight in all. With a fast service this
 * is a queue of width `slots`; with a slow one, throughput still grows with the waiting. The
 * answers of queued jobs go out through response_urls, which stay valid for 30 minutes.
 */
export interface WorkQueue {
  /** Runs `job` when a slot is free; the job reports its own failures (a rejection is dropped). */
  push(job: () => Promise<void>): void;
  /** Resolves once nothing is queued or running (shutdown, tests). */
  idle(): Promise<void>;
  readonly size: number;
}

export interface WorkQueueOptions {
  slots?: number;
  slotMs?: number;
  maxRunning?: number;
}

export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const slots = options.slots ?? 2;
  const slotMs = options.slotMs ?? 50;
  const maxRunning = options.maxRunning ?? 64;
  const waiting: (() => Promise<void>)[] = [];
  let busy = 0;
  let running = 0;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running > 0 || waiting.length > 0) return;
    const wake = idleWaiters;
    idleWaiters = [];
    for (const w of wake) w();
  };
  const next = () => {
    while (busy < slots && running < maxRunning && waiting.length > 0) {
      const job = waiting.shift()!;
      busy += 1;
      running += 1;
      let holding = true;
      const release = () => {
        if (!holding) return;
        holding = false;
        busy -= 1;
      };
      const timer = setTimeout(() => {
        release();
        next();
      }, slotMs);
      timer.unref();
      // setImmediate: requests that arrived meanwhile (acks) are read before the job starts.
      setImmediate(() => {
        job()
          .catch(() => undefined)
          .finally(() => {
            clearTimeout(timer);
            release();
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
