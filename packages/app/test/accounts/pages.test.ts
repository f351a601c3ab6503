/**
 * The linking pages by value: in the reader's language (the html `lang` too), everything
 * interpolated HTML-escaped, and the browser's language read from Accept-Language when nobody's
 * Slack locale is known.
 */
import { describe, expect, it } from 'vitest';
import { browserLocale, pagesFor } from '../../src/accounts/pages.js';
import { voiceFor } from '../../src/voice/index.js';

describe('the browser’s language', () => {
  it('is the preferred one the pages are written in', () => {
    expect(browserLocale('de-AT,de;q=0.9,en;q=0.8')).toBe('de-AT');
    expect(browserLocale('ko-KR,ko;q=0.9,fr;q=0.7,en;q=0.6')).toBe('fr');
    expect(browserLocale('en-GB,en;q=0.9,de;q=0.8')).toBe('en-GB');
    expect(browserLocale('pt;q=0.5, ja;q=0.8')).toBe('ja');
    expect(browserLocale('pt-PT')).toBe('pt-PT');
  });

  it('is none when the browser asks for nothing the pages are written in', () => {
    expect(browserLocale(undefined)).toBeUndefined();
    expect(browserLocale('')).toBeUndefined();
    expect(browserLocale('*')).toBeUndefined();
    expect(browserLocale('ko-KR, zh;q=0.5')).toBeUndefined();
    expect(browserLocale('de;q=0')).toBeUndefined();
    expect(browserLocale('<script>, de;q=bad')).toBeUndefined();
  });

  it('reads a long header only so far', () => {
    expect(browserLocale(`${'xx, '.repeat(10_000)}de`)).toBeUndefined();
  });
});

describe('the pages', () => {
  it('are written in the reader’s language, with its lang', async () => {
    const de = pagesFor(await voiceFor({ locale: 'de-DE' }));
    const page = de.connected('Ann Lee', 'kept');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="de">');
    expect(page.html).toContain('<title>Verbunden als Ann Lee · Split</title>');
    expect(page.html).toContain('Der Befehl, den du eingegeben hast, wird jetzt ausgeführt');
    const ja = pagesFor(await voiceFor({ locale: 'ja-JP' }));
    expect(ja.expiredState().html).toContain('このリンクは期限切れです');
    expect(ja.expiredState().html).toContain('<html lang="ja">');
    const pt = pagesFor(await voiceFor({ locale: 'pt-PT' }));
    expect(pt.usedState().html).toContain('<html lang="pt-BR">');
    expect(pt.usedState().html).toContain('Este link já foi usado');
  });

  it('escape what they show, names and what a provider said included', async () => {
    const en = pagesFor(await voiceFor({}));
    const page = en.connected('<script>alert(1)</script> & "co"', undefined);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
    expect(en.providerError({ problem: 'said', text: '<b>nope</b>' }).html).toContain(
      'It said: &lt;b&gt;nope&lt;/b&gt;. Nothing was connected.',
    );
    // The status is for the logs: the page says what happened, in words.
    const http = en.providerError({ problem: 'http', status: 503 }).html;
    expect(http).toContain('It answered with an error. Nothing was connected.');
    expect(http).not.toContain('503');
    expect(en.signInFailed({ problem: 'slack_error', code: 'invalid_code' }).html).toContain(
      'It said: invalid_code. Nothing was connected.',
    );
    expect(en.signInFailed({ problem: 'expired' }).html).toContain('It said: it has expired.');
  });

  it('say why Slack did not confirm, in German', async () => {
    const de = pagesFor(await voiceFor({ locale: 'de-DE' }));
    const page = de.signInFailed({ problem: 'http_error' });
    expect(page.status).toBe(502);
    expect(page.html).toContain(
      'Die Antwort war: der Server von Slack hat mit einem Fehler geantwortet. Es wurde nichts verbunden.',
    );
    expect(page.html).not.toContain('HTTP');
  });
});
