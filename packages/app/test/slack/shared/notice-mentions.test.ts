// Notices whose text names people: the mention must reach Slack as markup it renders as a name,
// while everything a person typed stays escaped, in the blocks and in the fallback text.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/core/command/index.js';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import { errorNotice, plainNotice } from '../../../src/slack/shared/notices.js';
import { troubleText } from '../../../src/slack/shared/parse-problem.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US' });

function sectionText(message: { blocks?: unknown }): string {
  const [first] = message.blocks as Array<{ text?: { text: string } }>;
  return first?.text?.text ?? '';
}

describe('mentions in notices', () => {
  it('keeps a mention in a parser error as a mention', () => {
    const parsed = parseCommand('60 dinner <@U0ANN|ann> paid by me 40 <@U0BOB|bob>', {
      today: '2026-11-26',
      defaultCurrency: 'USD',
    });
    if (parsed.kind !== 'error') throw new Error(`expected an error, got ${parsed.kind}`);
    const notice = errorNotice(en, troubleText(en, parsed.problem), parsed.problem.example);
    expect(sectionText(notice)).toContain('How much did <@U0BOB> pay?');
    expect(sectionText(notice)).not.toContain('&lt;@');
    expect(notice.text).toContain('How much did <@U0BOB> pay?');
  });

  it('keeps a mention in a plain notice, with the values escaped on their way in', () => {
    const text = `<@U0ANN> turned on the feed of ${mrkdwn('A & B <b> *star*')}`;
    const notice = plainNotice(text);
    expect(sectionText(notice)).toBe(
      '<@U0ANN> turned on the feed of A &amp; B &lt;b&gt; \u200b*\u200bstar\u200b*\u200b',
    );
    expect(notice.text).toBe(sectionText(notice));
  });

  it('never lets a broadcast through, even one a caller forgot to escape', () => {
    for (const notice of [
      plainNotice('<!channel> and <!here|here> and <!subteam^S123>'),
      errorNotice(en, '<!everyone> look', '/split 40 lunch @ann'),
    ]) {
      expect(sectionText(notice)).not.toMatch(/<!/);
      expect(notice.text).not.toMatch(/<!/);
    }
  });

  it('escapes what a person typed in a refusal, in the blocks and the fallback', () => {
    const parsed = parseCommand('feed <https://evil.example|click> &*b*', {
      today: '2026-11-26',
      defaultCurrency: 'USD',
    });
    if (parsed.kind !== 'error') throw new Error(`expected an error, got ${parsed.kind}`);
    const notice = errorNotice(en, troubleText(en, parsed.problem), parsed.problem.example);
    for (const text of [sectionText(notice), notice.text]) {
      expect(text).not.toMatch(/<https|&(?!amp;|lt;|gt;)|\*b\*/);
      expect(text).toContain('&lt;https://evil.example|click&gt; &amp;\u200b*\u200bb\u200b*\u200b');
    }
  });
});

describe('text that slipped into a notice unescaped', () => {
  it('is shown as text: no link, no broadcast, no bare ampersand, escaped text unchanged', () => {
    const notice = plainNotice(
      'Tom & Jerry <https://evil.example|Roommates> <!here> a > b <@U0ANN> <#C0FLAT|flat> &amp; &lt;b&gt;',
    );
    const expected =
      'Tom &amp; Jerry &lt;https://evil.example|Roommates&gt; &lt;!here&gt; a &gt; b <@U0ANN> <#C0FLAT|flat> &amp; &lt;b&gt;';
    expect(sectionText(notice)).toBe(expected);
    expect(notice.text).toBe(expected);
  });
});
