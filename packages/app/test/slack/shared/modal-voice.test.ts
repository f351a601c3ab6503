/**
 * The voice a modal opens in: the person's, when their profile comes within a moment; English
 * past it, so that a slow users.info never costs the trigger's 3 seconds.
 */
import { describe, expect, it } from 'vitest';
import { lineText } from '../../../src/observe/logger.js';
import { modalVoice } from '../../../src/slack/shared/modal.js';

const user = { team_id: 'T1', user_id: 'U0ANN' };

describe('modalVoice', () => {
  it("is the person's when their profile comes in time", async () => {
    const voice = await modalVoice(
      { directory: { slackUser: async () => ({ locale: 'ja-JP', tz: 'Asia/Tokyo' }) as never } },
      user,
    );
    expect([voice.language, voice.timeZone]).toEqual(['ja', 'Asia/Tokyo']);
  });

  it('is English once the budget is spent, and says so', async () => {
    const warnings: string[] = [];
    const started = performance.now();
    const voice = await modalVoice(
      { directory: { slackUser: () => new Promise(() => undefined) } },
      user,
      { warn: (...args: unknown[]) => warnings.push(lineText(args)) },
      50,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(voice.language).toBe('en');
    expect(warnings).toEqual(['the profile of U0ANN was slow to come: the form opens in English']);
  });
});
