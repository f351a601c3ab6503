// Builds the sandbox page (src/page of this package) into a directory the workspace server serves:
// index.html, assets/app.js and assets/app.css. Everything is bundled, so the page needs no
// network at run time.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = join(here, '..', 'src', 'page');

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Split sandbox</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/assets/app.css" />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/assets/app.js"></script>
  </body>
</html>
`;

export async function buildPage(outDir: string): Promise<void> {
  const assets = join(outDir, 'assets');
  await mkdir(assets, { recursive: true });
  const result = await build({
    entryPoints: { app: join(pageDir, 'main.tsx') },
    outdir: assets,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(pageDir, 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  if (result.errors.length) {
    throw new Error(`page build failed: ${result.errors.map((e) => e.text).join('; ')}`);
  }
  await writeFile(join(outDir, 'index.html'), INDEX);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: tsx scripts/build-page.ts <out-dir>');
    process.exit(2);
  }
  await buildPage(resolve(outDir));
}
