/**
 * Node 22 and later can keep V8's compiled code of the modules a process loads on disk, so that
 * the next start reads it back instead of compiling Bolt, pino and the app again: about 100 ms of
 * a start on Node 24, which brings it level with a bare Bolt app (bench/README.md, "Footprint").
 * Node 20 has no such cache, and nothing changes there.
 *
 * The cache goes in the user's own cache folder rather than Node's default in the shared
 * temporary folder, where another user of the host could leave compiled code for the app to run.
 * An operator's NODE_COMPILE_CACHE (another folder) or NODE_DISABLE_COMPILE_CACHE=1 (none) stands.
 *
 * Node writes the cache when the process exits, SIGTERM included. Writing it earlier, once the app
 * is up, would also cover a process that is killed, but it serializes the code in the middle of
 * the first requests: 1.4 MB more at rest, or 80 ms more on the first start when done at once.
 */
import module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What Node 22+ adds to node:module; absent on Node 20, and from the type definitions. */
interface CompileCacheApi {
  enableCompileCache?: (directory?: string) => { status: number; directory?: string };
}

const api = module as unknown as CompileCacheApi;

/** The folder the cache is kept in, or undefined when Node has none or it is turned off. */
export function startCompileCache(env: NodeJS.ProcessEnv): string | undefined {
  if (!api.enableCompileCache || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  let directory: string | undefined;
  if (!env.NODE_COMPILE_CACHE) {
    try {
      directory = join(homedir(), '.cache', 'split', 'node-compile-cache');
    } catch {
      // No home folder to be found: no cache, and a start as fast as without one.
      return undefined;
    }
  }
  // A folder that cannot be made answers a status, never an error: the app starts regardless.
  return api.enableCompileCache(directory).directory;
}
