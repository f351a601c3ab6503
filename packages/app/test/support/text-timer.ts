/**
 * Times readers of text for the linear-time tests (linear-time.ts): in a process of its own (no
 * test runner's heap or module loader beside it). Imports the module given (a bundle, or a
 * TypeScript file run through tsx), whose `readers` are functions of one text, awaits its `ready`
 * if it has one, reads the texts from a JSON file, and prints for each text the processor time in
 * ms of the fastest of a few runs of each reader.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

interface TimedModule {
  readers: Record<string, (text: string) => unknown>;
  /** Settles once the readers can run (catalogues loaded...). */
  ready?: Promise<unknown>;
  /** A text run through every reader first: compiling their code is no property of a text. */
  warm?: string;
}

const [modulePath, textsFile, boundText] = process.argv.slice(2);
const bound = Number(boundText);
const timed = (await import(pathToFileURL(modulePath!).href)) as TimedModule;
await timed.ready;
const texts = JSON.parse(await readFile(textsFile!, 'utf8')) as string[];

/** Blocks this thread for `ms`: a wait between runs lets a burst of other work pass. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Processor time, not time on the clock: other processes on a busy machine lengthen the second
 * more than the first. The fastest of up to twelve runs, a short pause between them: a pause of
 * the garbage collector or a moment when the machine's cores and caches are shared with a test
 * run's other files is not the reader's, and a run within the bound needs no other.
 */
function fastest(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 12; attempt++) {
    // Within the bound needs no other run; ten times the bound is no noise, and a quadratic
    // pattern is told at once rather than twelve times over.
    if (attempt > 0 && (best < bound || best >= 10 * bound)) break;
    if (attempt > 0) pause(20);
    const started = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

const readers = Object.entries(timed.readers);
if (timed.warm !== undefined)
  for (let n = 0; n < 3; n++) for (const [, read] of readers) read(timed.warm);

const times = texts.map((text) =>
  Object.fromEntries(readers.map(([name, read]) => [name, fastest(() => read(text))])),
);
process.stdout.write(JSON.stringify(times));
