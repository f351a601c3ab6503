// Builds the packages' dist/ folders with esbuild: `tsx scripts/build.ts` builds all of them,
// `tsx scripts/build.ts app` one (what a package's own `npm run build` and the production image
// run). Type-checking is not done here but by `npm run typecheck`, over all packages at once.
//
// Each package's entries are bundled with their own modules inlined and every package left as an
// import. Node resolves and compiles each ES module file on its own, and with some two hundred of
// ours that was most of the time the app took to start beyond Bolt's own; one file per part loads
// in a fraction of it. A package's entries share chunks, so that the app that main.js starts and
// the one the sandbox imports through index.js are the same modules.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each package's entry points (name in dist/ -> source file). */
export const ENTRIES: Record<string, Record<string, string>> = {
  // The receipt reader is a file of its own: its child process starts from a script, by path.
  app: { main: 'src/main.ts', index: 'src/index.ts', 'receipts-worker': 'src/receipts/worker.ts' },
  'service-emulator': { cli: 'src/cli.ts', index: 'src/index.ts', testing: 'src/testing.ts' },
  'slack-workspace': { index: 'src/index.ts', requests: 'src/requests.ts' },
  sandbox: { index: 'src/index.ts' },
};

/**
 * Every character outside ASCII in built JavaScript, written as a \u escape. V8 keeps each
 * module's source text for as long as the process runs, at one byte a character only if every
 * character fits in one; esbuild escapes strings and identifiers but leaves regular expression
 * literals as written, and the few "−" and "“" of the /split grammar's patterns made the app's
 * 575 kB chunk a 1.15 MB string in the heap. An escape matches the same text in a pattern (with
 * or without the u flag, a surrogate pair included) and means nothing in a comment; it changes a
 * pattern's `source`, and the raw text of a tagged template, which nothing here reads.
 */
export function escapeNonAscii(code: string): string {
  // A character already escaped by a backslash ("\—" in a pattern) loses that backslash: the
  // \u escape stands for it alone.
  return code.replace(/(\\*)([^\0-\x7f])/g, (_, slashes: string, c: string) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

async function asciiOnly(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = join(entry.parentPath, entry.name);
    const code = await readFile(file, 'utf8');
    if (/[^\0-\x7f]/.test(code)) await writeFile(file, escapeNonAscii(code));
  }
}

export async function buildPackage(name: string, outDir?: string): Promise<void> {
  const entries = ENTRIES[name];
  if (!entries) throw new Error(`no package named ${name}: ${Object.keys(ENTRIES).join(', ')}`);
  const dir = join(root, 'packages', name);
  const out = outDir ?? join(dir, 'dist');
  await rm(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([entry, file]) => [entry, join(dir, file)]),
    ),
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    packages: 'external',
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  if (result.errors.length) {
    throw new Error(`${name} failed to build: ${result.errors.map((e) => e.text).join('; ')}`);
  }
  await asciiOnly(out);
  if (name === 'slack-workspace') {
    const { buildPage } = await import('../packages/slack-workspace/scripts/build-page.js');
    await buildPage(join(out, 'page'));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(ENTRIES)) await buildPackage(name);
}
