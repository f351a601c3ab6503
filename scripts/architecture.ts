/**
 * The layout's promises, checked from the source text: import cycles, file sizes, which folder may
 * import which, where process.env is read, and which packages src/ loads.
 *
 * A small scanner of our own instead of the TypeScript compiler API: blanking comments and the
 * contents of strings, template literals and regular expressions first leaves only real code, where
 * import statements are regular enough to match, and it runs over the whole tree in milliseconds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { posix } from 'node:path';

/** A folder ('packages/app/src/core/', with the slash) or one file ('packages/app/src/compose.ts'). */
export type PathPattern = string;

export interface ImportRule {
  /** The files the rule governs. */
  files: PathPattern;
  /** When given, the only repository files they may import. */
  mayImport?: PathPattern[];
  /** Repository files they must never import. */
  mustNotImport?: PathPattern[];
  why: string;
}

const APP = 'packages/app/src/';

/** Direct imports only, by path inside a package; a folder not named here may import anything. */
export const RULES: ImportRule[] = [
  {
    files: `${APP}core/`,
    mayImport: [`${APP}core/`],
    why: 'the domain is pure and imports nothing of ours',
  },
  {
    files: `${APP}voice/`,
    mayImport: [`${APP}voice/`, `${APP}core/money.ts`, `${APP}core/lru.ts`],
    why: 'words and formats depend on no surface, so every part writes them the same way',
  },
  {
    files: `${APP}observe/`,
    mayImport: [`${APP}observe/`],
    why: 'logs and metrics import nothing of ours, so that any part can be observed',
  },
  {
    files: `${APP}receipts/`,
    mayImport: [`${APP}receipts/`, `${APP}core/`],
    why: 'the receipt engine is a leaf: it reads images and imports only the pure domain',
  },
  ...['store/', 'service/', 'accounts/'].map((folder) => ({
    files: `${APP}${folder}`,
    mustNotImport: [`${APP}slack/`, `${APP}compose.ts`],
    why: 'arrows point from Slack to the parts it uses, never back',
  })),
];

/**
 * Which of our packages each package may import, by name. The stand-ins import none of the app, so
 * that they test it instead of agreeing with it; the app imports none of them (it finds the
 * sandbox at run time, by name, when it is installed beside it).
 */
export const PACKAGE_ARROWS: Record<string, string[]> = {
  '@split/app': [],
  '@split/service-emulator': [],
  '@split/slack-workspace': [],
  '@split/sandbox': ['@split/app', '@split/service-emulator', '@split/slack-workspace'],
};

/**
 * The folders under slack/ that every feature may use and that use no feature: the one booking
 * path, the Block Kit primitives, the runtime (durable work, the queue, replies), and what is left
 * shared.
 */
export const SLACK_LAYERS = ['booking', 'kit', 'runtime', 'shared'];

/** The folders of the features a person uses, each of which imports no other. */
export function featureRules(root: string): ImportRule[] {
  const slack = posix.join(root, APP, 'slack');
  if (!existsSync(slack)) return [];
  const features = readdirSync(slack, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SLACK_LAYERS.includes(entry.name))
    .map((entry) => `${APP}slack/${entry.name}/`)
    .sort();
  // A layer with an index.ts is reached through it alone: what it keeps inside may change.
  const insides = SLACK_LAYERS.flatMap((layer) => {
    const dir = posix.join(slack, layer);
    if (!existsSync(posix.join(dir, 'index.ts'))) return [];
    return readdirSync(dir)
      .filter((name) => name !== 'index.ts')
      .map((name) => `${APP}slack/${layer}/${name}${name.includes('.') ? '' : '/'}`);
  });
  return [
    ...features.map((files) => ({
      files,
      mustNotImport: features.filter((other) => other !== files),
      why: 'a feature folder can be read, changed or removed without opening another feature',
    })),
    ...features.map((files) => ({
      files,
      mustNotImport: insides,
      why: 'a feature reaches a shared layer with an index (slack/booking/) through the index',
    })),
    ...SLACK_LAYERS.map((layer) => ({
      files: `${APP}slack/${layer}/`,
      mustNotImport: features,
      why: 'what features share points down to the parts they use, never back at a feature',
    })),
  ];
}

/** Process entries: the only files that may read process.env and hand it down. */
export const ENV_READERS: PathPattern[] = [`${APP}main.ts`, 'packages/service-emulator/src/cli.ts'];

export const MAX_LINES = 500;

/** The most files one folder of the app holds, so that a folder stays one job a reader can hold. */
export const MAX_FOLDER_FILES = 30;

/**
 * Where Block Kit objects are written: the kit's constructors, one per kind, so that a limit or a
 * rule of Slack's is kept in one place.
 */
export const BLOCK_KIT_HOME: PathPattern = `${APP}slack/kit/`;

/** The `type` of every Block Kit view, block, element and text object the app could write. */
export const BLOCK_KIT_TYPES = [
  'modal',
  'home',
  'section',
  'context',
  'header',
  'divider',
  'actions',
  'input',
  'image',
  'rich_text',
  'video',
  'file',
  'button',
  'overflow',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'radio_buttons',
  'checkboxes',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'file_input',
  'mrkdwn',
  'plain_text',
];

const BLOCK_KIT_LITERAL = new RegExp(
  `\\btype\\s*:\\s*(['"\`])(${BLOCK_KIT_TYPES.join('|')})\\1`,
  'g',
);

/** Lines of `text` that write a Block Kit object's type as a literal (`type: 'section'`). */
export function findBlockKitLiterals(text: string): { line: number; kind: string }[] {
  const masked = maskSource(text);
  const found: { line: number; kind: string }[] = [];
  for (const match of text.matchAll(BLOCK_KIT_LITERAL)) {
    // Code only: in a comment or a string the masked text is blank where `type` stands.
    if (masked.slice(match.index, match.index + 4) !== 'type') continue;
    found.push({ line: lineAt(text, match.index), kind: match[2]! });
  }
  return found;
}

/**
 * The files under slack/ that may read a person's voice themselves (`voiceOf`, `voiceFor`), each
 * with the reason. Every other handler takes the voice of whoever acted from its request's
 * context (`voiceIn`), read once per request; a voice for someone else is `otherPersonVoice`, one
 * a form or a job carries is `carriedVoice` (docs/architecture.md, "How a handler gets its
 * voice").
 */
export const VOICE_READERS: Record<PathPattern, string> = {
  [`${APP}slack/shared/voice.ts`]: 'where voices are read: the middleware and the named ways',
  [`${APP}slack/split/ack.ts`]:
    'the /split ack never waits on Slack (the cached profile only); its job has no Bolt context',
  [`${APP}slack/split/run.ts`]: "the /split context's voice, from the profile its parse reads",
  [`${APP}slack/shared/breakdown.ts`]: "measures the lines of every language: nobody's voice",
  [`${APP}slack/install/pages.ts`]: 'a browser page: the language the browser asks for',
  [`${APP}slack/digest/runner.ts`]: "the scheduled DM: its reader's Slack settings, read afresh",
  [`${APP}slack/balances/paid-command.ts`]:
    "the payment's name in the payer's words: another person, from the cached profile only",
  [`${APP}slack/balances/settle-part-job.ts`]: 'a durable job: the person its payload names',
  [`${APP}slack/balances/for-step.ts`]: "a workflow step's balances (a durable job's person)",
  [`${APP}slack/workflows/book-step.ts`]: 'a durable job: the payer its step names',
  [`${APP}slack/workflows/balances-step.ts`]: 'a durable job: the person its step names',
  [`${APP}slack/linking/after-link.ts`]: 'the OAuth callback: a browser request, no Bolt context',
};

/** Where the files under this folder read a voice themselves, but for VOICE_READERS. */
export const VOICE_CHECKED: PathPattern = `${APP}slack/`;

/** Calls of the two functions that read a voice, not their definitions. */
const VOICE_READ = /(?<![\w$.])(?<!function\s+)(voiceOf|voiceFor)\s*\(/g;

/** Lines of `text` whose code calls `voiceOf` or `voiceFor` (comments and strings aside). */
export function findVoiceReads(text: string): { line: number; name: string }[] {
  const masked = maskSource(text);
  return Array.from(masked.matchAll(VOICE_READ), (match) => ({
    line: lineAt(text, match.index),
    name: match[1]!,
  }));
}

/**
 * Code bundled for the browser at build time (the workspace's build-page script): what it imports
 * is inlined into the bundle, so it may come from devDependencies.
 */
export const BUNDLED: PathPattern[] = ['packages/slack-workspace/src/page/'];

const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|css|html)$/;
const CODE_FILE = /\.(ts|tsx|mts|cts)$/;

export interface FoundImport {
  specifier: string;
  line: number;
  /** `import type` / `export type`: erased from the JavaScript. */
  typeOnly: boolean;
  kind: 'static' | 'dynamic' | 'require';
  /** The names between `import` and `from`, for `import { env } from 'node:process'`. */
  clause: string;
}

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * The text with comments, and the contents of string literals, template literals (not their
 * `${}` code) and regular expression literals, replaced by spaces. Quotes and line breaks stay, so
 * positions and line numbers match the original.
 */
export function maskSource(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  // One entry per open `${`: the brace depth of the code around it.
  const templates: number[] = [];
  let depth = 0;
  let previous = '';
  let i = 0;

  const scanTemplate = (start: number): number => {
    let k = start;
    while (k < text.length) {
      if (text[k] === '\\') {
        k += 2;
      } else if (text[k] === '`') {
        blank(start, k);
        return k + 1;
      } else if (text[k] === '$' && text[k + 1] === '{') {
        blank(start, k);
        templates.push(depth);
        depth = 0;
        return k + 2;
      } else {
        k++;
      }
    }
    blank(start, text.length);
    return text.length;
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
      previous = 'literal';
    } else if (c === '`') {
      i = scanTemplate(i + 1);
      previous = 'literal';
    } else if (c === '}' && depth === 0 && templates.length > 0) {
      depth = templates.pop()!;
      i = scanTemplate(i + 1);
      previous = 'literal';
    } else if (c === '/') {
      const regexAllowed =
        previous === '' ||
        KEYWORDS_BEFORE_EXPRESSION.has(previous) ||
        (previous.length === 1 && '(,=:[!&|?{};+-*%<>~^'.includes(previous));
      let end = -1;
      if (regexAllowed) {
        let inClass = false;
        for (let k = i + 1; k < text.length && text[k] !== '\n'; k++) {
          if (text[k] === '\\') k++;
          else if (text[k] === '[') inClass = true;
          else if (text[k] === ']') inClass = false;
          else if (text[k] === '/' && !inClass) {
            end = k;
            break;
          }
        }
      }
      if (end === -1) {
        previous = '/';
        i++;
      } else {
        blank(i + 1, end);
        i = end + 1;
        previous = 'literal';
      }
    } else if (/[A-Za-z_$]/.test(c)) {
      const word = /^[\w$]+/.exec(text.slice(i, i + 100))![0];
      previous = word;
      i += word.length;
    } else if (/[0-9]/.test(c)) {
      i += /^[\w.]+/.exec(text.slice(i, i + 100))![0].length;
      previous = 'literal';
    } else {
      if (c === '{') depth++;
      if (c === '}') depth--;
      if (!/\s/.test(c)) previous = c;
      i++;
    }
  }
  return out.join('');
}

const NOT_AFTER = '(?<![\\w$.])';
const PATTERNS: { kind: FoundImport['kind']; pattern: RegExp }[] = [
  {
    kind: 'static',
    pattern: new RegExp(
      `${NOT_AFTER}(import|export)(\\s+type\\b)?([\\w$\\s,{}*]*?)\\bfrom\\s*(['"])([^'"\\n]*)\\4`,
      'dg',
    ),
  },
  // `import './side-effect.js'`: no clause, no from.
  { kind: 'static', pattern: new RegExp(`${NOT_AFTER}(import)()()\\s*(['"])([^'"\\n]*)\\4`, 'dg') },
  {
    kind: 'dynamic',
    pattern: new RegExp(`${NOT_AFTER}(import)()()\\s*\\(\\s*(['"])([^'"\\n]*)\\4\\s*[,)]`, 'dg'),
  },
  {
    kind: 'require',
    pattern: new RegExp(`${NOT_AFTER}(require)()()\\s*\\(\\s*(['"])([^'"\\n]*)\\4\\s*\\)`, 'dg'),
  },
];

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let k = 0; k < index; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}

/** Every import, re-export, dynamic import() and require() with a literal specifier. */
export function findImports(text: string): FoundImport[] {
  const masked = maskSource(text);
  const found: FoundImport[] = [];
  for (const { kind, pattern } of PATTERNS) {
    for (const match of masked.matchAll(pattern)) {
      // The specifier is blank in the masked text; its characters are read from the original.
      const [start, end] = match.indices![5]!;
      found.push({
        specifier: text.slice(start, end),
        line: lineAt(text, match.index),
        typeOnly: match[2] !== undefined && match[2] !== '',
        kind,
        clause: match[3] ?? '',
      });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** Lines reading process.env, however it is spelled. */
export function findEnvReads(text: string): number[] {
  const masked = maskSource(text);
  const lines = new Set<number>();
  for (const match of masked.matchAll(/\bprocess\s*(\.\s*env\b|\[\s*['"`])/g)) {
    const quoted = match[1]!.startsWith('[');
    const name = quoted ? /^[^'"`]*/.exec(text.slice(match.index + match[0].length))![0] : 'env';
    if (name === 'env') lines.add(lineAt(text, match.index));
  }
  for (const match of masked.matchAll(/\{[^{}]*\benv\b[^{}]*\}\s*=\s*process\b/g)) {
    lines.add(lineAt(text, match.index));
  }
  for (const imported of findImports(text)) {
    const fromProcess = imported.specifier === 'process' || imported.specifier === 'node:process';
    if (fromProcess && /\benv\b/.test(imported.clause)) lines.add(imported.line);
  }
  return [...lines].sort((a, b) => a - b);
}

/** The repository file a relative specifier names, as NodeNext resolves `.js` to `.ts`. */
export function resolveSpecifier(
  from: string,
  specifier: string,
  exists: (path: string) => boolean,
): { path: string; found: boolean } {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [base];
  const js = /\.(m|c)?js(x?)$/.exec(base);
  if (js) {
    const stem = base.slice(0, js.index);
    const m = js[1] ?? '';
    candidates.unshift(
      `${stem}.${m}ts${js[2]}`,
      ...(js[2] === '' && m === '' ? [`${stem}.tsx`] : []),
    );
  }
  const path = candidates.find(exists);
  return path === undefined ? { path: candidates[0]!, found: false } : { path, found: true };
}

export function matches(path: string, pattern: PathPattern): boolean {
  return pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern;
}

/** `@scope/name/sub` -> `@scope/name`; undefined for Node's own modules. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export interface Edge {
  from: string;
  to: string;
  line: number;
}

export interface Report {
  /** Each a path list that starts and ends with the same file. */
  cycles: string[][];
  oversized: { file: string; lines: number }[];
  violations: (Edge & { why: string })[];
  unresolved: Edge[];
  envReads: { file: string; line: number }[];
  /** Packages loaded at run time but not in the importing package's dependencies. */
  undeclared: { file: string; line: number; name: string }[];
  /** Block Kit objects written outside slack/kit/. */
  blockKit: { file: string; line: number; kind: string }[];
  /** Folders of the app with more files than MAX_FOLDER_FILES. */
  crowded: { folder: string; files: number }[];
  /** Voices read under slack/ outside VOICE_READERS, where the request's should be taken. */
  voiceReads: { file: string; line: number; name: string }[];
}

export interface CheckOptions {
  /** Defaults to RULES and the feature folders' rules. */
  rules?: ImportRule[];
  packageArrows?: Record<string, string[]>;
  envReaders?: PathPattern[];
  maxLines?: number;
  /** Folders bundled for the browser; defaults to BUNDLED. */
  bundled?: PathPattern[];
  maxFolderFiles?: number;
  /** Defaults to VOICE_READERS. */
  voiceReaders?: Record<PathPattern, string>;
}

function listFiles(root: string, dir: string): string[] {
  const full = posix.join(root, dir);
  if (!existsSync(full)) return [];
  return (readdirSync(full, { recursive: true }) as string[])
    .map((entry) => posix.join(dir, entry.split('\\').join('/')))
    .filter((path) => !path.includes('/node_modules/') && statSync(posix.join(root, path)).isFile())
    .sort();
}

/** One of our npm workspace packages, as its package.json describes it. */
interface WorkspacePackage {
  name: string;
  /** 'packages/app/' */
  dir: string;
  dependencies: Set<string>;
  devDependencies: Set<string>;
  /** Export subpath ('.', './testing') -> the source file its `source` condition names. */
  sources: Map<string, string>;
}

function readPackages(root: string): WorkspacePackage[] {
  const base = posix.join(root, 'packages');
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .filter((name) => existsSync(posix.join(base, name, 'package.json')))
    .sort()
    .map((folder) => {
      const dir = `packages/${folder}/`;
      const manifest = JSON.parse(readFileSync(posix.join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
        exports?: Record<string, string | Record<string, string>>;
      };
      const sources = new Map<string, string>();
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        const file = typeof target === 'string' ? target : target.source;
        if (file) sources.set(subpath, posix.join(dir, file));
      }
      return {
        name: manifest.name,
        dir,
        dependencies: new Set(Object.keys(manifest.dependencies ?? {})),
        devDependencies: new Set(Object.keys(manifest.devDependencies ?? {})),
        sources,
      };
    });
}

/** Shortest path from `start` back to itself inside one strongly connected set. */
function shortestCycle(start: string, graph: Map<string, Set<string>>, within: Set<string>) {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (!within.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        path.unshift(start);
        return path;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Tarjan's strongly connected components: every file on a cycle is in a component of 2+. */
function components(graph: Map<string, Set<string>>): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result: Set<string>[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = new Set<string>();
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.add(member);
      } while (member !== node);
      result.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return result;
}

/**
 * One shortest cycle through each file that is on any cycle, without repeats, so that every
 * cycle's files are named while the list stays readable.
 */
export function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const component of components(graph)) {
    const selfLoop = component.size === 1 && graph.get([...component][0]!)?.has([...component][0]!);
    if (component.size < 2 && !selfLoop) continue;
    for (const start of [...component].sort()) {
      const cycle = shortestCycle(start, graph, component);
      if (!cycle) continue;
      const ring = cycle.slice(1);
      const first = ring.indexOf([...ring].sort()[0]!);
      const key = [...ring.slice(first), ...ring.slice(0, first)].join(' -> ');
      if (seen.has(key)) continue;
      seen.add(key);
      cycles.push(cycle);
    }
  }
  return cycles;
}

/**
 * Checks every source file under each `${root}/packages/<name>/src`; paths in the report are
 * relative to root.
 */
export function checkTree(root: string, options: CheckOptions = {}): Report {
  const rules = options.rules ?? [...RULES, ...featureRules(root)];
  const arrows = options.packageArrows ?? PACKAGE_ARROWS;
  const envReaders = options.envReaders ?? ENV_READERS;
  const maxLines = options.maxLines ?? MAX_LINES;
  const bundled = options.bundled ?? BUNDLED;
  const packages = readPackages(root);
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const exists = (path: string) => existsSync(posix.join(root, path));
  const report: Report = {
    cycles: [],
    oversized: [],
    violations: [],
    unresolved: [],
    envReads: [],
    undeclared: [],
    blockKit: [],
    crowded: [],
    voiceReads: [],
  };
  const voiceReaders = Object.keys(options.voiceReaders ?? VOICE_READERS);
  const maxFolderFiles = options.maxFolderFiles ?? MAX_FOLDER_FILES;
  const perFolder = new Map<string, number>();
  for (const file of listFiles(root, APP)) {
    const folder = `${posix.dirname(file)}/`;
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  }
  for (const [folder, files] of [...perFolder].sort()) {
    if (files > maxFolderFiles) report.crowded.push({ folder, files });
  }
  const graph = new Map<string, Set<string>>();

  for (const pkg of packages) {
    for (const file of listFiles(root, `${pkg.dir}src`)) {
      if (!SOURCE_FILE.test(file)) continue;
      const text = readFileSync(posix.join(root, file), 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > maxLines) report.oversized.push({ file, lines });
      if (!CODE_FILE.test(file)) continue;
      graph.set(file, graph.get(file) ?? new Set());
      if (file.startsWith(APP) && !matches(file, BLOCK_KIT_HOME)) {
        for (const { line, kind } of findBlockKitLiterals(text)) {
          report.blockKit.push({ file, line, kind });
        }
      }

      if (matches(file, VOICE_CHECKED) && !voiceReaders.some((pattern) => matches(file, pattern))) {
        for (const { line, name } of findVoiceReads(text)) {
          report.voiceReads.push({ file, line, name });
        }
      }
      if (!envReaders.some((pattern) => matches(file, pattern))) {
        for (const line of findEnvReads(text)) report.envReads.push({ file, line });
      }
      const isBundled = bundled.some((pattern) => matches(file, pattern));
      for (const found of findImports(text)) {
        let target: { path: string; found: boolean };
        if (!found.specifier.startsWith('.') && !found.specifier.startsWith('/')) {
          const name = packageName(found.specifier);
          if (name === undefined) continue;
          const declared =
            pkg.dependencies.has(name) || (isBundled && pkg.devDependencies.has(name));
          if (!found.typeOnly && !declared) {
            report.undeclared.push({ file, line: found.line, name });
          }
          const ours = byName.get(name);
          if (!ours) continue;
          const subpath = `.${found.specifier.slice(name.length)}`;
          const source = ours.sources.get(subpath);
          target = { path: source ?? `${ours.dir}${subpath}`, found: source !== undefined };
          if (ours !== pkg && !(arrows[pkg.name] ?? []).includes(name)) {
            report.violations.push({
              from: file,
              to: target.path,
              line: found.line,
              why: `${pkg.name} may import ${(arrows[pkg.name] ?? []).join(', ') || 'none of our packages'}`,
            });
          }
        } else {
          target = resolveSpecifier(file, found.specifier, exists);
          if (!target.path.startsWith(`${pkg.dir}src/`)) {
            report.violations.push({
              from: file,
              to: target.path,
              line: found.line,
              why: target.path.startsWith(pkg.dir)
                ? 'shipped code cannot depend on tests, scripts or benchmarks'
                : 'a package reaches another by its name, through what that package exports',
            });
          }
        }
        const edge = { from: file, to: target.path, line: found.line };
        if (!target.found) report.unresolved.push(edge);
        if (target.path.startsWith('packages/')) graph.get(file)!.add(target.path);
        for (const rule of rules) {
          if (!matches(file, rule.files)) continue;
          const allowed = rule.mayImport?.some((pattern) => matches(target.path, pattern)) ?? true;
          const forbidden = rule.mustNotImport?.some((pattern) => matches(target.path, pattern));
          if (!allowed || forbidden) report.violations.push({ ...edge, why: rule.why });
        }
      }
    }
  }
  report.cycles = findCycles(graph);
  return report;
}
