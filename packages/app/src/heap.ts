/**
 * How much memory the process keeps while it waits. A Slack app answers a few requests a second
 * and then idles for minutes; V8 lets the young generation grow with each burst (to 16 MB per
 * semi-space on Node 20, more on newer versions) and keeps every page it touched while idle, so a
 * handful of commands leaves 10 to 20 MB resident that nothing uses. Holding the young generation
 * at its starting size trades that for more minor collections under a burst; bench/README.md
 * ("Footprint" and "/split ack latency") measures both sides.
 */
import { setFlagsFromString } from 'node:v8';

/** Flags that size the young generation: when the operator chose one, their choice stands. */
const YOUNG_GENERATION_FLAGS = /--(?:max-)?semi-space-size|--semi-space-growth-factor/;

/**
 * Keeps the young generation at its starting size, unless the operator sized it themselves
 * (NODE_OPTIONS or node's own arguments). It must run before the app allocates much: V8 reads the
 * growth factor each time it would grow the young generation.
 */
export function keepYoungGenerationSmall(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): boolean {
  if (execArgv.some((arg) => YOUNG_GENERATION_FLAGS.test(arg))) return false;
  if (nodeOptions && YOUNG_GENERATION_FLAGS.test(nodeOptions)) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
