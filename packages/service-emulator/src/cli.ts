/**
 * `npm run emulator`: runs the expense service emulator until SIGINT or SIGTERM.
 *
 *   --port N      port to listen on (else EMULATOR_PORT, else 4000; 0 picks a free one)
 *   --host H      address to bind (default 127.0.0.1: the control plane has no authentication)
 *   --data FILE   keep the state in FILE (and FILE.journal) across restarts and crashes
 *   --seed        load the demo data set when the state is empty and print the demo people's keys
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator } from './index.js';

const USAGE = `Usage: npm run emulator -- [--port N] [--host ADDRESS] [--data FILE] [--seed]

  --port N       port to listen on (default: $EMULATOR_PORT or 4000; 0 picks a free port)
  --host ADDRESS address to bind (default 127.0.0.1; the control plane has no authentication)
  --data FILE    keep users, expenses, apps and keys in FILE (and FILE.journal) across
                 restarts and crashes
  --seed         load the demo data set if the state is empty, and print the demo people's API keys
  --help         show this help`;

interface CliOptions {
  port: number;
  host: string;
  dataFile?: string;
  seed: boolean;
}

function fail(message: string): never {
  console.error(`emulator: ${message}`);
  console.error('Run with --help for the options.');
  process.exit(2);
}

function parsePort(value: string, source: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    fail(`${source} must be a port number between 0 and 65535, got "${value}"`);
  }
  return Number(value);
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  let values: ReturnType<typeof parse>['values'];
  function parse() {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  }
  try {
    values = parse().values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port =
    values.port !== undefined
      ? parsePort(values.port, '--port')
      : env.EMULATOR_PORT !== undefined && env.EMULATOR_PORT !== ''
        ? parsePort(env.EMULATOR_PORT, 'EMULATOR_PORT')
        : 4000;
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') fail('--host must not be empty');
  if (values.data !== undefined && values.data.trim() === '') fail('--data needs a file name');
  return {
    port,
    host,
    seed: values.seed ?? false,
    ...(values.data !== undefined ? { dataFile: values.data } : {}),
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2), process.env);
  // "Empty" means no saved state: a data file that exists already holds the demo or real data.
  const seed = options.seed && !(options.dataFile && existsSync(options.dataFile));
  if (options.seed && !seed) {
    console.log(
      `State loaded from ${options.dataFile}; --seed applies only to an empty state. ` +
        'POST /__emulator/api_keys {"user_id": N} gives a fresh key for an existing person.',
    );
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      port: options.port,
      host: options.host,
      ...(options.dataFile ? { dataFile: options.dataFile } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') console.error(`emulator: port ${options.port} is already in use`);
    else console.error(`emulator: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  console.log(`Expense service emulator listening on ${emulator.url}`);
  console.log(`  API:           ${emulator.url}/api/v3.0/`);
  console.log(`  OAuth 2.0:     ${emulator.url}/oauth/authorize, ${emulator.url}/oauth/token`);
  console.log(`  Control plane: ${emulator.url}/__emulator/ (see docs/emulator.md)`);
  if (options.dataFile) console.log(`  Data file:     ${options.dataFile}`);
  if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1') {
    console.warn(
      `  Warning: bound to ${options.host}; anyone who can reach it can use the control plane.`,
    );
  }

  if (seed) {
    const response = await fetch(`${emulator.url}/__emulator/seed`, { method: 'POST' });
    const seeded = (await response.json()) as {
      users?: {
        user: { first_name: string; last_name: string | null; email: string };
        api_key: string;
      }[];
      errors?: unknown;
    };
    if (!response.ok || !seeded.users) {
      console.error(`emulator: seeding failed: ${JSON.stringify(seeded)}`);
    } else {
      console.log('Demo people (use an API key as "Authorization: Bearer <key>"):');
      for (const { user, api_key } of seeded.users) {
        const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
        console.log(`  ${name.padEnd(20)} ${user.email.padEnd(28)} ${api_key}`);
      }
    }
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down.`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('emulator: error while shutting down', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
