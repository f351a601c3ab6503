/**
 * Nothing a stranger sends makes the app keep memory. The app, started as production starts it
 * (its bundle, built from the tree as the image builds it, `node main.js` with NODE_ENV=production,
 * installed into many workspaces so that every public route is served), takes 20,000 requests over those routes, every one with an Accept-Language tag, a
 * state, a code and a cookie never seen before; the pages that speak the browser's language get
 * four in five. Its heap after full collections, and its RSS, stay where they were: what it keeps
 * per locale is keyed by the few locales the runtime formats with, and capped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApp,
  flood,
  type ProductionApp,
  PUBLIC_ROUTES,
  startProductionApp,
} from './support/public-flood.js';

const MB = 1024 * 1024;
/** Room for the caches to fill up to their caps (a few MB of compiled messages at most). */
const HEAP_MARGIN_MB = 12;
/** What the "done" asks of RSS. */
const RSS_MARGIN_MB = 30;
const FLOOD = 20_000;

let dir: string;
let built: Awaited<ReturnType<typeof buildApp>> | undefined;
let app: ProductionApp | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-flood-'));
  built = await buildApp();
  app = await startProductionApp({ entry: built.main, dir, probeHeap: true });
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await built?.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('the public routes, flooded with values never seen before', () => {
  it('leave the heap and RSS where they were', { timeout: 120_000 }, async () => {
    const running = app!;
    // Every route and every page's language, so that what loads on first use (catalogues, the
    // message compiler, Bolt's install paths) is in the baseline.
    await flood(running.url, 0, 600);
    const heapBefore = await running.heapUsed();
    const rssBefore = running.memory().rssKb;

    const { answered } = await flood(running.url, 1_000_000, FLOOD);

    const heapAfter = await running.heapUsed();
    const rssAfter = running.memory().rssKb;
    const total = [...answered.values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBe(FLOOD);
    // Every route was reached, and none failed on our side.
    const reached = new Set([...answered.keys()].map((key) => key.split(': ')[0]));
    expect([...reached].sort()).toEqual(PUBLIC_ROUTES.map((r) => r.name).sort());
    expect([...answered.keys()].filter((key) => /: 5\d\d$/.test(key))).toEqual([]);

    const grewMb = (heapAfter - heapBefore) / MB;
    expect(grewMb, `heap ${heapBefore / MB} MB -> ${heapAfter / MB} MB`).toBeLessThan(
      HEAP_MARGIN_MB,
    );
    expect((rssAfter - rssBefore) / 1024, `RSS ${rssBefore} kB -> ${rssAfter} kB`).toBeLessThan(
      RSS_MARGIN_MB,
    );
  });
});
