/**
 * Process entry: read the configuration (the environment over ./.env), then start the app, or
 * the sandbox when no Slack app is configured outside production. Stops cleanly on SIGTERM/SIGINT.
 * The only place that reads process.env, and with the sandbox's two address lines the only place
 * that writes to the console directly (fatal start-up messages come before any logger exists).
 */
import { parseArgs } from 'node:util';
import { startCompileCache } from './compile-cache.js';
import { ConfigError, loadConfig } from './config.js';
import { readEnvFile } from './env-file.js';
import { PINNED_YOUNG, tuneForIdle } from './heap.js';
import { adaptYoungGeneration } from './heap-adapt.js';

interface Stoppable {
  stop(): Promise<void>;
}

function fail(lines: string[]): never {
  for (const line of lines) console.error(line);
  process.exit(1);
}

/** Where the shutdown is told: the app's logger once it runs, so every line is one of its lines. */
interface ShutdownLog {
  info(message: string): void;
  error(message: string): void;
}

function stopOnSignals(running: Stoppable, log: ShutdownLog): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: shutting down`);
    // A stuck close must not keep a container from stopping.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      (error: Error) => {
        log.error(`shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The sandbox lives in a package of its own that starts this app, so this package cannot depend on
 * it: it is found at run time beside the app (the repository installs it; the production image
 * does not), and only when nothing is configured, so a production process never loads it.
 */
const SANDBOX_PACKAGE = '@split/sandbox';

interface SandboxPackage {
  runSandbox(settings: {
    port: string;
    dataDir: string;
    fresh: boolean;
    logLevel: string | undefined;
  }): Promise<{ close(): Promise<void> }>;
}

async function loadSandbox(): Promise<SandboxPackage> {
  try {
    return (await import(SANDBOX_PACKAGE)) as SandboxPackage;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as Error).message.includes(SANDBOX_PACKAGE);
    if (!missing) throw error;
    fail([
      'Split cannot start: no Slack app is configured, and the sandbox is not installed here.',
      'Set SLACK_BOT_TOKEN (or SLACK_STATE_SECRET) and the other variables in .env.example, or run',
      'npm ci at the root of the repository to install the sandbox.',
    ]);
  }
}

function readArgs(): { sandbox: boolean; data: string; fresh: boolean } {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        sandbox: { type: 'boolean', default: false },
        data: { type: 'string', default: 'data/sandbox' },
        fresh: { type: 'boolean', default: false },
      },
    });
    return { sandbox: values.sandbox, data: values.data, fresh: values.fresh };
  } catch (error) {
    fail([
      `Split cannot start: ${(error as Error).message}`,
      'Usage: npm start [-- --sandbox] [--data DIR] [--fresh]',
    ]);
  }
}

async function main(): Promise<void> {
  if (tuneForIdle(process.execArgv, process.env.NODE_OPTIONS).includes(PINNED_YOUNG)) {
    adaptYoungGeneration({
      nodeFlags: [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '),
    });
  }
  // Before the app's modules and their packages load: they are what the cache keeps.
  startCompileCache(process.env);
  const args = readArgs();
  let envFile: ReturnType<typeof readEnvFile>;
  try {
    envFile = readEnvFile('.env');
  } catch (error) {
    if (error instanceof ConfigError) {
      fail(['Split cannot start: .env cannot be used:', ...error.problems.map((p) => `  - ${p}`)]);
    }
    throw error;
  }
  const setting = (name: string) => process.env[name] || envFile?.get(name) || undefined;
  // A state secret means an app installed into many workspaces: it has no bot token of its own.
  const noSlackApp =
    !setting('SLACK_BOT_TOKEN') && !setting('SLACK_APP_TOKEN') && !setting('SLACK_STATE_SECRET');

  if (args.sandbox || (noSlackApp && setting('NODE_ENV') !== 'production')) {
    const { runSandbox } = await loadSandbox();
    const sandbox = await runSandbox({
      port: setting('PORT') ?? '3000',
      dataDir: args.data,
      fresh: args.fresh,
      logLevel: setting('LOG_LEVEL'),
    }).catch((error: Error) => fail([`The sandbox cannot start: ${error.message}`]));
    stopOnSignals(
      { stop: () => sandbox.close() },
      { info: (message) => console.error(message), error: (message) => console.error(message) },
    );
    return;
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, envFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      fail([
        `Split cannot start: the configuration has ${error.problems.length} problem(s):`,
        ...error.problems.map((problem) => `  - ${problem}`),
        'See .env.example for every variable, or run npm run sandbox to try the app locally.',
      ]);
    }
    throw error;
  }

  const { startApp } = await import('./compose.js');
  const running = await startApp({ config }).catch((error: Error) =>
    fail([`Split cannot start: ${error.message}`]),
  );
  stopOnSignals(running, {
    info: (message) => running.app.logger.info(message),
    error: (message) => running.app.logger.error(message),
  });
}

void main();
