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
  findEnvReads,
  findImports,
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

  async function check(
    files: Record<string, string>,
    options: CheckOptions = { dependencies: [], devDependencies: [] },
  ): Promise<Report> {
    const dir = join(root, String(trees.push('')));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return checkTree(dir, options);
  }

  it('reports each cycle as a path list, through type-only and dynamic imports', async () => {
    const report = await check({
      'src/a.ts': "import { b } from './b.js';\n",
      'src/b.ts': "import type { C } from './c.js';\n",
      'src/c.ts': "export const a = () => import('./a.js');\n",
      'src/d.ts': "import { b } from './b.js';\n",
      'src/self.ts': "export type { X } from './self.js';\n",
    });
    expect(report.cycles).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts'],
      ['src/self.ts', 'src/self.ts'],
    ]);
  });

  it('reports no cycle in a tree whose arrows point one way', async () => {
    const report = await check({
      'src/a.ts': "import { b } from './b.js';\nimport { c } from './c.js';\n",
      'src/b.ts': "import { c } from './c.js';\n",
      'src/c.ts': 'export const c = 1;\n',
    });
    expect(report.cycles).toEqual([]);
  });

  it('reports files over 500 lines, JSON data excepted', async () => {
    const lines = (n: number) => 'export {};\n'.repeat(n);
    const report = await check({
      'src/long.ts': lines(501),
      'src/limit.ts': lines(500),
      'src/page.css': 'a {}\n'.repeat(501),
      'src/data.json': `[\n${'1,\n'.repeat(600)}1\n]\n`,
    });
    expect(report.oversized).toEqual([
      { file: 'src/long.ts', lines: 501 },
      { file: 'src/page.css', lines: 501 },
    ]);
  });

  it('applies each folder rule, and lets the allowed imports through', async () => {
    const report = await check({
      'src/app.ts': 'export {};\n',
      'src/config.ts': 'export {};\n',
      'src/core/money.ts': 'export {};\n',
      'src/core/split.ts': "import './money.js';\nimport '../store/keys.js';\n",
      'src/store/keys.ts': "import '../slack/ids.js';\nimport '../app.js';\n",
      'src/service/client.ts': "import '../core/money.js';\nimport type { A } from '../app.js';\n",
      'src/accounts/link.ts': "import '../store/keys.js';\nimport '../slack/ids.js';\n",
      'src/slack/ids.ts': "import '../../test/support/harness.js';\nimport '../../bench/run.js';\n",
      'src/emulator/index.ts': "import '../core/money.js';\nimport '../core/split.js';\n",
      'src/workspace/index.ts': "import '../core/money.js';\nimport '../config.js';\n",
      'src/sandbox/start.ts': [
        "import '../app.js';",
        "import '../config.js';",
        "import '../emulator/index.js';",
        "import '../workspace/index.js';",
        "import '../slack/ids.js';",
        "import '../emulator/ledger.js';",
      ].join('\n'),
      'test/support/harness.ts': 'export {};\n',
      'bench/run.ts': 'export {};\n',
    });
    expect(report.violations.map((v) => `${v.from}:${v.line} -> ${v.to}`)).toEqual([
      'src/accounts/link.ts:2 -> src/slack/ids.ts',
      'src/core/split.ts:2 -> src/store/keys.ts',
      'src/emulator/index.ts:2 -> src/core/split.ts',
      'src/sandbox/start.ts:5 -> src/slack/ids.ts',
      'src/sandbox/start.ts:6 -> src/emulator/ledger.ts',
      'src/service/client.ts:2 -> src/app.ts',
      'src/slack/ids.ts:1 -> test/support/harness.ts',
      'src/slack/ids.ts:2 -> bench/run.ts',
      'src/store/keys.ts:1 -> src/slack/ids.ts',
      'src/store/keys.ts:2 -> src/app.ts',
      'src/workspace/index.ts:2 -> src/config.ts',
    ]);
    // The missing import is reported as well as the rule it breaks.
    expect(report.unresolved.map((e) => e.to)).toEqual(['src/emulator/ledger.ts']);
  });

  it('reports process.env read outside the process entries', async () => {
    const report = await check({
      'src/main.ts': 'export const env = process.env;\n',
      'src/emulator/cli.ts': 'export const port = process.env.EMULATOR_PORT;\n',
      'src/store/keyv.ts': '// process.env is read by main.ts only\nconst url = process.env.X;\n',
    });
    expect(report.envReads).toEqual([{ file: 'src/store/keyv.ts', line: 2 }]);
  });

  it('reports packages loaded at run time that dependencies do not declare', async () => {
    const report = await check(
      {
        'src/a.ts': [
          "import { readFile } from 'node:fs/promises';",
          "import { join } from 'path';",
          "import { z } from 'zod';",
          "import { App } from '@slack/bolt/dist/App.js';",
          "import type { Pool } from 'pg-types-only';",
          "import leftPad from 'left-pad';",
          "const pg = require('pg');",
        ].join('\n'),
      },
      { dependencies: ['zod', '@slack/bolt'], devDependencies: ['left-pad'] },
    );
    expect(report.undeclared.map((u) => `${u.line} ${u.name}`)).toEqual(['6 left-pad', '7 pg']);
  });

  it('lets code bundled for the browser use devDependencies, and nothing undeclared', async () => {
    const report = await check(
      {
        'src/page/main.tsx': ["import { render } from 'preact';", "import x from 'left-pad';"].join(
          '\n',
        ),
        'src/server.ts': "import { render } from 'preact';",
      },
      { dependencies: [], devDependencies: ['preact'], bundled: ['src/page/'] },
    );
    expect(report.undeclared.map((u) => `${u.file}:${u.line} ${u.name}`)).toEqual([
      'src/page/main.tsx:2 left-pad',
      'src/server.ts:1 preact',
    ]);
  });
});
