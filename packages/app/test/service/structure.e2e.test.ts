/**
 * The shape the client promises: every operation declared once and run by the method of its name,
 * the operation table of docs/client.md complete and its relative links alive, and no import
 * cycle in src/service (type-only imports included).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/service/index.js';
import type { Operation } from '../../src/service/operation.js';
import * as resources from '../../src/service/resources/index.js';
import {
  type CreatedUser,
  clientFor,
  emulator,
  type RunningEmulator,
  recorder,
  someUser,
} from './helpers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type AnyOperation = Operation<never, unknown>;

function isOperation(value: unknown): value is AnyOperation {
  const v = value as Partial<AnyOperation> | null;
  return typeof v === 'object' && v !== null && typeof v.path === 'string' && !!v.method;
}

const DECLARED: AnyOperation[] = Object.values(resources).flatMap((module) =>
  Object.values(module).filter(isOperation),
);

/** Methods that run no declaration: credentials, the OAuth flows, and the paginating walk. */
const NOT_DECLARED = [
  'getAccessToken',
  'getAuthorizeURL',
  'getOAuth2AccessToken',
  'getOAuth2AuthorizeURL',
  'iterateExpenses',
  'setAccessToken',
  'setOAuth2AccessToken',
];

/** One call per declared operation; every id is 7, so the expected path is the template's. */
const CALLS: Record<string, (c: ServiceClient) => Promise<unknown>> = {
  getCurrentUser: (c) => c.getCurrentUser(),
  getUser: (c) => c.getUser(7),
  updateUser: (c) => c.updateUser({ id: 7, first_name: 'X' }),
  getFriends: (c) => c.getFriends(),
  getFriend: (c) => c.getFriend(7),
  createFriend: (c) => c.createFriend({ email: 'x@example.com', first_name: 'X' }),
  deleteFriend: (c) => c.deleteFriend(7),
  getGroups: (c) => c.getGroups(),
  getGroup: (c) => c.getGroup(7),
  createGroup: (c) => c.createGroup({ name: 'X' }),
  addUserToGroup: (c) => c.addUserToGroup({ user_id: 7 }, 7),
  removeUserFromGroup: (c) => c.removeUserFromGroup(7, 7),
  deleteGroup: (c) => c.deleteGroup(7),
  getExpenses: (c) => c.getExpenses(),
  getExpense: (c) => c.getExpense(7),
  createExpense: (c) => c.createExpense({ description: 'X', cost: '1', group_id: 7 }),
  updateExpense: (c) => c.updateExpense({ id: 7, description: 'X' }),
  deleteExpense: (c) => c.deleteExpense(7),
  undeleteExpense: (c) => c.undeleteExpense(7),
  getComments: (c) => c.getComments(7),
  createComment: (c) => c.createComment(7, 'X'),
  deleteComment: (c) => c.deleteComment(7),
  getNotifications: (c) => c.getNotifications(),
  getCurrencies: (c) => c.getCurrencies(),
  getCategories: (c) => c.getCategories(),
};

describe('each operation is declared once', () => {
  let emu: RunningEmulator;
  let ann: CreatedUser;

  beforeAll(async () => {
    emu = await emulator();
    ann = await someUser(emu.url, 'Ann');
  });

  afterAll(async () => {
    await emu?.close();
  });

  it('no two declarations share a name, or a method and path', () => {
    const names = DECLARED.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = DECLARED.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('every declaration has a method of its name, and every other method is listed', () => {
    const methods = Object.getOwnPropertyNames(ServiceClient.prototype).filter(
      (name) => name !== 'constructor' && name !== 'edition',
    );
    const declared = DECLARED.map((op) => op.name).sort();
    expect(declared.filter((name) => !methods.includes(name))).toEqual([]);
    expect(methods.filter((name) => !declared.includes(name)).sort()).toEqual(NOT_DECLARED);
    expect(Object.keys(CALLS).sort()).toEqual(declared);
  });

  it('each method sends the request its declaration describes', async () => {
    for (const op of DECLARED) {
      const rec = recorder();
      const client = clientFor(emu.url, { apiKey: ann.api_key, fetch: rec.fetch, retries: 0 });
      await CALLS[op.name]?.(client).catch(() => undefined);
      expect(rec.calls, op.name).toHaveLength(1);
      expect(rec.last().method, op.name).toBe(op.method);
      expect(rec.last().url.pathname, op.name).toBe(`/api/v3.0/${op.path.replace('{id}', '7')}`);
    }
  });
});

describe('docs/client.md', () => {
  const docPath = join(ROOT, '../../docs/client.md');
  const doc = readFileSync(docPath, 'utf8');

  it('maps every declared operation, with its wire route and its method', () => {
    const table = doc.slice(doc.indexOf('#### Operations'), doc.indexOf('#### Objects and fields'));
    const missing = DECLARED.filter(
      (op) => !table.includes(`\`${op.method} ${op.path}\``) || !table.includes(`\`${op.name}(`),
    ).map((op) => op.name);
    expect(missing).toEqual([]);
  });

  it('every relative link resolves to a file of the repository', () => {
    const targets = [...doc.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z]+:/i.test(target));
    expect(targets.length).toBeGreaterThan(0);
    const broken = targets.filter((target) => !existsSync(resolve(dirname(docPath), target)));
    expect(broken).toEqual([]);
  });
});

describe('imports', () => {
  const serviceDir = join(ROOT, 'src/service');

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  /** Relative imports and re-exports of a module, type-only ones included, as .ts paths. */
  function importsOf(file: string): string[] {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm),
      ...text.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
    ].map((m) => m[1]!);
    return specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
  }

  const graph = new Map(sources(serviceDir).map((file) => [file, importsOf(file)]));

  it('src/service imports nothing of the app but core/money', () => {
    const outside = new Set(
      [...graph.values()]
        .flat()
        .filter((target) => !target.startsWith(serviceDir))
        .map((target) => relative(ROOT, target)),
    );
    expect([...outside]).toEqual(['src/core/money.ts']);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') {
          const loop = [...stack.slice(stack.indexOf(next)), next];
          cycles.push(loop.map((f) => relative(serviceDir, f)).join(' -> '));
        } else if (!state.has(next) && graph.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(graph.size).toBeGreaterThan(10);
    expect(cycles).toEqual([]);
  });
});
