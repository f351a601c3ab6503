/**
 * Which language the linking pages speak, end to end: the language of the Slack user a link was
 * made for (their Slack locale), whatever the browser prefers, even once the link is expired;
 * when a page cannot tell whose link it is, or Slack cannot say, the browser's (Accept-Language);
 * else English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectButtonUrl, type Harness, startHarness } from '../support/harness.js';

let h: Harness;
let offsetMs = 0;

beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + offsetMs) });
  h.addSlackUser({ slackId: 'U0UTE', first_name: 'Ute', locale: 'de-DE' });
});
afterAll(() => h?.close());

const open = (url: string, language?: string) =>
  fetch(h.local(url), {
    redirect: 'manual',
    ...(language ? { headers: { 'accept-language': language } } : {}),
  });

describe('the linking pages', () => {
  it('speak the browser’s language when the link is unknown, else English', async () => {
    const unknown = `http://split.test/oauth/start?state=${'x'.repeat(43)}`;
    const german = await open(unknown, 'de-CH,de;q=0.9,en;q=0.5');
    expect(german.status).toBe(400);
    const html = await german.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Dieser Link ist ungültig');
    expect(await (await open(unknown, 'ko-KR,fr;q=0.8')).text()).toContain(
      'Ce lien n’est pas valide',
    );
    expect(await (await open(unknown, 'ko-KR')).text()).toContain('This link is not valid');
    expect(await (await open(unknown)).text()).toContain('This link is not valid');
    expect(await (await open('http://split.test/oauth/start', 'es')).text()).toContain(
      'Este enlace está incompleto',
    );
  });

  it('speak the language of the person the link is for, even once it expired', async () => {
    const prompt = await h.split('connect', { user_id: 'U0UTE' });
    const url = connectButtonUrl((prompt.answer.body as { blocks: unknown }).blocks);
    offsetMs = 11 * 60_000;
    try {
      const expired = await open(url, 'ja');
      expect(expired.status).toBe(400);
      const html = await expired.text();
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('Dieser Link ist abgelaufen');
      expect(html).toContain('Verbindungslinks gelten 10 Minuten.');
    } finally {
      offsetMs = 0;
    }
  });

  it('speak the browser’s language when Slack cannot say who the person is', async () => {
    // U0GONE is not in the workspace's directory (users.info answers user_not_found).
    const prompt = await h.split('connect', { user_id: 'U0GONE' });
    const url = connectButtonUrl((prompt.answer.body as { blocks: unknown }).blocks);
    offsetMs = 11 * 60_000;
    try {
      expect(await (await open(url, 'pt-BR')).text()).toContain('Este link expirou');
    } finally {
      offsetMs = 0;
    }
  });
});
