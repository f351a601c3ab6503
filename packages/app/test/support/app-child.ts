// The app in a process of its own, for the tests and benches that kill it with SIGKILL:
//   node --import tsx test/slack/app-child.ts '<ChildSpec JSON>'
// Prints "ready <url>" once it serves; stops cleanly when its stdin closes.
import { startApp } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import type { ChildSpec } from './crash-support.js';
import { quietLogger } from './harness.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;
const logger = quietLogger();
if (process.env.SPLIT_CHILD_LOG === '1') {
  for (const level of ['info', 'warn', 'error'] as const) {
    logger[level] = (...msg: unknown[]) => process.stderr.write(`${level} ${msg.join(' ')}\n`);
  }
}
const app = await startApp({
  config: loadConfig(spec.env),
  logger,
  slackRetries: 0,
  serviceRetries: 0,
  digest: { scheduler: false },
  ...spec.options,
});
process.stdout.write(`ready ${app.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void app.stop().then(() => process.exit(0));
});
