/**
 * Process entry: read the configuration, start the app, stop cleanly on SIGTERM/SIGINT. The only
 * place that reads process.env and the only place that writes to the console directly (the fatal
 * start-up message, before any logger exists).
 */
import { ConfigError, loadConfig } from './config.js';
import { readEnvFile } from './env-file.js';
import { type RunningApp, startApp } from './app.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, readEnvFile('.env'));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(
        `Split cannot start: the configuration has ${error.problems.length} problem(s):`,
      );
      for (const problem of error.problems) console.error(`  - ${problem}`);
      console.error('See .env.example for every variable.');
      process.exit(1);
    }
    throw error;
  }

  let running: RunningApp;
  try {
    running = await startApp({ config });
  } catch (error) {
    console.error(`Split cannot start: ${(error as Error).message}`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.logger.info(`${signal} received: shutting down`);
    // A stuck close must not keep a container from stopping.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      (error: Error) => {
        running.app.logger.error(`shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
