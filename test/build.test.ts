/**
 * The bundled entry that `npm start` and the image run (scripts/bundle-app.ts): built into a
 * scratch folder inside the checkout (so that packages resolve from node_modules), it starts and
 * reads the configuration like src/main.ts, and it leaves the sandbox, the emulator and the
 * simulated workspace out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp } from '../scripts/bundle-app.js';

const root = resolve(import.meta.dirname, '..');
let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(root, '.bundle-test-'));
  await bundleApp(out);
}, 60_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

function bundled(): string {
  const chunks = readdirSync(join(out, 'chunks')).filter((f) => f.endsWith('.js'));
  return [join(out, 'main.js'), ...chunks.map((f) => join(out, 'chunks', f))]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

describe('the bundled entry', () => {
  it('starts and lists every configuration problem in production, as src/main.ts does', () => {
    const run = spawnSync(process.execPath, [join(out, 'main.js')], {
      cwd: out,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Split cannot start: the configuration has \d+ problem\(s\):/);
    expect(run.stderr).toContain('SLACK_SIGNING_SECRET is not set');
  });

  it('holds the app and none of the sandbox, the emulator or the simulated workspace', () => {
    const code = bundled();
    expect(code).toContain('function startApp(');
    for (const name of ['startSandbox', 'startEmulator', 'startWorkspace']) {
      expect(code, name).not.toContain(`function ${name}(`);
    }
    // The sandbox is loaded from tsc's output beside the bundle, and only when asked for.
    expect(readFileSync(join(out, 'main.js'), 'utf8')).toContain('import("./sandbox/run.js")');
  });
});
