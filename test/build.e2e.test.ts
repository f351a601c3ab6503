/**
 * The app's bundled entry, which `npm start` and the image run (scripts/build.ts): built into a
 * scratch folder inside its package (so that packages resolve from node_modules), it starts and
 * reads the configuration like src/main.ts, it holds none of the stand-ins, and without the
 * sandbox's package beside it (as in the production image) it says what to do instead. Its text
 * is ASCII, written so that what it means does not change.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, escapeNonAscii } from '../scripts/build.js';

const root = resolve(import.meta.dirname, '..');
let out: string;
let alone: string;

beforeAll(async () => {
  out = mkdtempSync(join(root, 'packages', 'app', '.bundle-test-'));
  await buildPackage('app', out);
  // The bundle in a folder whose node_modules holds every installed package but ours.
  alone = mkdtempSync(join(tmpdir(), 'split-app-alone-'));
  const modules = join(alone, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@split' && name !== '.bin') {
      symlinkSync(join(root, 'node_modules', name), join(modules, name));
    }
  }
  // Copied, not linked: Node would resolve a link's imports from where it points.
  cpSync(out, join(alone, 'dist'), { recursive: true });
}, 60_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
  if (alone) rmSync(alone, { recursive: true, force: true });
});

function bundled(): string {
  const chunks = readdirSync(join(out, 'chunks')).filter((f) => f.endsWith('.js'));
  return [join(out, 'main.js'), ...chunks.map((f) => join(out, 'chunks', f))]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

function runMain(cwd: string, main: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [main], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('the bundled entry', () => {
  it('starts and lists every configuration problem in production, as src/main.ts does', () => {
    const run = runMain(out, join(out, 'main.js'), { NODE_ENV: 'production' });
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
  });

  it('without the sandbox installed beside it, says how to configure the app instead', () => {
    const run = runMain(alone, join(alone, 'dist', 'main.js'), {});
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no Slack app is configured, and the sandbox is not installed');
    expect(run.stderr).toContain('.env.example');
  });

  it('is ASCII, so that V8 keeps its source text at one byte a character', () => {
    const code = bundled();
    expect(code.match(/[^\0-\x7f]/g)).toBeNull();
    // The grammar's patterns are there, escaped: "12−" and "“...”" are still read.
    expect(code).toContain('\\u2212');
  });
});

describe('escapeNonAscii', () => {
  /** The value of a JavaScript expression. */
  const evaluate = (code: string): unknown => new Function(`return (${code});`)();

  it('writes every character outside ASCII as an escape', () => {
    expect(escapeNonAscii('/[−×]/ // “x”')).toBe('/[\\u2212\\u00D7]/ // \\u201Cx\\u201D');
  });

  it('leaves patterns matching what they matched', () => {
    const samples = ['−12', '+12', '2×', '“a”', '—', '\\—', 'a—b', '😀', 'x'];
    for (const pattern of [
      '/^[-+−]?\\d+$/',
      '/^\\d[x×]$/i',
      '/^["“]|["”]$/g',
      '/\\—/',
      '/\\\\—/',
      '/a—b/',
      '/^😀$/',
      '/^[😀]$/u',
      '/^\\p{Emoji}$/u',
    ]) {
      const before = evaluate(pattern) as RegExp;
      const after = evaluate(escapeNonAscii(pattern)) as RegExp;
      expect(escapeNonAscii(pattern)).toMatch(/^[\0-\x7f]*$/);
      for (const text of samples) {
        before.lastIndex = 0;
        after.lastIndex = 0;
        expect(after.test(text), `${pattern} on ${text}`).toBe(before.test(text));
      }
    }
  });

  it('leaves strings and templates the same text', () => {
    for (const literal of ['"a—b😀"', '`a—b`', "'\\—'"]) {
      expect(evaluate(escapeNonAscii(literal))).toBe(evaluate(literal));
    }
  });
});
