/**
 * What linking says in Slack, by value: the DM after linking, the line that replaces a Connect
 * prompt, and what Unlink leaves, in the reader's voice, with what the service named (account
 * names, e-mails) escaped in the blocks and the fallback text.
 */
import { describe, expect, it } from 'vitest';
import { LINKING_ACTIONS } from '../../../src/slack/ids.js';
import {
  linkedDm,
  parseUnlinkRef,
  promptConnectedMessage,
  unlinkedMessage,
  unlinkStaleMessage,
  whoamiMessage,
} from '../../../src/slack/linking/views.js';
import { connectPrompt } from '../../../src/slack/shared/notices.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';

const en = await voiceFor({ locale: 'en-US' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });

const HOSTILE = '<!channel> *Eve* & <https://evil.example|co>';

describe('the DM after linking', () => {
  it('names the linked account with its e-mail, and offers Unlink for that account', () => {
    const dm = linkedDm(en, { name: 'Ann Lee', email: 'ann@example.com', serviceUserId: 42 });
    expect(dm.text).toBe('Connected as Ann Lee');
    expect(dm.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: ':white_check_mark: Connected as *Ann Lee* (ann@example.com): expenses you book from Slack now go to this Splitwise account. You can now use `/split` anywhere.',
      },
    });
    const actions = dm.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; value: string; style: string; confirm: unknown }[];
    };
    expect(actions.elements).toHaveLength(1);
    const unlink = actions.elements[0]!;
    expect(unlink.action_id).toBe(LINKING_ACTIONS.unlink);
    expect(unlink.style).toBe('danger');
    expect(unlink.confirm).toBeDefined();
    expect(parseUnlinkRef(unlink.value)).toEqual({ s: 42 });
    expect(blockKitErrors(dm.blocks, 'message')).toEqual([]);
  });

  it('escapes what the service named, in the blocks and the fallback, and says what comes next', () => {
    const dm = linkedDm(en, { name: '<b> & co', serviceUserId: 7, pendingText: '40 lunch' });
    expect(JSON.stringify(dm.blocks[0])).toContain(
      'Connected as *&lt;b&gt; &amp; co*: expenses you book',
    );
    expect(JSON.stringify(dm.blocks[1])).toContain('Now carrying out `/split 40 lunch`');
    const hostile = linkedDm(en, { name: HOSTILE, email: 'a_b*c@x.example', serviceUserId: 7 });
    expect(`${hostile.text} ${blocksText(hostile.blocks)}`).not.toMatch(/<!|<https?:/);
    expect(hostile.text).toBe(
      'Connected as &lt;!channel&gt; \u200b*\u200bEve\u200b*\u200b &amp; &lt;https://evil.example|co&gt;',
    );
  });

  it('is written in German and Japanese', () => {
    const dm = linkedDm(de, { name: 'Ann Lee', serviceUserId: 42 });
    expect(dm.text).toBe('Verbunden als Ann Lee');
    expect(blocksText(dm.blocks)).toContain(
      'Verbunden als *Ann Lee*: Ausgaben, die du aus Slack buchst, gehen jetzt',
    );
    expect(JSON.stringify(dm.blocks)).toContain('"text":"Verknüpfung lösen"');
    expect(linkedDm(ja, { name: 'Ann Lee', serviceUserId: 42 }).text).toBe(
      'Ann Lee として接続しました',
    );
    expect(blocksText(linkedDm(de, { name: 'Ann', serviceUserId: 42 }).blocks)).toContain(
      'Probier `/split 40 Mittagessen`',
    );
    expect(
      blocksText(linkedDm(de, { name: 'Ann', serviceUserId: 42, failedText: '40 Taxi' }).blocks),
    ).toContain('Ich konnte `/split 40 Taxi` gerade nicht ausführen');
  });
});

describe('/split whoami', () => {
  const linked = { name: 'Ann Lee', serviceUserId: 4242, linkedAt: '2026-11-20T09:00:00.000Z' };

  it('names the account and the day it was linked, in the reader’s words and dates', () => {
    const said = whoamiMessage(en, linked);
    expect(said.text).toBe("You're connected as Ann Lee.");
    expect(blocksText(said.blocks)).toBe(
      "You're connected as *Ann Lee* (account #4242) since Fri, Nov 20, 2026.\n`/split disconnect` unlinks it and removes everything Split keeps about you.",
    );
    const german = whoamiMessage(de, linked);
    expect(german.text).toBe('Du bist als Ann Lee verbunden.');
    expect(blocksText(german.blocks)).toContain(
      'Du bist seit Fr., 20. Nov. 2026 als *Ann Lee* verbunden (Konto #4242).',
    );
    expect(blockKitErrors(german.blocks, 'message')).toEqual([]);
  });

  it('shows the account name as written', () => {
    const said = whoamiMessage(en, { ...linked, name: HOSTILE });
    expect(`${said.text} ${blocksText(said.blocks)}`).not.toMatch(/<!|<https?:|\*Eve\*/);
  });

  it('reads only the Unlink value it wrote', () => {
    expect(parseUnlinkRef('{"s":3}')).toEqual({ s: 3 });
    expect(parseUnlinkRef('{"s":"3"}')).toBeUndefined();
    expect(parseUnlinkRef('3')).toBeUndefined();
    expect(parseUnlinkRef(undefined)).toBeUndefined();
  });

  it('says what Unlink did, or that it had nothing left to do', () => {
    expect(unlinkedMessage(en, 'Ann Lee').text).toBe('Unlinked Ann Lee');
    expect(blockKitErrors(unlinkedMessage(en, 'Ann Lee').blocks, 'message')).toEqual([]);
    expect(unlinkedMessage(de, '<b>').text).toBe('Verknüpfung mit &lt;b&gt; gelöst');
    expect(unlinkStaleMessage(en, 'Neddy Moss').text).toBe(
      "That account is no longer linked: you're connected as Neddy Moss now. `/split disconnect` disconnects you and removes your data.",
    );
    expect(unlinkStaleMessage(de, undefined).text).toContain('Du bist nicht verbunden.');
  });
});

describe('a Connect prompt', () => {
  it('asks in the reader’s language, and is replaced by one line once connected', () => {
    const prompt = connectPrompt(de, {
      url: 'http://x/oauth/start?state=s',
      reason: 'first_time',
      pendingText: '40 Mittagessen',
    });
    expect(prompt.text).toBe(
      'Um Ausgaben aus Slack zu buchen, verbinde zuerst dein Splitwise-Konto. Das dauert nur eine Minute. Öffne: http://x/oauth/start?state=s',
    );
    expect(blocksText(prompt.blocks)).toContain(
      'Sobald du verbunden bist, führe ich `/split 40 Mittagessen` aus.',
    );
    expect(JSON.stringify(prompt.blocks)).toContain('"text":"Konto verbinden"');
    expect(blockKitErrors(prompt.blocks, 'message')).toEqual([]);
    const done = promptConnectedMessage(ja, HOSTILE);
    expect(done.text).toBe(
      ':white_check_mark: *&lt;!channel&gt; \u200b*\u200bEve\u200b*\u200b &amp; &lt;https://evil.example|co&gt;* として接続しました。',
    );
    expect(done.blocks).toHaveLength(1);
    expect(JSON.stringify(done.blocks)).not.toContain('"type":"actions"');
  });
});
