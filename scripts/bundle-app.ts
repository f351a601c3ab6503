// Bundles the app's own modules into dist/main.js and a few chunks beside it, over what tsc
// emitted. Node resolves and compiles each ES module file on its own, and with some two hundred
// of ours that was most of the time the app took to start beyond what Bolt itself takes; one file
// per part loads in a fraction of it. Packages stay in node_modules (imported, not bundled), the
// app is a chunk loaded only when it starts, and the sandbox stays out of the bundle: main.js
// imports tsc's dist/sandbox/run.js as before, so a production image can leave it out.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function bundleApp(outDir: string): Promise<void> {
  const result = await build({
    entryPoints: { main: join(root, 'src', 'main.ts') },
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    packages: 'external',
    external: ['./sandbox/run.js'],
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.build.json'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  if (result.errors.length) {
    throw new Error(`app bundle failed: ${result.errors.map((e) => e.text).join('; ')}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: tsx scripts/bundle-app.ts <out-dir>');
    process.exit(2);
  }
  await bundleApp(resolve(outDir));
}
