/**
 * How much memory the process keeps while it waits. A Slack app answers a few requests a second
 * and then idles for minutes, and two of V8's defaults leave memory behind after a burst that
 * nothing uses while it idles:
 *
 * - The young generation grows with each burst (to 16 MB per semi-space on Node 20, more on newer
 *   versions) and keeps every page it touched: 10 to 20 MB after a handful of commands. Held at
 *   its starting size, a burst costs more minor collections instead.
 * - WebAssembly (the HTTP parser behind fetch) is compiled again by the optimizing compiler on a
 *   background thread once it is hot, at a moment that varies from run to run; that compile's
 *   working memory stays in the thread's malloc arena, about 10 MB in a third of the runs.
 *   Baseline code parses the few kilobytes of an answer as well.
 *
 * bench/README.md ("Footprint" and "/split ack latency") measures both sides.
 */
import { setFlagsFromString } from 'node:v8';

interface Tuning {
  flag: string;
  /** Flags by which the operator made the choice themselves: theirs then stands. */
  operators: RegExp;
}

const TUNINGS: readonly Tuning[] = [
  {
    flag: '--semi-space-growth-factor=1',
    operators: /--(?:min-|max-)?semi-space-size|--semi-space-growth-factor/,
  },
  { flag: '--liftoff-only', operators: /--(?:no-)?liftoff|--(?:no-)?wasm-/ },
];

/**
 * Applies the tunings the operator did not choose otherwise (in node's arguments or NODE_OPTIONS)
 * and returns the flags applied. It must run before the app starts work: V8 reads these when it
 * would grow the young generation and when it compiles WebAssembly. (Given to node on its command
 * line, V8 raises the growth factor to 2; set at run time, it stays.)
 */
export function tuneForIdle(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const chosen = [...execArgv, nodeOptions ?? ''].join(' ');
  const applied: string[] = [];
  for (const tuning of TUNINGS) {
    if (tuning.operators.test(chosen)) continue;
    setFlagsFromString(tuning.flag);
    applied.push(tuning.flag);
  }
  return applied;
}
