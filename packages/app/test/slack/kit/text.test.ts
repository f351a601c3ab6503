import { describe, expect, it } from 'vitest';
import { mention, mrkdwn, plainText } from '../../../src/slack/kit/text.js';

const ZW = '\u200b';

describe('mrkdwn', () => {
  it('turns &, < and > into entities, so that no markup in the text is read', () => {
    expect(mrkdwn('fish & chips <b>')).toBe('fish &amp; chips &lt;b&gt;');
    expect(mrkdwn('<!channel> <!here> <@U0ANN>')).toBe(
      '&lt;!channel&gt; &lt;!here&gt; &lt;@U0ANN&gt;',
    );
    expect(mrkdwn('<https://evil.example|your-receipt>')).toBe(
      '&lt;https://evil.example|your-receipt&gt;',
    );
    expect(mrkdwn('&amp;')).toBe('&amp;amp;');
  });

  it('fences each formatting character so that none pairs up', () => {
    expect(mrkdwn('*star*')).toBe(`${ZW}*${ZW}star${ZW}*${ZW}`);
    expect(mrkdwn('_a_ ~b~ `c`')).toBe(
      `${ZW}_${ZW}a${ZW}_${ZW} ${ZW}~${ZW}b${ZW}~${ZW} ${ZW}\`${ZW}c${ZW}\`${ZW}`,
    );
  });

  it('keeps a > that starts a line from quoting it', () => {
    expect(mrkdwn('> not a quote\na > b\n>> x')).toBe(
      `${ZW}&gt; not a quote\na &gt; b\n${ZW}&gt;&gt; x`,
    );
  });

  it('leaves every other character, emoji and other scripts included, as written', () => {
    const text = 'Café 🍕 ランチ 40€ #lunch @here :tada: a.b,c!?';
    expect(mrkdwn(text)).toBe(text);
    expect(mrkdwn('')).toBe('');
  });
});

describe('plainText', () => {
  it('passes the text as written: plain_text shows no markup', () => {
    expect(plainText('<!channel> *x* & y')).toBe('<!channel> *x* & y');
  });
});

describe('mention', () => {
  it('mentions a Slack user id, and writes anything else as text', () => {
    expect(mention('U0ANN')).toBe('<@U0ANN>');
    expect(mention('W012ABC')).toBe('<@W012ABC>');
    expect(mention('U0ANN> <!channel')).toBe('U0ANN&gt; &lt;!channel');
  });
});
