// The built page in a real (headless) Chromium, against a stub of the workspace server that
// answers the page's JSON API with canned state and records what the page posts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { buildPage } from '../../scripts/build-page.js';
import { PAGE_CSP } from '../../src/http-util.js';
import type { State } from '../../src/page/types.js';
import { cannedState } from './fixture-state.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPj/HwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Posted {
  path: string;
  body: Record<string, unknown>;
}

export class StubPage {
  base = '';
  page!: Page;
  state!: State;
  posted: Posted[] = [];
  /** What view-submit answers with, when set: `errors` under the named blocks. */
  submitErrors: Record<string, string> | undefined;
  /** Extra fields of the answer to a POST, by path (`control/digest` → `{ sent: 2 }`). */
  readonly answers = new Map<string, Record<string, unknown>>();
  /** Called with each POST after it is recorded, before the answer (the stub's "app"). */
  onPost: ((posted: Posted) => void) | undefined;
  /** What the browser reported breaking the Content-Security-Policy since the last `open`. */
  readonly violations: string[] = [];

  #dir = '';
  #browser: Browser | undefined;
  readonly #streams = new Set<ServerResponse>();
  readonly #server = createServer((req, res) => void this.#handle(req, res));

  async start(): Promise<void> {
    this.#dir = await mkdtemp(join(tmpdir(), 'split-page-'));
    await buildPage(this.#dir);
    await new Promise<void>((done) => this.#server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    this.#browser = await chromium.launch({
      // Only browser tests start the stub, and only when Chromium was found.
      executablePath: inject('chromiumPath') ?? '',
      args: CHROMIUM_ARGS,
    });
    this.page = await this.#browser.newPage({ viewport: { width: 1280, height: 860 } });
    // A missing element fails its step quickly, naming it, instead of the whole test timing out.
    this.page.setDefaultTimeout(4000);
    this.page.on('pageerror', (error) => console.error('page error:', error.message));
    this.page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) this.violations.push(message.text());
    });
  }

  async close(): Promise<void> {
    await this.#browser?.close();
    for (const stream of this.#streams) stream.end();
    await new Promise<void>((done) => this.#server.close(() => done()));
    if (this.#dir) await rm(this.#dir, { recursive: true, force: true });
  }

  /** Opens the page at `query` on fresh canned state, changed first by `edit` if given. */
  async open(
    query: string,
    { withModal = false, edit }: { withModal?: boolean; edit?: (state: State) => void } = {},
  ): Promise<void> {
    this.state = cannedState(`${this.base}/icon.png`);
    if (!withModal) this.state.modals = [];
    edit?.(this.state);
    this.posted = [];
    this.submitErrors = undefined;
    this.answers.clear();
    this.onPost = undefined;
    this.violations.length = 0;
    await this.page.goto(`${this.base}/${query}`);
    // The conversation, which every width shows (a narrow one hides the navigation).
    await this.page.getByRole('main').waitFor();
  }

  /** Announces a new state version; the page refetches, as from the real server's stream. */
  changed(): void {
    this.state.version++;
    for (const stream of this.#streams) stream.write(`data: {"version":${this.state.version}}\n\n`);
  }

  lastPost(path: string): Record<string, unknown> {
    const found = this.posted.filter((p) => p.path === path);
    const last = found[found.length - 1];
    if (!last) {
      throw new Error(`nothing posted to ${path}; posted: ${this.posted.map((p) => p.path)}`);
    }
    return last.body;
  }

  async waitForPost(path: string): Promise<Record<string, unknown>> {
    await expect.poll(() => this.posted.some((p) => p.path === path), { timeout: 3000 }).toBe(true);
    return this.lastPost(path);
  }

  #json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.base);
    if (req.method === 'GET' && url.pathname === '/') {
      // The workspace's own policy, so that every test also proves the page works under it.
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PAGE_CSP,
      });
      res.end(await readFile(join(this.#dir, 'index.html')));
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/assets/')) {
      const name = url.pathname.slice('/assets/'.length);
      const type = name.endsWith('.css') ? 'text/css' : 'text/javascript';
      res.writeHead(200, { 'content-type': type });
      res.end(await readFile(join(this.#dir, 'assets', name.replace(/[^a-z.]/g, ''))));
      return;
    }
    if (url.pathname === '/icon.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
      return;
    }
    if (url.pathname === '/workspace-api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': hello\n\n');
      this.#streams.add(res);
      req.on('close', () => this.#streams.delete(res));
      return;
    }
    if (url.pathname === '/workspace-api/state') {
      const acting = url.searchParams.get('as') ?? this.state.acting;
      this.#json(res, 200, { ok: true, ...this.state, acting });
      return;
    }
    if (req.method !== 'POST' || !url.pathname.startsWith('/workspace-api/')) {
      res.writeHead(404).end();
      return;
    }
    const path = url.pathname.replace('/workspace-api/', '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    const posted = { path, body };
    this.posted.push(posted);
    this.onPost?.(posted);
    if (path === 'view-submit' && this.submitErrors) {
      this.#json(res, 200, { ok: true, errors: this.submitErrors });
      return;
    }
    if (path === 'view-close') {
      this.state.modals = this.state.modals.filter((v) => v.id !== body.view_id);
      this.changed();
    }
    if (path === 'options') {
      const groups = ['Trip to Rome', 'Flat share', 'Rome office'];
      const query = String(body.value).toLowerCase();
      const options = groups
        .filter((g) => g.toLowerCase().includes(query))
        .map((g) => ({ text: { type: 'plain_text', text: g }, value: g.toLowerCase() }));
      this.#json(res, 200, { ok: true, options });
      return;
    }
    this.#json(res, 200, { ok: true, ...this.answers.get(path) });
  }
}
