/**
 * Runs the digest on a timer. Runs never overlap: a tick that comes while a run is still going is
 * skipped (the next one catches up, since being due is "the hour has come", not "it is exactly
 * the hour"). stop() waits for the run in progress, so a shutdown does not cut a send in half.
 */
import type { DigestLogger, DigestRunner, DigestRunReport } from './runner.js';

interface DigestSchedulerOptions {
  /** Time between ticks; default one minute. */
  intervalMs?: number;
  clock: () => Date;
  logger?: Pick<DigestLogger, 'error' | 'debug'>;
  /** Runs a first pass at once instead of after the first interval; default true. */
  runImmediately?: boolean;
  /** Called after each run, for metrics. */
  onRun?: (report: DigestRunReport) => void;
}

export interface DigestScheduler {
  /** Stops ticking and resolves once the run in progress (if any) has finished. */
  stop(): Promise<void>;
  /** Resolves when the run in progress finishes (immediately when idle); for tests. */
  idle(): Promise<void>;
}

export function startDigestScheduler(
  runner: Pick<DigestRunner, 'runDue'>,
  options: DigestSchedulerOptions,
): DigestScheduler {
  const intervalMs = options.intervalMs ?? 60_000;
  if (!(intervalMs > 0)) throw new RangeError('intervalMs must be positive');
  let current: Promise<void> | undefined;
  let stopped = false;

  const tick = () => {
    if (stopped || current) return;
    current = runner
      .runDue(options.clock())
      .then((report) => options.onRun?.(report))
      .catch((error: unknown) => {
        options.logger?.error({
          msg: 'digest run failed: {error}',
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        current = undefined;
      });
  };

  const timer = setInterval(tick, intervalMs);
  // The timer alone must not keep a process alive that is otherwise done.
  timer.unref();
  if (options.runImmediately !== false) tick();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
    async idle() {
      await current;
    },
  };
}
