// Notices whose text names people: the mention must reach Slack as markup it renders as a name,
// while everything else in the text stays escaped.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/core/command/index.js';
import { errorNotice, plainNotice } from '../../../src/slack/shared/notices.js';

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
    const text = sectionText(errorNotice(parsed.message, parsed.example));
    expect(text).toContain('How much did <@U0BOB> pay?');
    expect(text).not.toContain('&lt;@');
  });

  it('keeps a mention in a plain notice and still escapes the rest', () => {
    const text = sectionText(plainNotice('<@U0ANN> turned on the feed of A & B <b>'));
    expect(text).toBe('<@U0ANN> turned on the feed of A &amp; B &lt;b&gt;');
  });

  it('escapes what only looks like a mention', () => {
    expect(sectionText(plainNotice('<@here> <@U0ANN|ann> <!channel>'))).toBe(
      '&lt;@here&gt; &lt;@U0ANN|ann&gt; &lt;!channel&gt;',
    );
  });
});
