/**
 * The sandbox as a process: finds the built page and the manifest beside the code, starts the
 * sandbox and prints where to open it. main.ts hands in the settings it read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOG_LEVELS } from '@split/app';
import { BUILT_PAGE_DIR } from '@split/slack-workspace';
import { type RunningSandbox, startSandbox } from './sandbox.js';

export interface SandboxSettings {
  /** PORT as given: digits, 0 for a free port. */
  port: string;
  dataDir: string;
  fresh: boolean;
  logLevel: string | undefined;
}

/** The repository's root, where manifest.yml is: three levels above both src/ and dist/. */
const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export async function runSandbox(settings: SandboxSettings): Promise<RunningSandbox> {
  if (!/^\d+$/.test(settings.port) || Number(settings.port) > 65_535) {
    throw new Error('PORT must be a whole number from 0 to 65535');
  }
  const logLevel = LOG_LEVELS.find((level) => level === settings.logLevel) ?? 'warn';
  const pageDir = BUILT_PAGE_DIR;
  if (!existsSync(join(pageDir, 'index.html'))) {
    throw new Error('the page is not built: run npm run build (npm ci does it too)');
  }
  const sandbox = await startSandbox({
    port: Number(settings.port),
    dataDir: settings.dataDir,
    fresh: settings.fresh,
    pageDir,
    manifestYaml: readFileSync(join(repositoryRoot, 'manifest.yml'), 'utf8'),
    logLevel,
  });
  process.stdout.write(`Sandbox: ${sandbox.url}\nService emulator: ${sandbox.emulatorUrl}\n`);
  return sandbox;
}
