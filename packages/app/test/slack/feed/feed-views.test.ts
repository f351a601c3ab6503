/**
 * The feed's messages by value: in the voice of the feed's owner (words, amounts), and with the
 * service's names, descriptions and group names escaped in the blocks and in the fallback text,
 * so that nobody outside Slack can ping the channel or disguise a link through them.
 */
import { describe, expect, it } from 'vitest';
import { feedChangeMessage, feedStoppedMessage } from '../../../src/slack/feed/views.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US', tz: 'America/New_York' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });

const dinner = {
  verb: 'deleted' as const,
  who: 'Bob Ray',
  description: 'Dinner <3',
  cost: 6000,
  currency: 'EUR',
  group: 'Roommates',
};

/** Every text of a message: its fallback and its blocks' texts. */
const texts = (message: { text: string; blocks: unknown[] }) => [
  message.text,
  ...JSON.stringify(message.blocks)
    .match(/"text":"(?:[^"\\]|\\.)*"/g)!
    .map((t) => JSON.parse(t.slice(7)) as string),
];

describe('a feed change', () => {
  it('names a payment as one, in the reader’s words, whatever its description', () => {
    const paid = { ...dinner, verb: 'edited' as const, description: 'Payment', payment: true };
    expect(feedChangeMessage(en, paid).text).toBe('Bob Ray edited a payment €60.00 in Roommates.');
    expect(feedChangeMessage(de, paid).text).not.toContain('Payment');
    expect(feedChangeMessage(de, paid).text).toContain('eine Zahlung');
  });

  it('names the change, the person and the amount, pinging nobody', () => {
    expect(feedChangeMessage(en, dinner)).toEqual({
      text: 'Bob Ray deleted "Dinner &lt;3" €60.00 in Roommates.',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: 'Bob Ray deleted ~"Dinner &lt;3"~ €60.00 in *Roommates*.',
          },
        },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: 'Group activity · `/split feed off` stops these' }],
        },
      ],
    });
  });

  it('escapes what people outside Slack wrote, in the fallback text as in the blocks', () => {
    const message = feedChangeMessage(en, {
      verb: 'added',
      who: '<!channel> Mallory',
      description: '<!here> free pizza <https://evil.example|your-receipt> *now* & _here_',
      cost: 100,
      currency: 'USD',
      group: '<!everyone> ~Crew~',
    });
    expect(message.text).toBe(
      '&lt;!channel&gt; Mallory added "&lt;!here&gt; free pizza &lt;https://evil.example|your-receipt&gt; \u200b*\u200bnow\u200b*\u200b &amp; \u200b_\u200bhere\u200b_\u200b" $1.00 in &lt;!everyone&gt; \u200b~\u200bCrew\u200b~\u200b.',
    );
    for (const text of texts(message)) {
      expect(text).not.toMatch(/<!|<https?:|<@/);
      expect(text).not.toMatch(/(^|[\s"])\*now\*/);
    }
    expect(message.blocks[0]).toMatchObject({
      text: { text: expect.stringContaining('*"&lt;!here&gt; free pizza') },
    });
  });

  it('says "Someone" in the reader\'s language when the service names nobody', () => {
    expect(feedChangeMessage(en, { ...dinner, verb: 'edited', who: undefined }).text).toBe(
      'Someone edited "Dinner &lt;3" €60.00 in Roommates.',
    );
    expect(feedChangeMessage(de, { ...dinner, verb: 'added', who: undefined }).text).toBe(
      'Jemand hat „Dinner &lt;3“ (60,00\u00a0€) in Roommates hinzugefügt.',
    );
  });

  it("is written in the owner's language and formats: German", () => {
    const message = feedChangeMessage(de, { ...dinner, cost: 123456 });
    expect(message.text).toBe(
      'Bob Ray hat „Dinner &lt;3“ (1.234,56\u00a0€) in Roommates gelöscht.',
    );
    expect(texts(message)).toContain(
      'Bob Ray hat ~„Dinner &lt;3“~ (1.234,56\u00a0€) in *Roommates* gelöscht.',
    );
    expect(texts(message)).toContain(
      'Gruppenaktivität · `/split feed off` beendet diese Nachrichten',
    );
  });

  it("is written in the owner's language and formats: Japanese", () => {
    const message = feedChangeMessage(ja, {
      ...dinner,
      verb: 'added',
      cost: 1200,
      currency: 'JPY',
    });
    expect(message.text).toBe(
      'Bob Ray が Roommates に 「Dinner &lt;3」（￥1,200）を追加しました。',
    );
  });
});

describe('a stopped feed', () => {
  it('says once why it stopped, mentioning the owner', () => {
    expect(feedStoppedMessage(en, 'U0ANN', 'Roommates').text).toBe(
      'The activity feed of *Roommates* here has stopped: <@U0ANN>, who turned it on, no longer has a Splitwise account connected. `/split feed on` starts it again with yours.',
    );
    expect(feedStoppedMessage(de, 'U0ANN', 'Tom & <Jerry>').text).toContain(
      'Der Aktivitäts-Feed von *Tom &amp; &lt;Jerry&gt;* in diesem Channel ist gestoppt: <@U0ANN>',
    );
  });
});
