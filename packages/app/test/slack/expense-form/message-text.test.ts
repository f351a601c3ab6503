/**
 * "Split this" reads a message of up to 40,000 characters, written by anyone in the channel: its
 * text becomes the form's description with mentions turned into names and Slack's markup undone,
 * in time that grows with the text, not with its square.
 */
import { describe, expect, it } from 'vitest';
import { messageText } from '../../../src/slack/expense-form/message-text.js';

describe('the text of a message, for the form', () => {
  it("turns mentions into names and undoes Slack's markup", () => {
    const names = new Map([['U0ANN', 'Ann']]);
    expect(
      messageText(
        'Pizza &amp; wine with <@U0ANN> and <@U0BOB|bob>, see <https://x.example|the bill> <#C1|general>',
        names,
      ),
    ).toBe('Pizza & wine with Ann and someone, see the bill general');
  });

  it('reads unclosed entities over a long message once (no quadratic backtracking)', () => {
    for (const unit of ['<@U1|', '<a|', '<a']) {
      const text = unit.repeat(Math.ceil(100_000 / unit.length));
      const started = performance.now();
      expect(messageText(text, new Map()).length).toBeGreaterThan(0);
      expect(performance.now() - started, unit).toBeLessThan(1_000);
    }
  });
});
