/**
 * Who may scrape /metrics: nobody on the public port unless the operator set METRICS_TOKEN (and
 * then only with it), and on METRICS_PORT alone when that is set, with the token when both are.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

const TOKEN = randomBytes(24).toString('hex');

async function withHarness(env: Record<string, string>, test: (h: Harness) => Promise<void>) {
  const h = await startHarness({ env });
  try {
    await test(h);
  } finally {
    await h.close();
  }
}

const status = async (url: string, token?: string) =>
  (await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {})).status;

describe('/metrics', () => {
  it('is not served on the public port when the operator chose neither a port nor a token', async () => {
    await withHarness({}, async (h) => {
      expect(h.app.metricsUrl).toBeUndefined();
      expect(await status(`${h.app.url}/metrics`)).toBe(404);
      expect(await status(`${h.app.url}/readyz`)).toBe(200);
    });
  });

  it('needs the bearer token on the public port when METRICS_TOKEN is set', async () => {
    await withHarness({ METRICS_TOKEN: TOKEN }, async (h) => {
      const url = `${h.app.url}/metrics`;
      expect(await status(url)).toBe(401);
      expect(await status(url, `${TOKEN}x`)).toBe(401);
      expect(await status(url, TOKEN.slice(0, -1))).toBe(401);
      const scrape = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('split_queue_depth');
    });
  });

  it('is served on METRICS_PORT alone, with the token when both are set', async () => {
    await withHarness({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN }, async (h) => {
      expect(await status(`${h.app.url}/metrics`, TOKEN)).toBe(404);
      const url = h.app.metricsUrl as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(url).port).not.toBe(new URL(h.app.url).port);
      expect(await status(url)).toBe(401);
      expect(await status(url, TOKEN)).toBe(200);
      expect(await status(url.replace('/metrics', '/readyz'), TOKEN)).toBe(404);
    });
  });
});
