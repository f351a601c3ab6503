/**
 * The young generation sized by the load: small at rest, as heap.ts keeps it, and free to grow
 * while a burst allocates, then given back once the process is idle again.
 *
 * - Growth: at its starting size (1 MB semi-spaces) a burst of bookings costs a minor collection
 *   every few hundred microseconds, and what is in flight between two awaits survives each one
 *   and is copied again and again. So while minor collections come faster than `burst` per
 *   `windowMs`, V8's growth factor is raised: the young generation grows as it would by default.
 * - Giving back: once the event loop was busy under `idleUtilization` for `idleMs`, the growth
 *   factor is pinned again and a memory-reducing full collection is asked for. The V8 of Node 22
 *   and 24 shrinks the young generation and returns its pages at the first ("last-resort"). Node 20's
 *   shrinks it only when the allocation rate it measured over its last 5 s is low, which a
 *   collection's own sample gives only once the one before is that old; so the collection is
 *   asked for again, at most `collections` times `retryMs` apart, while the process stays idle.
 *
 * Collections are asked for through V8's `gc` function, exposed for the moment it takes to fetch
 * it into a context of its own: the app's own contexts never see it.
 */
import {
  constants,
  type EventLoopUtilization,
  PerformanceObserver,
  performance,
} from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PINNED_YOUNG } from './heap.js';

export interface AdaptOptions {
  /** Minor collections within `windowMs` that make a burst. */
  burst: number;
  windowMs: number;
  /** V8's growth factor for the young generation during a burst (its own default is 2). */
  growthFactor: number;
  /** How long, and how little busy, the event loop must be before memory is given back. */
  idleMs: number;
  idleUtilization: number;
  /** How often the event loop is looked at while the young generation may be grown. */
  checkMs: number;
  /** Collections asked for per idle period, and the time between them (see above). */
  collections: number;
  retryMs: number;
  /** The flags node was started with (its arguments and NODE_OPTIONS): the operator's choices. */
  nodeFlags: string;
}

export const ADAPT_DEFAULTS: AdaptOptions = {
  burst: 30,
  windowMs: 1_000,
  growthFactor: 2,
  idleMs: 5_000,
  idleUtilization: 0.05,
  checkMs: 1_000,
  collections: 3,
  retryMs: 6_000,
  nodeFlags: '',
};

export interface YoungGeneration {
  /** 'pinned' at rest; 'grown' from a burst until its memory was given back. */
  readonly state: 'pinned' | 'grown';
  /** Bursts seen and idle periods that gave memory back, since the start. */
  readonly bursts: number;
  readonly givenBack: number;
  stop(): void;
}

type Collect = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8 before 12 (Node 20) reads an options object as something other than a full collection:
 * measured, 90 MB of garbage stayed after `gc({ type: 'major' })` and went after `gc()`. Nor does
 * it know the last-resort flavour, and a plain full collection leaves the old generation's pages
 * committed around what survived (35 MB committed for 19 MB used after a burst, in the app); so
 * that one collection compacts, unless the operator asked for that on every one.
 */
const TAKES_OPTIONS = Number(process.versions.v8.split('.')[0]) >= 12;
const COMPACT = '--compact-on-every-full-gc';

function youngSize(): number {
  return (
    getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  );
}

let collector: Collect | undefined;

/** V8's gc function, without leaving it on the app's global object. */
function collect(nodeFlags: string): void {
  if (!collector) {
    const exposed = (globalThis as { gc?: Collect }).gc;
    if (exposed) collector = exposed;
    else {
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as Collect;
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (TAKES_OPTIONS) {
    collector({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    return;
  }
  const chosen = nodeFlags.includes(COMPACT);
  if (!chosen) setFlagsFromString(COMPACT);
  try {
    collector();
  } finally {
    if (!chosen) setFlagsFromString(COMPACT.replace('--', '--no-'));
  }
}

/**
 * Starts adapting. Call it only where heap.ts pinned the young generation (tuneForIdle returned
 * PINNED_YOUNG): an operator who sized it chose for themselves.
 */
export function adaptYoungGeneration(options: Partial<AdaptOptions> = {}): YoungGeneration {
  const o = { ...ADAPT_DEFAULTS, ...options };
  const restingSize = youngSize();
  let state: YoungGeneration['state'] = 'pinned';
  let bursts = 0;
  let givenBack = 0;
  /** When the last `burst` minor collections started, oldest first. */
  const recent: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let idleFor = 0;
  let collections = 0;
  let sinceCollect = 0;

  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
      recent.push(entry.startTime);
      if (recent.length > o.burst) recent.shift();
      if (recent.length === o.burst && entry.startTime - recent[0]! <= o.windowMs) grow();
    }
  });
  const watchCollections = () => observer.observe({ entryTypes: ['gc'] });

  const grow = () => {
    if (state === 'grown') return;
    state = 'grown';
    bursts++;
    recent.length = 0;
    observer.disconnect();
    setFlagsFromString(`--semi-space-growth-factor=${o.growthFactor}`);
    last = performance.eventLoopUtilization();
    idleFor = 0;
    collections = 0;
    timer = setInterval(check, o.checkMs);
    timer.unref();
  };

  const rest = () => {
    state = 'pinned';
    givenBack++;
    clearInterval(timer);
    timer = undefined;
    watchCollections();
  };

  function check() {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy > o.idleUtilization) {
      // Busy again before the memory was given back: let it grow again.
      if (idleFor >= o.idleMs) setFlagsFromString(`--semi-space-growth-factor=${o.growthFactor}`);
      idleFor = 0;
      collections = 0;
      return;
    }
    idleFor += o.checkMs;
    sinceCollect += o.checkMs;
    if (idleFor < o.idleMs) return;
    if (collections === 0) setFlagsFromString(PINNED_YOUNG);
    else if (youngSize() <= restingSize || collections >= o.collections) return rest();
    else if (sinceCollect < o.retryMs) return;
    collect(o.nodeFlags);
    collections++;
    sinceCollect = 0;
    if (youngSize() <= restingSize) rest();
  }

  watchCollections();
  return {
    get state() {
      return state;
    },
    get bursts() {
      return bursts;
    },
    get givenBack() {
      return givenBack;
    },
    stop() {
      observer.disconnect();
      clearInterval(timer);
    },
  };
}
