// The command a person typed, quoted back to them in a notice, reads as they typed it: Slack's
// markup for mentions and its escaping are not shown raw inside the code span.
import { describe, expect, it } from 'vitest';
import { linkedDm } from '../../../src/slack/linking/views.js';
import { connectPrompt, typedCommand } from '../../../src/slack/shared/notices.js';
import { voiceFor } from '../../../src/voice/index.js';

describe('typedCommand', () => {
  it('shows mentions, channels and links by their labels', () => {
    expect(typedCommand('40 lunch <@U0GRACE|grace> <#C0LUNCH|lunch> <https://x.test/a|menu>')).toBe(
      '40 lunch @grace #lunch menu',
    );
    expect(typedCommand('10 <@U0ANN> <!here> <https://x.test/a>')).toBe(
      '10 @U0ANN @here https://x.test/a',
    );
  });

  it("undoes Slack's escaping once and escapes again for mrkdwn", () => {
    expect(typedCommand('12 fish &amp; chips &lt;3')).toBe('12 fish &amp; chips &lt;3');
    expect(typedCommand('12 a&amp;amp;b')).toBe('12 a&amp;amp;b');
  });

  it('is what the Connect prompt and the DM after linking quote', async () => {
    const pending = '40 lunch <@U0GRACE|grace>';
    const prompt = JSON.stringify(
      connectPrompt(await voiceFor({}), {
        url: 'http://x/',
        reason: 'first_time',
        pendingText: pending,
      }).blocks,
    );
    expect(prompt).toContain('`/split 40 lunch @grace`');
    expect(prompt).not.toContain('U0GRACE');
    const en = await voiceFor({});
    const dm = JSON.stringify(
      linkedDm(en, { name: 'Ada', serviceUserId: 1, pendingText: pending }).blocks,
    );
    expect(dm).toContain('`/split 40 lunch @grace`');
    expect(
      JSON.stringify(linkedDm(en, { name: 'Ada', serviceUserId: 1, failedText: pending }).blocks),
    ).toContain('`/split 40 lunch @grace`');
  });
});
