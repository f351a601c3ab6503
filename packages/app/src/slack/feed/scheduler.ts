/**
 * Polls the feeds on a timer. Runs never overlap: a tick that comes while one is going is skipped.
 * stop() waits for the run in progress, so a shutdown does not cut a post in half.
 */
import type { Logger } from '@slack/bolt';
import type { FeedPoller } from './poller.js';

export interface FeedScheduler {
  stop(): Promise<void>;
}

export function startFeedScheduler(
  poller: FeedPoller,
  options: { intervalMs: number; logger: Logger },
): FeedScheduler {
  if (!(options.intervalMs > 0)) throw new RangeError('intervalMs must be positive');
  let current: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || current) return;
    current = poller
      .pollAll()
      .then(() => undefined)
      .catch((error: Error) =>
        options.logger.error({ msg: 'feed run failed: {error}', error: error.message }),
      )
      .finally(() => {
        current = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  // The timer alone must not keep a process alive that is otherwise done.
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
