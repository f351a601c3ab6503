// Builds the packages' dist/ folders with esbuild: `tsx scripts/build.ts` builds all of them,
// `tsx scripts/build.ts app` one (what a package's own `npm run build` and the production image
// run). Type-checking is not done here but by `npm run typecheck`, over all packages at once.
//
// Each package's entries are bundled with their own modules inlined and every package left as an
// import. Node resolves and compiles each ES module file on its own, and with some two hundred of
// ours that was most of the time the app took to start beyond Bolt's own; one file per part loads
// in a fraction of it. A package's entries share chunks, so that the app that main.js starts and
// the one the sandbox imports through index.js are the same modules.
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each package's entry points (name in dist/ -> source file). */
export const ENTRIES: Record<string, Record<string, string>> = {
  app: { main: 'src/main.ts', index: 'src/index.ts' },
  'service-emulator': { cli: 'src/cli.ts', index: 'src/index.ts', testing: 'src/testing.ts' },
  'slack-workspace': { index: 'src/index.ts', requests: 'src/requests.ts' },
  sandbox: { index: 'src/index.ts' },
};

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
  if (name === 'slack-workspace') {
    const { buildPage } = await import('../packages/slack-workspace/scripts/build-page.js');
    await buildPage(join(out, 'page'));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(ENTRIES)) await buildPackage(name);
}
