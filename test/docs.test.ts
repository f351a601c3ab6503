/**
 * The documentation stays true to the tree: every relative link opens a file of the repository,
 * and no page promises a feature as missing ("not available yet") once it ships or tells a
 * reader to wait for one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => entry.endsWith('.md') && !/(^|[/\\])(node_modules|dist)[/\\]/.test(entry))
    .map((entry) => join(dir, entry));
}

const DOCS = [
  'README.md',
  ...markdownUnder('docs'),
  'bench/README.md',
  ...markdownUnder('packages'),
].filter((file) => existsSync(file));

/** Fenced blocks and inline code hold examples, not links; blanked so line numbers stay. */
function withoutCode(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

function relativeLinks(text: string): { target: string; line: number }[] {
  const prose = withoutCode(text);
  const links: { target: string; line: number }[] = [];
  const patterns = [
    // [text](target "title") and ![alt](target); the text may wrap onto the next line.
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g,
    // [label]: target
    /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm,
  ];
  for (const pattern of patterns) {
    for (const match of prose.matchAll(pattern)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const line = prose.slice(0, match.index + match[0].indexOf(target)).split('\n').length;
      links.push({ target, line });
    }
  }
  return links.sort((a, b) => a.line - b.line);
}

/** Links of `file` (a path under root) that open no file inside root. */
function brokenLinks(file: string, root = ROOT): string[] {
  const broken: string[] = [];
  for (const { target, line } of relativeLinks(readFileSync(join(root, file), 'utf8'))) {
    const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
    const full = resolve(root, dirname(file), path);
    const inside = !relative(root, full).startsWith(`..${sep}`);
    if (!inside || !existsSync(full)) broken.push(`${file}:${line} -> ${target}`);
  }
  return broken;
}

/** Line numbers where a page tells a reader a feature is missing for now (a wrap included). */
function waitingLines(text: string): number[] {
  return [...text.matchAll(/\bnot\s+(?:yet\s+available|available\s+yet)\b/gi)].map(
    (match) => text.slice(0, match.index).split('\n').length,
  );
}

describe('the documentation', () => {
  it('covers the README, docs/, bench/README.md and test/support/README.md', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS.filter((file) => file.startsWith(`docs${sep}`)).length).toBeGreaterThan(0);
    // The README links to the guides, so a scanner that finds nothing is broken, not the docs.
    expect(relativeLinks(readFileSync('README.md', 'utf8')).length).toBeGreaterThan(3);
  });

  it('links only to files that exist in the repository', () => {
    expect(DOCS.flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it('says of no feature that it is not available yet', () => {
    const found = DOCS.flatMap((file) =>
      waitingLines(readFileSync(file, 'utf8')).map((line) => `${file}:${line}`),
    );
    expect(found).toEqual([]);
  });
});

describe('relativeLinks', () => {
  it('finds inline, image and reference links, not URLs, anchors or code', () => {
    const text = [
      'See [the guide](docs/guide.md#setup) and [a wrapped',
      'link](../other.md "Title").',
      '![diagram](img/flow.png) [site](https://example.com) [top](#top) [mail](mailto:a@b.c)',
      '`[inline](not-a-link.md)`',
      '```md',
      '[fenced](not-a-link-either.md)',
      '```',
      '[ref]: ./reference.md',
    ].join('\n');
    expect(relativeLinks(text)).toEqual([
      { target: 'docs/guide.md#setup', line: 1 },
      { target: '../other.md', line: 2 },
      { target: 'img/flow.png', line: 3 },
      { target: './reference.md', line: 8 },
    ]);
  });
});

describe('brokenLinks and waitingLines', () => {
  let parent: string;
  let root: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'split-docs-'));
    root = join(parent, 'repo');
    await mkdir(join(root, 'docs'), { recursive: true });
    await writeFile(join(root, 'docs', 'there.md'), '# There\n');
    await writeFile(join(root, 'top.md'), '# Top\n');
    await writeFile(join(parent, 'outside.md'), '# Not in the repository\n');
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('reports links to missing files and to files outside the repository', async () => {
    const text = [
      '[ok](there.md#anchor) [up](../top.md) [gone](missing.md)',
      '[outside](../../outside.md) [escaped](my%20notes.md)',
    ].join('\n');
    const page = join('docs', 'page.md');
    await writeFile(join(root, page), text);
    expect(brokenLinks(page, root)).toEqual([
      `${page}:1 -> missing.md`,
      `${page}:2 -> ../../outside.md`,
      `${page}:2 -> my%20notes.md`,
    ]);
    await writeFile(join(root, 'docs', 'my notes.md'), '# Notes\n');
    expect(brokenLinks(page, root)).toEqual([
      `${page}:1 -> missing.md`,
      `${page}:2 -> ../../outside.md`,
    ]);
  });

  it('finds "not available yet" in any case and word order', () => {
    const text = 'Works now.\nThis is Not Available Yet.\nnot yet available\nnot available here\n';
    expect(waitingLines(`${text}wrapped and not available\nyet`)).toEqual([2, 3, 5]);
  });
});

/** Every folder under `dir`, as a path relative to it with a trailing slash (`slack/split/`). */
function foldersUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')}/`)
    .sort();
}

/** The folders a page never names by their path (`slack/split/`, in the tree or in the prose). */
function unnamedFolders(folders: readonly string[], page: string): string[] {
  const named = new Set(page.match(/[\w./-]+\//g) ?? []);
  return folders.filter((folder) => !named.has(folder));
}

describe("docs/architecture.md and the app's folders", () => {
  it('names every folder of packages/app/src by its path', () => {
    const page = readFileSync('docs/architecture.md', 'utf8');
    const folders = foldersUnder('packages/app/src');
    expect(folders).toContain('slack/booking/');
    expect(unnamedFolders(folders, page)).toEqual([]);
  });

  it('reports a folder the page does not name, and a name that is only a prefix of it', () => {
    const page = 'core/            the domain\n`slack/split/` the command\nslack/ Bolt';
    expect(unnamedFolders(['core/', 'slack/', 'slack/split/', 'slack/kit/', 'kit/'], page)).toEqual(
      ['slack/kit/', 'kit/'],
    );
  });
});
