import { describe, expect, it } from 'vitest';
import { formatSlackDate } from '../../src/page/blocks/dates.js';
import { parseMrkdwn } from '../../src/page/blocks/mrkdwn.js';
import { all, byClass, byTag, one, text } from './html.js';
import { renderMrkdwn } from './support.js';

describe('mrkdwn formatting', () => {
  it('renders bold, italic, strike and inline code as their elements', () => {
    const root = renderMrkdwn('*Lunch* for _two_, ~3~ `x*y*`');
    expect(text(one(byTag(root, 'strong')))).toBe('Lunch');
    expect(text(one(byTag(root, 'em')))).toBe('two');
    expect(text(one(byTag(root, 's')))).toBe('3');
    // Formatting characters inside code stay literal.
    expect(text(one(byTag(root, 'code')))).toBe('x*y*');
    expect(text(root)).toBe('Lunch for two, 3 x*y*');
  });

  it('nests formatting and leaves underscores inside words alone', () => {
    const root = renderMrkdwn('*total _owed_* by snake_case_name');
    expect(text(one(byTag(one(byTag(root, 'strong')), 'em')))).toBe('owed');
    expect(byTag(root, 'em')).toHaveLength(1);
    expect(text(root)).toContain('snake_case_name');
  });

  it('keeps code blocks literal, quotes lines and lists bullets and numbers', () => {
    const root = renderMrkdwn(
      '&gt; quoted *line*\n• apples\n• pears\n1. first\n2. second\n```*not bold*\n&lt;tag&gt;```',
    );
    const quote = one(byTag(root, 'blockquote'));
    expect(text(quote)).toBe('quoted line');
    expect(byTag(quote, 'strong')).toHaveLength(1);
    expect(byTag(one(byTag(root, 'ul')), 'li').map(text)).toEqual(['apples', 'pears']);
    expect(byTag(one(byTag(root, 'ol')), 'li').map(text)).toEqual(['first', 'second']);
    const pre = one(byTag(root, 'pre'));
    expect(text(pre)).toBe('*not bold*\n<tag>');
    expect(byTag(pre, 'strong')).toHaveLength(0);
  });

  it('formats nothing whose characters an app fenced with zero-width spaces, as Slack does', () => {
    const z = '\u200b';
    const fenced = (c: string) => `${z}${c}${z}`;
    const root = renderMrkdwn(
      `${fenced('*')}star${fenced('*')} ${fenced('_')}it${fenced('_')} ${fenced('~')}s${fenced('~')} ${fenced('`')}c${fenced('`')}`,
    );
    for (const tag of ['strong', 'em', 's', 'code']) expect(byTag(root, tag), tag).toHaveLength(0);
    expect(text(root).replaceAll(z, '')).toBe('*star* _it_ ~s~ `c`');
    // A person's own formatting, written by the app, still formats.
    expect(
      byTag(renderMrkdwn(`*Lunch* by ${fenced('*')}Ann${fenced('*')}`), 'strong'),
    ).toHaveLength(1);
  });

  it('turns line breaks into <br>', () => {
    const root = renderMrkdwn('one\ntwo');
    expect(byTag(root, 'br')).toHaveLength(1);
    expect(text(root)).toBe('one\ntwo');
  });
});

describe('mrkdwn entities', () => {
  it('names mentioned people and channels from the context, then the label, then the id', () => {
    const root = renderMrkdwn('<@U1> <@U9|zed> <@U8> <#C2> <#C7|random>');
    expect(byClass(root, 'bk-mention').map(text)).toEqual([
      '@Ann',
      '@zed',
      '@U8',
      '#lunch',
      '#random',
    ]);
  });

  it('links web and mail addresses and leaves other schemes inert', () => {
    const root = renderMrkdwn(
      '<https://example.com/a?b=1&amp;c=2|the site> <mailto:ann@example.com> <javascript:alert(1)|click>',
    );
    const links = byTag(root, 'a');
    expect(links.map((a) => a.attrs.get('href'))).toEqual([
      'https://example.com/a?b=1&c=2',
      'mailto:ann@example.com',
    ]);
    expect(links.map(text)).toEqual(['the site', 'mailto:ann@example.com']);
    expect(links[0]!.attrs.get('rel')).toContain('noopener');
    expect(text(root)).toContain('click');
  });

  it('shows @here, @channel and user groups', () => {
    const root = renderMrkdwn('<!here> <!channel> <!subteam^S1|@design>');
    expect(byClass(root, 'bk-mention').map(text)).toEqual(['@here', '@channel', '@design']);
  });

  it('formats date tokens in the reader time zone and falls back when unreadable', () => {
    const root = renderMrkdwn(
      '<!date^1392734382^{date_short} at {time}|Feb 18> / <!date^nope^{date}|the fallback>',
    );
    expect(text(root)).toBe('Feb 18, 2014 at 2:39 PM / the fallback');
    const tokyo = formatSlackDate('1392734382', '{date_num} {time}', 'Asia/Tokyo');
    expect(tokyo).toBe('2014-02-18 11:39 PM');
  });

  it('says Today for date_pretty on the same day', () => {
    const now = new Date(1392734382_000);
    expect(formatSlackDate('1392700000', '{date_pretty}', 'UTC', now)).toBe('Today');
    expect(formatSlackDate('1392600000', '{date_pretty}', 'UTC', now)).toBe('Yesterday');
  });

  it('writes dates and times in the reader’s language, 24-hour where the locale counts so', () => {
    const now = new Date(1392734382_000);
    const format = '{date_short_pretty} {time}';
    expect(formatSlackDate('1392734382', format, 'UTC', now, 'en-US')).toBe('Today 2:39 PM');
    expect(formatSlackDate('1392734382', format, 'UTC', now, 'de-DE')).toBe('Heute 14:39');
    // ICU releases differ on a leading zero for French hours.
    expect(formatSlackDate('1392600000', format, 'UTC', now, 'fr-FR')).toMatch(/^Hier 0?1:20$/);
    expect(formatSlackDate('1392300000', '{date_short} {time}', 'UTC', now, 'es-ES')).toBe(
      '13 feb 2014 14:00',
    );
    expect(formatSlackDate('1392734382', '{time}', 'Asia/Tokyo', now, 'ja-JP')).toBe('23:39');
    expect(formatSlackDate('1392734382', '{time}', 'UTC', now, 'pt-BR')).toBe('14:39');
    // A locale the runtime has no data for reads as US English.
    expect(formatSlackDate('1392734382', '{time}', 'UTC', now, 'xx-XX')).toBe('2:39 PM');
  });

  it('replaces known emoji shortcodes and keeps unknown ones as typed', () => {
    const root = renderMrkdwn(':white_check_mark: booked :no_such_emoji:');
    const emoji = one(byClass(root, 'bk-emoji'));
    expect(text(emoji)).toBe('✅');
    expect(emoji.attrs.get('aria-label')).toBe('white check mark');
    expect(text(root)).toBe('✅ booked :no_such_emoji:');
  });
});

describe('mrkdwn escaping', () => {
  it('unescapes only &amp; &lt; &gt; and never produces markup from text', () => {
    const root = renderMrkdwn('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot; <img src=x>');
    expect(all(root, (el) => el.tag === 'script' || el.tag === 'img')).toHaveLength(0);
    expect(text(root)).toContain('<script>alert(1)</script> & &quot;');
  });

  it('keeps a person’s angle brackets as text even inside labels', () => {
    const tree = parseMrkdwn('<https://x.test|&lt;b&gt;bold&lt;/b&gt;>');
    expect(tree).toEqual([
      { k: 'p', children: [{ k: 'link', url: 'https://x.test', label: '<b>bold</b>' }] },
    ]);
    const root = renderMrkdwn('<https://x.test|&lt;b&gt;bold&lt;/b&gt;>');
    expect(byTag(root, 'b')).toHaveLength(0);
    expect(text(one(byTag(root, 'a')))).toBe('<b>bold</b>');
  });

  it('shows an unclosed code fence literally', () => {
    expect(text(renderMrkdwn('```open'))).toBe('```open');
  });
});
