/**
 * Acknowledged work that survives a crash: a command is written to the store's job queue before
 * Slack gets its ack, carried out on the work queue by the replica holding it, and taken over by
 * another replica (or this app once restarted) when its holder stops renewing its lease. What a
 * job needs later travels in its payload (what was typed, the response_url), never in closures,
 * so that a job resumed elsewhere runs exactly as it would have here.
 */
import type { Logger } from '@slack/bolt';
import { withRequest } from '../../observe/context.js';
import { type Job, type Jobs, PERSON_FIELD, type SlackUserKey } from '../../store/index.js';
import type { WorkQueue } from './work-queue.js';

/**
 * The job was taken over by another replica (this one stopped renewing in time): whoever holds it
 * now carries it out and answers, so this run stops without a word to the person.
 */
export class JobMovedError extends Error {
  override name = 'JobMovedError';
}

/** One job's handle for its handler. */
interface JobRun {
  id: string;
  /** What an earlier holder last saved (it stopped before finishing); undefined on a first run. */
  progress: unknown;
  /** When the command was acknowledged (ms). */
  createdAt: number;
  /** Saves progress; throws JobMovedError when the job is no longer this replica's. */
  save(progress: unknown): Promise<void>;
}

/** Carries out one kind of job; it answers the person itself, whatever happens. */
export type JobHandler = (payload: unknown, run: JobRun, logger: Logger) => Promise<void>;

export interface DurableWork {
  /**
   * Writes the job, held by this replica, and queues it here. False when the id is already
   * known (a redelivery of the same command): nothing is queued then. Throws when the store
   * cannot take it, before anything is acknowledged. `by` is whose work it is: removing that
   * person's data removes the job too.
   */
  submit(id: string, kind: string, payload: unknown, by: SlackUserKey): Promise<boolean>;
  /** Starts taking over jobs whose holder stopped. */
  start(handlers: Record<string, JobHandler>): void;
  /** Stops taking jobs, lets every job not yet started go to other replicas, and stops renewing. */
  stop(): Promise<void>;
  /** Jobs this replica holds now, running or queued. */
  readonly size: number;
}

export interface DurableOptions {
  /** How long a holder keeps a job without renewing it; a crashed holder's jobs wait this long. */
  leaseMs?: number;
  /** How often to look for jobs whose holder stopped. */
  pollMs?: number;
  /** Jobs held at once by this replica (running or queued here). */
  maxHeld?: number;
  /** How long a finished job's id is kept, so that a redelivery is recognised. */
  keepMs?: number;
}

/** Taken over this many times, a job is given up: it is what keeps bringing replicas down. */
const MAX_RETAKES = 10;

interface Payload {
  kind: string;
  data: unknown;
  /** `<team>:<user>`, the store's PERSON_FIELD. */
  [PERSON_FIELD]?: string;
}

export function createDurableWork(
  jobs: Jobs,
  work: WorkQueue,
  logger: Logger,
  options: DurableOptions = {},
): DurableWork {
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 1_000;
  const maxHeld = options.maxHeld ?? 64;
  const keepMs = options.keepMs ?? 60 * 60_000;
  const held = new Map<string, { started: boolean }>();
  let handlers: Record<string, JobHandler> | undefined;
  let stopped = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;

  // Every held job in one call: a burst of commands holds hundreds, and one statement each
  // landed among the burst's acks.
  const renewAll = async () => {
    const ids = [...held.keys()];
    if (ids.length === 0) return;
    const still = await jobs.renewAll(ids, leaseMs).catch((error: Error) => {
      logger.warn({ msg: 'leases not renewed: {error}', error: error.message });
      return undefined;
    });
    if (!still) return;
    for (const id of ids) {
      // Finished meanwhile (done jobs are not renewed): nothing lapsed.
      if (!still.has(id) && held.has(id))
        logger.warn({ msg: 'job {id}: its lease lapsed and another replica took it', id });
    }
  };
  // Renewed three times a lease, so that one slow store write does not let a lease lapse.
  const heartbeat = setInterval(() => void renewAll(), Math.max(10, Math.floor(leaseMs / 3)));
  heartbeat.unref();

  const run = (job: Job) => {
    held.set(job.id, { started: false });
    work.push(async () => {
      const mark = held.get(job.id);
      if (!mark || stopped) return;
      mark.started = true;
      try {
        const { kind, data } = job.payload as Payload;
        const handler = handlers?.[kind];
        if (!handler) throw new Error(`no handler for jobs of kind "${kind}"`);
        if (job.retakes > MAX_RETAKES) {
          logger.error({
            msg: 'job {job_id}: taken over {retakes} times; given up',
            job_id: job.id,
            retakes: job.retakes,
          });
        } else {
          await handler(
            data,
            {
              id: job.id,
              progress: job.progress,
              createdAt: job.createdAt,
              save: async (progress) => {
                if (!(await jobs.save(job.id, progress))) {
                  throw new JobMovedError(`job ${job.id} is no longer held here`);
                }
              },
            },
            logger,
          );
        }
        await jobs.finish(job.id, keepMs);
      } catch (error) {
        // Left unfinished: its lease lapses (or has) and it is taken up again, here or elsewhere.
        if (error instanceof JobMovedError) logger.warn(error.message);
        else
          logger.error({
            msg: 'job {job_id} failed: {error}',
            job_id: job.id,
            error: (error as Error).stack ?? String(error),
          });
      } finally {
        held.delete(job.id);
      }
    });
  };

  const poll = async () => {
    const room = maxHeld - held.size;
    if (room <= 0 || stopped || !handlers) return;
    try {
      for (const job of await jobs.take(room, leaseMs)) {
        // Our own job, whose lease lapsed because renewals failed while it ran here: taking it
        // back only restores the lease; the run already under way carries on, and a second run
        // beside it would do the work twice.
        if (held.has(job.id)) {
          logger.warn({
            msg: 'job {job_id}: its lease lapsed while it ran here; held again',
            job_id: job.id,
          });
          continue;
        }
        // No Slack request is behind a job taken over: it gets an id of its own for its lines.
        withRequest(() => {
          logger.info({ msg: 'job {job_id}: taken over (its holder stopped)', job_id: job.id });
          run(job);
        });
      }
    } catch (error) {
      logger.warn({
        msg: 'looking for unfinished jobs failed: {error}',
        error: (error as Error).message,
      });
    }
  };
  const schedule = () => {
    if (stopped) return;
    pollTimer = setTimeout(() => {
      polling = poll().finally(schedule);
    }, pollMs);
    pollTimer.unref();
  };

  return {
    async submit(id, kind, data, by) {
      const payload: Payload = { kind, data, [PERSON_FIELD]: `${by.team_id}:${by.user_id}` };
      if (!(await jobs.add(id, payload, leaseMs))) return false;
      run({ id, payload, progress: undefined, createdAt: Date.now(), retakes: 0 });
      return true;
    },
    start(table) {
      handlers = table;
      polling = poll().finally(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(pollTimer);
      await polling;
      const waiting = [...held].filter(([, mark]) => !mark.started).map(([id]) => id);
      for (const id of waiting) held.delete(id);
      await Promise.all(waiting.map((id) => jobs.release(id).catch(() => undefined)));
      await work.idle();
      clearInterval(heartbeat);
    },
    get size() {
      return held.size;
    },
  };
}
