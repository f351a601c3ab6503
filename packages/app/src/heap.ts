/**
 * How much memory the process keeps while it waits. A Slack app answers a few requests a second
 * and then idles for minutes, and two of V8's defaults leave memory behind after a burst that
 * nothing uses while it idles:
 *
 * - The young generation grows with each burst (to 16 MB per semi-space on Node 20, more on newer
 *   versions) and keeps every page it touched: 10 to 20 MB after a handful of commands. Held at
 *   its starting size, a burst costs more minor collections instead, so heap-adapt.ts lets it
 *   grow while minor collections come fast and gives the memory back once the process idles.
 * - WebAssembly (the HTTP parser behind the global fetch) is compiled again by the optimizing
 *   compiler once it is hot; that compile's working memory (over 20 MB at its peak) stays in a
 *   malloc arena, 10 MB of it or more. Baseline code parses the few kilobytes of an answer as
 *   well. Node 24's V8 no longer draws the two tier-up flags from `--liftoff-only` when it is set
 *   at run time, so they are set too. The app's own calls do not use the global fetch (see
 *   service/lean-fetch.ts); what still does (a receipt's download) is covered by this.
 *
 * bench/README.md ("Footprint" and "/split ack latency") measures both sides.
 */
import { setFlagsFromString } from 'node:v8';

interface Tuning {
  flags: readonly string[];
  /** Flags by which the operator made the choice themselves: theirs then stands. */
  operators: RegExp;
}

/** The young generation kept at its starting size; heap-adapt.ts lets it grow for a burst. */
export const PINNED_YOUNG = '--semi-space-growth-factor=1';

const TUNINGS: readonly Tuning[] = [
  {
    flags: [PINNED_YOUNG],
    operators: /--(?:min-|max-)?semi-space-size|--semi-space-growth-factor/,
  },
  {
    flags: ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'],
    operators: /--(?:no-)?liftoff|--(?:no-)?wasm-/,
  },
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
    for (const flag of tuning.flags) setFlagsFromString(flag);
    applied.push(...tuning.flags);
  }
  return applied;
}
