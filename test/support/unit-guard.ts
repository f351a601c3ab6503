/**
 * Set up before every unit test file (`*.test.ts`): a unit test opens no socket, starts no server
 * and no child process, so that `npm run test:unit` stays a fast loop that needs nothing but Node.
 * A test that does any of these fails here with the reason, and belongs in a `*.e2e.test.ts` file.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `a unit test (*.test.ts) ${what}: it needs no server, socket or child process; ` +
      'a test that does belongs in a *.e2e.test.ts file',
  );
}

net.Server.prototype.listen = function listen(): never {
  refuse('started a server');
};
net.Socket.prototype.connect = function connect(): never {
  refuse('opened a socket');
};
for (const name of [
  'spawn',
  'spawnSync',
  'fork',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = () =>
    refuse(`started a child process (${name})`);
}
// The named exports of `node:child_process` that ES modules import are updated from the object.
syncBuiltinESMExports();
