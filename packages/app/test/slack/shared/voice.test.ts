import { describe, expect, it } from 'vitest';
import { lineText } from '../../../src/observe/logger.js';
import { voiceOf } from '../../../src/slack/shared/voice.js';

const user = { team_id: 'T1', user_id: 'U1' };

describe('voiceOf', () => {
  it("speaks in the person's Slack locale and zone", async () => {
    const voice = await voiceOf(
      { directory: { slackUser: async () => ({ locale: 'de-DE', tz: 'Europe/Berlin' }) as never } },
      user,
    );
    expect([voice.language, voice.locale, voice.timeZone]).toEqual([
      'de',
      'de-DE',
      'Europe/Berlin',
    ]);
  });

  it('answers in English, en-US and UTC when Slack cannot say who the person is', async () => {
    const warnings: string[] = [];
    const voice = await voiceOf(
      {
        directory: {
          slackUser: async () => {
            throw new Error('user_not_found');
          },
        },
      },
      user,
      { warn: (...args: unknown[]) => warnings.push(lineText(args)) },
    );
    expect([voice.language, voice.locale, voice.timeZone]).toEqual(['en', 'en-US', 'UTC']);
    expect(warnings).toEqual(['users.info for U1 failed, answering in English: user_not_found']);
  });

  it('falls back to UTC for a zone Intl does not know', async () => {
    const voice = await voiceOf(
      { directory: { slackUser: async () => ({ locale: 'ja-JP', tz: 'Mars/Olympus' }) as never } },
      user,
    );
    expect([voice.language, voice.timeZone]).toEqual(['ja', 'UTC']);
  });
});
