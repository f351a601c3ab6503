import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { routedPath } from './routed-path.js';

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
 *
 * Four slots once the acks are done: with two, a booking waiting a few milliseconds on the service
 * (less than `slotMs`) kept its slot, and after a burst the loop sat idle between bookings; four
 * brought the answers of a burst of 400 in bench/split-ack.ts 20 % sooner, with less processor
 * time per booking (bench/README.md, "Slack /split"). While acks are still arriving, two
 * (`slotsDuringAcks`): the jobs that start then are those that waited `maxDeferMs`, and each one
 * running puts its steps between the acks.
 *
 * Acks come first. Even two jobs at a time slow the acks of a burst: once started, a job's
 * steps run whenever its I/O completes, between the acks. So while Slack requests are arriving
 * (`holdFor`, from `createAckGate`), no new job starts; a burst of commands is acked at the pace
 * of a bare Bolt app and the bookings follow it. A job that has waited `maxDeferMs` starts
 * anyway: under a load that never lets up the work is slowed, never starved. Jobs already running
 * go on, but while acks arrive and the event loop has no time to spare, a job waiting on the
 * network does not give its slot away. In Socket Mode nothing is held (acks go over the socket).
 * bench/README.md ("Slack /split") has what this costs the answers and gains the acks.
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
  /** At most this many of the `slots` while `holdFor` holds (acks are arriving). */
  slotsDuringAcks?: number;
  slotMs?: number;
  maxRunning?: number;
  /** How long new jobs should wait for acks (ms); 0 to start now. Asked again when that is up. */
  holdFor?: () => number;
  /** The longest a job is held back for acks. */
  maxDeferMs?: number;
  /** Whether the event loop has no time to spare; `createLoopMonitor()` by default. */
  loopBusy?: () => boolean;
}

/**
 * Whether the event loop was busy (at least 80% of the time) since the last reading, read again
 * once `windowMs` has passed.
 */
export function createLoopMonitor(windowMs = 100): () => boolean {
  let mark = performance.eventLoopUtilization();
  let markedAt = performance.now();
  let busy = false;
  return () => {
    const now = performance.now();
    if (now - markedAt >= windowMs) {
      const current = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(current, mark).utilization >= 0.8;
      mark = current;
      markedAt = now;
    }
    return busy;
  };
}

/** Jobs that run at once while they use the processor, and while acks arrive (above). */
export const DEFAULT_SLOTS = 4;
export const DEFAULT_SLOTS_DURING_ACKS = 2;

export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const slots = options.slots ?? DEFAULT_SLOTS;
  const slotsDuringAcks = Math.min(slots, options.slotsDuringAcks ?? DEFAULT_SLOTS_DURING_ACKS);
  const slotMs = options.slotMs ?? 50;
  const maxRunning = options.maxRunning ?? 64;
  const holdFor = options.holdFor ?? (() => 0);
  const maxDeferMs = options.maxDeferMs ?? 1_000;
  const loopBusy = options.loopBusy ?? createLoopMonitor();
  const waiting: { job: () => Promise<void>; scope: AsyncResource; since: number }[] = [];
  let deferTimer: NodeJS.Timeout | undefined;
  let busy = 0;
  let running = 0;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running > 0 || waiting.length > 0) return;
    const wake = idleWaiters;
    idleWaiters = [];
    for (const w of wake) w();
  };
  /** Whether the oldest job may start now; if not, makes sure `next` runs when it may. */
  const mayStart = (): boolean => {
    if (deferTimer) return false;
    const hold = Math.min(holdFor(), maxDeferMs - (performance.now() - waiting[0]!.since));
    if (hold <= 0) return true;
    deferTimer = setTimeout(() => {
      deferTimer = undefined;
      next();
    }, hold);
    return false;
  };
  const next = () => {
    // While acks are arriving and the loop has no time to spare, jobs waiting on the network do
    // not make room for more: their callbacks would land between the acks. With time to spare (a
    // slow service), they do, or the bookings would fall behind.
    const acking = holdFor() > 0;
    const width = acking ? slotsDuringAcks : slots;
    const limit = acking && loopBusy() ? width : maxRunning;
    while (busy < width && running < limit && waiting.length > 0 && mayStart()) {
      const { job, scope } = waiting.shift()!;
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
        scope
          .runInAsyncScope(job)
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
      // A job starts from whichever job or timer frees a slot; in the scope taken here, it runs
      // (and logs) as part of the request that queued it. A resource rather than
      // AsyncResource.bind, which on Node 20 also defines deprecated accessors on every function
      // it binds: about 5% of what an ack allocated.
      waiting.push({ job, scope: new AsyncResource('split.work'), since: performance.now() });
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

/**
 * Watches Slack's requests on `server` for the work queue's `holdFor`: jobs wait while a request
 * is unanswered, and for `quietMs` after the last one was answered, since in a burst the next
 * request is already on its way. In bench/split-ack.ts's bursts, a tenth of the moments with no
 * request unanswered lasted 10 to 30 ms before the next arrived; at 10 ms, bookings started in
 * those gaps and their steps then ran between the burst's acks. 50 ms keeps them for after the
 * burst, and a lone command's answer waits no longer than that. Only Bolt's events path counts,
 * read as Bolt reads it: the OAuth pages answer after a token exchange and are not acks.
 */
export function createAckGate(
  server: Server,
  path: string,
  quietMs = 50,
): { holdFor: () => number } {
  let pending = 0;
  let lastAnswered = Number.NEGATIVE_INFINITY;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (routedPath(req.url) !== path) return;
    pending += 1;
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      pending -= 1;
      lastAnswered = performance.now();
    };
    // 'finish' when the answer is handed to the socket; 'close' also covers a dropped request.
    res.once('finish', done);
    res.once('close', done);
  });
  return {
    holdFor: () =>
      pending > 0 ? quietMs : Math.max(0, quietMs - (performance.now() - lastAnswered)),
  };
}
