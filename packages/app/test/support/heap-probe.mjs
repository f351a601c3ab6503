// Loaded into the app's own process for the tests and benchmarks that weigh its heap:
//   node --expose-gc --import <this file> dist/main.js   (with an IPC channel to the parent)
// Plain JavaScript, so that the app runs as built, with no TypeScript loader in its process.
// Asked 'heap', it collects all garbage and answers { heapUsed } in bytes. The channel is
// unreferenced, so that it never keeps the app running.
import { getHeapStatistics } from 'node:v8';

const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('heap-probe.mjs needs node --expose-gc');
if (!process.send) throw new Error('heap-probe.mjs needs an IPC channel to its parent');

process.on('message', (message) => {
  if (message !== 'heap') return;
  // Twice: the first collection's finalizers can free more for the second.
  gc();
  gc();
  process.send?.({ heapUsed: getHeapStatistics().used_heap_size });
});
// After the listener, which references the channel when it is added.
process.channel?.unref();
