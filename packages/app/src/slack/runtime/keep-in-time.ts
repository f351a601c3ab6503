/**
 * Writing acknowledged work to the store within Slack's answer window. Slack wants the answer to a
 * command or a form within 3 seconds; a store that is slow to answer (a lock held elsewhere, a
 * failover) must not turn into Slack's own vague timeout error. The write is given a budget: past
 * it, the handler answers that saving is slow, and the write goes on and lands or fails on its
 * own. Whatever it does, the work is carried out once (the job's id is the delivery's key) or not
 * at all, and `late` hears which.
 */
import type { Logger } from '@slack/bolt';
import type { SlackUserKey } from '../../store/index.js';
import type { DurableWork } from './durable.js';

/** What the handler can tell Slack within its window, leaving room for the answer's trip. */
const KEEP_BUDGET_MS = 2_000;

/** `queued`: kept now; `repeat`: kept by an earlier delivery; `slow`: not answered in time. */
export type Kept = 'queued' | 'repeat' | 'slow';

interface KeepOptions {
  budgetMs?: number;
  /** After a `slow` answer: whether the write landed in the end (true) or failed (its error). */
  late?: (outcome: { kept: true } | { kept: false; error: Error }) => void | Promise<void>;
}

/** Throws when the store refuses the write within the budget: nothing is kept then. */
export async function keepInTime(
  durable: Pick<DurableWork, 'submit'>,
  job: { id: string; kind: string; payload: unknown; by: SlackUserKey },
  logger: Logger,
  options: KeepOptions = {},
): Promise<Kept> {
  const write = durable.submit(job.id, job.kind, job.payload, job.by);
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), options.budgetMs ?? KEEP_BUDGET_MS);
  });
  try {
    const first = await Promise.race([write, slow]);
    if (first !== 'slow') return first ? 'queued' : 'repeat';
  } finally {
    clearTimeout(timer);
  }
  logger.warn({
    msg: 'job {job_id}: the store is slow to keep it; answered before it did',
    job_id: job.id,
  });
  void write
    .then(
      async () => {
        logger.info({ msg: 'job {job_id}: kept after all', job_id: job.id });
        await options.late?.({ kept: true });
      },
      async (error: Error) => {
        logger.error({
          msg: 'job {job_id}: could not be kept: {error}',
          job_id: job.id,
          error: error.message,
        });
        await options.late?.({ kept: false, error });
      },
    )
    .catch((error: Error) =>
      logger.error({
        msg: 'job {job_id}: telling the outcome failed: {error}',
        job_id: job.id,
        error: error.message,
      }),
    );
  return 'slow';
}
