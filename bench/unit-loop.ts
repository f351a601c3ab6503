/**
 * Wall time of the unit loop, as a developer runs it.
 *
 *   npx tsx bench/unit-loop.ts [--rounds N]     (N = 3 unless given)
 *
 * Each round runs `npm run test:unit` (vitest's unit project, four workers, every `*.test.ts`
 * outside e2e and browser) from start to exit and times it; a round that fails is reported and
 * stops the benchmark, since the time of a broken run means nothing. Prints each round, then the
 * median, with the machine's core count and load beside it: on a shared machine the load says
 * how much the figure was crowded.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : 3;
const times: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const load = loadavg()[0]!.toFixed(1);
  const started = performance.now();
  const run = spawnSync('npm', ['run', 'test:unit'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  const tail = run.stdout.toString().trim().split('\n').slice(-2).join(' / ');
  if (run.status !== 0) {
    process.stderr.write(`round ${round} failed (exit ${run.status}): ${tail}\n`);
    process.exit(1);
  }
  times.push(seconds);
  process.stdout.write(`round ${round}: ${seconds.toFixed(1)} s (load ${load}) ${tail}\n`);
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
process.stdout.write(
  `median of ${rounds}: ${median.toFixed(1)} s on ${availableParallelism()} cores ` +
    `(min ${sorted[0]!.toFixed(1)} s, max ${sorted.at(-1)!.toFixed(1)} s)\n`,
);
