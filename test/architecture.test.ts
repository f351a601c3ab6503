/**
 * The layout's promises, checked on the real tree; then the checker itself, on small trees built
 * for each rule, so that every rule is shown to fail when it is broken.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckOptions,
  checkTree,
  findBlockKitLiterals,
  findEnvReads,
  findImports,
  findVoiceReads,
  maskSource,
  type Report,
} from '../scripts/architecture.js';

describe('the source tree', () => {
  let report: Report;
  beforeAll(() => {
    report = checkTree(process.cwd());
  });

  it('has no import cycles (type-only and dynamic imports included)', () => {
    expect(report.cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('has no source file over 500 lines (JSON data excepted)', () => {
    expect(report.oversized.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
  });

  it('keeps each folder to the imports its rule allows', () => {
    const found = report.violations.map((v) => `${v.from}:${v.line} -> ${v.to} (${v.why})`);
    expect(found).toEqual([]);
  });

  it('resolves every relative import to a file', () => {
    expect(report.unresolved.map((e) => `${e.from}:${e.line} -> ${e.to}`)).toEqual([]);
  });

  it('reads process.env only in the process entries', () => {
    expect(report.envReads.map(({ file, line }) => `${file}:${line}`)).toEqual([]);
  });

  it('writes Block Kit objects only in slack/kit/', () => {
    expect(report.blockKit.map(({ file, line, kind }) => `${file}:${line} ${kind}`)).toEqual([]);
  });

  it("has handlers take the acting person's voice from their request, but where listed", () => {
    expect(report.voiceReads.map(({ file, line, name }) => `${file}:${line} ${name}`)).toEqual([]);
  });

  it('keeps every folder of the app to 30 files', () => {
    expect(report.crowded.map(({ folder, files }) => `${folder}: ${files} files`)).toEqual([]);
  });

  it('declares in dependencies every package src/ loads at run time', () => {
    expect(report.undeclared.map((u) => `${u.file}:${u.line} ${u.name}`)).toEqual([]);
  });
});

describe('the import scanner', () => {
  it('finds static, type-only, re-exported, side-effect, dynamic and required imports', () => {
    const text = [
      "import a, { b, type C } from './a.js';",
      "import type { D } from './d.js';",
      'import {',
      '  e, // a comment between the names',
      '  f,',
      "} from './ef.js';",
      "export * as g from './g.js';",
      "export type { H } from './h.js';",
      "import './side-effect.js';",
      "const lazy = await import('./lazy.js');",
      "type T = typeof import('./typed.js');",
      "const pg = require('pg');",
      "import data from './data.json' with { type: 'json' };",
    ].join('\n');
    expect(
      findImports(text).map(({ specifier, line, typeOnly, kind }) => ({
        specifier,
        line,
        typeOnly,
        kind,
      })),
    ).toEqual([
      { specifier: './a.js', line: 1, typeOnly: false, kind: 'static' },
      { specifier: './d.js', line: 2, typeOnly: true, kind: 'static' },
      { specifier: './ef.js', line: 3, typeOnly: false, kind: 'static' },
      { specifier: './g.js', line: 7, typeOnly: false, kind: 'static' },
      { specifier: './h.js', line: 8, typeOnly: true, kind: 'static' },
      { specifier: './side-effect.js', line: 9, typeOnly: false, kind: 'static' },
      { specifier: './lazy.js', line: 10, typeOnly: false, kind: 'dynamic' },
      { specifier: './typed.js', line: 11, typeOnly: false, kind: 'dynamic' },
      { specifier: 'pg', line: 12, typeOnly: false, kind: 'require' },
      { specifier: './data.json', line: 13, typeOnly: false, kind: 'static' },
    ]);
  });

  it('ignores import-like text in comments, strings, templates and regular expressions', () => {
    const text = [
      "// import { x } from './comment.js';",
      "/* export * from './block.js'; */",
      'const s = "import { y } from \'./string.js\'";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      "const t = `import ${s} from './template.js' ${`nested import('./inner.js')`}`;",
      "const quote = /['\"]/; const half = 1 / 2; const q = '/';",
      "const u = 'it\\'s'; import { real } from './real.js';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
      "const obj = { a: `${{ b: 1 }.b}` }; export { z } from './after-braces.js';",
    ].join('\n');
    expect(findImports(text).map((i) => i.specifier)).toEqual(['./real.js', './after-braces.js']);
  });

  it('keeps every position and line break while masking', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    const text = "a('x\\'y');\n/* c\nd */ b(`t${1}u`); // e\n/re/g;";
    const masked = maskSource(text);
    expect(masked.length).toBe(text.length);
    expect(masked.split('\n').length).toBe(text.split('\n').length);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
    expect(masked).toBe("a('    ');\n    \n     b(` ${1} `);     \n/  /g;");
  });

  it('finds every spelling of a process.env read, and none in comments or strings', () => {
    const text = [
      'const a = process.env.PORT;',
      "const b = process['env'];",
      'const { env } = process;',
      "import { env as e } from 'node:process';",
      '// process.env in a comment',
      "const c = 'process.env in a string';",
      'const d = process.argv;',
    ].join('\n');
    expect(findEnvReads(text)).toEqual([1, 2, 3, 4]);
  });
});

describe('checkTree on a small tree', () => {
  let root: string;
  const trees: string[] = [];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'split-arch-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A package.json for `packages/<folder>` named `@split/<folder>`. */
  function manifest(
    folder: string,
    fields: {
      dependencies?: string[];
      devDependencies?: string[];
      exports?: Record<string, string>;
    } = {},
  ): Record<string, string> {
    const versions = (names: string[] = []) => Object.fromEntries(names.map((n) => [n, '1.0.0']));
    const exports = Object.fromEntries(
      Object.entries(fields.exports ?? { '.': './src/index.ts' }).map(([sub, file]) => [
        sub,
        { source: file, default: file.replace('./src/', './dist/').replace(/\.ts$/, '.js') },
      ]),
    );
    return {
      [`packages/${folder}/package.json`]: JSON.stringify({
        name: `@split/${folder}`,
        dependencies: versions(fields.dependencies),
        devDependencies: versions(fields.devDependencies),
        exports,
      }),
    };
  }

  async function check(files: Record<string, string>, options: CheckOptions = {}): Promise<Report> {
    const dir = join(root, String(trees.push('')));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return checkTree(dir, options);
  }

  it('reports each cycle as a path list, through type-only and dynamic imports', async () => {
    const report = await check({
      ...manifest('app'),
      'packages/app/src/a.ts': "import { b } from './b.js';\n",
      'packages/app/src/b.ts': "import type { C } from './c.js';\n",
      'packages/app/src/c.ts': "export const a = () => import('./a.js');\n",
      'packages/app/src/d.ts': "import { b } from './b.js';\n",
      'packages/app/src/self.ts': "export type { X } from './self.js';\n",
    });
    expect(report.cycles).toEqual([
      [
        'packages/app/src/a.ts',
        'packages/app/src/b.ts',
        'packages/app/src/c.ts',
        'packages/app/src/a.ts',
      ],
      ['packages/app/src/self.ts', 'packages/app/src/self.ts'],
    ]);
  });

  it('follows imports by package name into the exported file, cycles between packages too', async () => {
    const report = await check(
      {
        ...manifest('a', { dependencies: ['@split/b'] }),
        ...manifest('b', { dependencies: ['@split/a'] }),
        'packages/a/src/index.ts': "import '@split/b';\n",
        'packages/b/src/index.ts': "import '@split/a';\n",
      },
      { packageArrows: { '@split/a': ['@split/b'], '@split/b': ['@split/a'] } },
    );
    expect(report.cycles).toEqual([
      ['packages/a/src/index.ts', 'packages/b/src/index.ts', 'packages/a/src/index.ts'],
    ]);
  });

  it('reports no cycle in a tree whose arrows point one way', async () => {
    const report = await check({
      ...manifest('app'),
      'packages/app/src/a.ts': "import { b } from './b.js';\nimport { c } from './c.js';\n",
      'packages/app/src/b.ts': "import { c } from './c.js';\n",
      'packages/app/src/c.ts': 'export const c = 1;\n',
    });
    expect(report.cycles).toEqual([]);
  });

  it('reports files over 500 lines, JSON data excepted', async () => {
    const lines = (n: number) => 'export {};\n'.repeat(n);
    const report = await check({
      ...manifest('app'),
      'packages/app/src/long.ts': lines(501),
      'packages/app/src/limit.ts': lines(500),
      'packages/app/src/page.css': 'a {}\n'.repeat(501),
      'packages/app/src/data.json': `[\n${'1,\n'.repeat(600)}1\n]\n`,
    });
    expect(report.oversized).toEqual([
      { file: 'packages/app/src/long.ts', lines: 501 },
      { file: 'packages/app/src/page.css', lines: 501 },
    ]);
  });

  it('applies each folder rule inside the app, and lets the allowed imports through', async () => {
    const app = 'packages/app/src';
    const report = await check({
      ...manifest('app'),
      [`${app}/compose.ts`]: 'export {};\n',
      [`${app}/core/money.ts`]: 'export {};\n',
      [`${app}/core/split.ts`]: "import './money.js';\nimport '../store/keys.js';\n",
      [`${app}/store/keys.ts`]: "import '../slack/ids.js';\nimport '../compose.js';\n",
      [`${app}/service/client.ts`]:
        "import '../core/money.js';\nimport type { A } from '../compose.js';\n",
      [`${app}/accounts/link.ts`]: "import '../store/keys.js';\nimport '../slack/ids.js';\n",
      [`${app}/observe/log.ts`]: "import '../core/money.js';\n",
      [`${app}/slack/ids.ts`]: "import '../../test/support/harness.js';\n",
      'packages/app/test/support/harness.ts': 'export {};\n',
    });
    expect(report.violations.map((v) => `${v.from}:${v.line} -> ${v.to}`)).toEqual([
      `${app}/accounts/link.ts:2 -> ${app}/slack/ids.ts`,
      `${app}/core/split.ts:2 -> ${app}/store/keys.ts`,
      `${app}/observe/log.ts:1 -> ${app}/core/money.ts`,
      `${app}/service/client.ts:2 -> ${app}/compose.ts`,
      `${app}/slack/ids.ts:1 -> packages/app/test/support/harness.ts`,
      `${app}/store/keys.ts:1 -> ${app}/slack/ids.ts`,
      `${app}/store/keys.ts:2 -> ${app}/compose.ts`,
    ]);
  });

  it('keeps each feature folder from importing another, with shared/ open to all', async () => {
    const slack = 'packages/app/src/slack';
    const report = await check({
      ...manifest('app'),
      [`${slack}/shared/reply.ts`]: 'export {};\n',
      [`${slack}/deps.ts`]: 'export {};\n',
      [`${slack}/split/command.ts`]: "import '../shared/reply.js';\nimport '../deps.js';\n",
      [`${slack}/linking/after-link.ts`]: "import '../split/command.js';\n",
      [`${slack}/home/views.ts`]: "import type { X } from '../linking/after-link.js';\n",
    });
    expect(report.violations.map((v) => `${v.from}:${v.line} -> ${v.to}`)).toEqual([
      `${slack}/home/views.ts:1 -> ${slack}/linking/after-link.ts`,
      `${slack}/linking/after-link.ts:1 -> ${slack}/split/command.ts`,
    ]);
  });

  it('keeps the shared layers from importing a feature, and features to a layer’s index', async () => {
    const slack = 'packages/app/src/slack';
    const report = await check({
      ...manifest('app'),
      [`${slack}/booking/index.ts`]: "export * from './plan.js';\n",
      [`${slack}/booking/plan.ts`]: "import '../kit/blocks.js';\nimport '../split/command.js';\n",
      [`${slack}/kit/blocks.ts`]: 'export {};\n',
      [`${slack}/runtime/reply.ts`]: "import '../home/views.js';\n",
      [`${slack}/split/command.ts`]: "import '../booking/index.js';\nimport '../kit/blocks.js';\n",
      [`${slack}/home/views.ts`]: "import '../booking/plan.js';\n",
    });
    expect(report.violations.map((v) => `${v.from}:${v.line} -> ${v.to}`)).toEqual([
      `${slack}/booking/plan.ts:2 -> ${slack}/split/command.ts`,
      `${slack}/home/views.ts:1 -> ${slack}/booking/plan.ts`,
      `${slack}/runtime/reply.ts:1 -> ${slack}/home/views.ts`,
    ]);
  });

  it('finds Block Kit literals in code, not in comments or strings, and only outside the kit', async () => {
    const text = [
      "const a = { type: 'section', text };",
      '// { type: "button" } in a comment',
      'const s = "type: \'header\'";',
      'const b = { type: `plain_text`, text: t };',
      "const c = { type: 'json' };",
    ].join('\n');
    expect(findBlockKitLiterals(text)).toEqual([
      { line: 1, kind: 'section' },
      { line: 4, kind: 'plain_text' },
    ]);
    const slack = 'packages/app/src/slack';
    const report = await check({
      ...manifest('app'),
      [`${slack}/kit/blocks.ts`]: "export const s = { type: 'section' };\n",
      [`${slack}/home/views.ts`]: "export const b = { type: 'button' };\n",
    });
    expect(report.blockKit).toEqual([{ file: `${slack}/home/views.ts`, line: 1, kind: 'button' }]);
  });

  it('finds voices read under slack/ in code, outside the files allowed to', async () => {
    const text = [
      'export async function voiceOf(user) {',
      '  return voiceFor({ locale: user.locale });',
      '}',
      '// voiceOf(deps, user) in a comment',
      "const s = 'voiceFor({})';",
      'const v = await voiceOf (deps, user, logger);',
      'const w = await parts.voiceOf(user);',
    ].join('\n');
    expect(findVoiceReads(text)).toEqual([
      { line: 2, name: 'voiceFor' },
      { line: 6, name: 'voiceOf' },
    ]);
    const slack = 'packages/app/src/slack';
    const read = 'export const v = () => voiceOf(deps, user);\n';
    const report = await check(
      {
        ...manifest('app'),
        [`${slack}/shared/voice.ts`]: read,
        [`${slack}/home/opened.ts`]: read,
        'packages/app/src/compose.ts': read,
      },
      { voiceReaders: { [`${slack}/shared/voice.ts`]: 'where voices are read' } },
    );
    expect(report.voiceReads).toEqual([
      { file: `${slack}/home/opened.ts`, line: 1, name: 'voiceOf' },
    ]);
  });

  it('reports a folder of the app with more files than allowed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 4; i++) files[`packages/app/src/core/f${i}.ts`] = 'export {};\n';
    files['packages/app/src/store/a.ts'] = 'export {};\n';
    const report = await check({ ...manifest('app'), ...files }, { maxFolderFiles: 3 });
    expect(report.crowded).toEqual([{ folder: 'packages/app/src/core/', files: 4 }]);
  });

  it('lets packages reach each other only by name, and only where the arrows allow', async () => {
    const report = await check({
      ...manifest('app'),
      ...manifest('service-emulator', { dependencies: ['@split/app'] }),
      ...manifest('sandbox', {
        dependencies: ['@split/app', '@split/service-emulator'],
      }),
      'packages/app/src/index.ts': 'export {};\n',
      'packages/app/src/core/money.ts': 'export {};\n',
      'packages/service-emulator/src/index.ts': [
        "import '@split/app';",
        "import '../../app/src/core/money.js';",
      ].join('\n'),
      'packages/sandbox/src/index.ts': [
        "import '@split/app';",
        "import '@split/service-emulator';",
        "import '@split/service-emulator/ledger';",
      ].join('\n'),
    });
    expect(report.violations.map((v) => `${v.from}:${v.line} -> ${v.to}`)).toEqual([
      'packages/service-emulator/src/index.ts:1 -> packages/app/src/index.ts',
      'packages/service-emulator/src/index.ts:2 -> packages/app/src/core/money.ts',
    ]);
    // A subpath the package does not export is not a file anyone can import.
    expect(report.unresolved.map((e) => `${e.from}:${e.line} -> ${e.to}`)).toEqual([
      'packages/sandbox/src/index.ts:3 -> packages/service-emulator/./ledger',
    ]);
  });

  it('reports process.env read outside the process entries', async () => {
    const report = await check({
      ...manifest('app'),
      ...manifest('service-emulator'),
      'packages/app/src/main.ts': 'export const env = process.env;\n',
      'packages/service-emulator/src/cli.ts': 'export const port = process.env.EMULATOR_PORT;\n',
      'packages/app/src/store/keyv.ts':
        '// process.env is read by main.ts only\nconst url = process.env.X;\n',
    });
    expect(report.envReads).toEqual([{ file: 'packages/app/src/store/keyv.ts', line: 2 }]);
  });

  it("reports packages loaded at run time that the importing package's dependencies do not declare", async () => {
    const report = await check({
      ...manifest('app', { dependencies: ['zod', '@slack/bolt'], devDependencies: ['left-pad'] }),
      ...manifest('service-emulator', { dependencies: ['left-pad'] }),
      'packages/app/src/a.ts': [
        "import { readFile } from 'node:fs/promises';",
        "import { join } from 'path';",
        "import { z } from 'zod';",
        "import { App } from '@slack/bolt/dist/App.js';",
        "import type { Pool } from 'pg-types-only';",
        "import leftPad from 'left-pad';",
        "const pg = require('pg');",
        "import '@split/service-emulator';",
      ].join('\n'),
      'packages/service-emulator/src/index.ts': "import leftPad from 'left-pad';\n",
    });
    expect(report.undeclared.map((u) => `${u.file}:${u.line} ${u.name}`)).toEqual([
      'packages/app/src/a.ts:6 left-pad',
      'packages/app/src/a.ts:7 pg',
      'packages/app/src/a.ts:8 @split/service-emulator',
    ]);
  });

  it('lets code bundled for the browser use devDependencies, and nothing undeclared', async () => {
    const report = await check(
      {
        ...manifest('slack-workspace', { devDependencies: ['preact'] }),
        'packages/slack-workspace/src/page/main.tsx': [
          "import { render } from 'preact';",
          "import x from 'left-pad';",
        ].join('\n'),
        'packages/slack-workspace/src/server.ts': "import { render } from 'preact';",
      },
      { bundled: ['packages/slack-workspace/src/page/'] },
    );
    expect(report.undeclared.map((u) => `${u.file}:${u.line} ${u.name}`)).toEqual([
      'packages/slack-workspace/src/page/main.tsx:2 left-pad',
      'packages/slack-workspace/src/server.ts:1 preact',
    ]);
  });
});
