/**
 * Imported first by split-ack-app.ts: the real app's process keeps V8's young generation small
 * before any module is loaded, as main.ts does in production, unless BENCH_V8_DEFAULT=1 asks for
 * V8's default to compare with. Loading the app's modules alone would otherwise grow it first.
 */
import { keepYoungGenerationSmall } from '../packages/app/src/heap.js';

if (process.argv[2] === 'real' && process.env.BENCH_V8_DEFAULT !== '1') {
  keepYoungGenerationSmall(process.execArgv, undefined);
}
