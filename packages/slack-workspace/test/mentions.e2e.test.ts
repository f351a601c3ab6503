// Mentions of the app and messages in its Messages tab, as the Events API delivers them: the
// app_mention event (with its thread), message.im, the app's own and other bots' messages, edits
// and deletions, each only when the manifest subscribes with the scope it needs.
import { afterEach, describe, expect, it } from 'vitest';
import { BOT_EVENTS, BOT_SCOPES, type EventRig, manifestText, startEventRig } from './event-rig.js';

let rig: EventRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const BOT = 'U0BOT0001';

describe('app_mention', () => {
  it('is sent for a mention in a channel, with the message event, and in a thread with thread_ts', async () => {
    rig = await startEventRig();
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: `<@${BOT}> 40 lunch <@U0BOB>` });
    const posted = ws.messages('C0001').at(-1)!;
    const [mention] = rig.events('app_mention');
    expect(mention).toEqual({
      type: 'app_mention',
      user: 'U0ANN',
      text: `<@${BOT}> 40 lunch <@U0BOB>`,
      ts: posted.ts,
      channel: 'C0001',
      team: 'T0001',
      client_msg_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_ts: posted.ts,
    });
    const envelope = rig
      .envelopes()
      .find((e) => (e.event as { type: string }).type === 'app_mention');
    expect(envelope).toMatchObject({
      type: 'event_callback',
      team_id: 'T0001',
      api_app_id: 'A0FAKEAPP',
      event_id: expect.stringMatching(/^Ev/),
      authorizations: [{ team_id: 'T0001', user_id: BOT, is_bot: true }],
    });
    expect(rig.events('message')).toMatchObject([
      { channel: 'C0001', channel_type: 'channel', user: 'U0ANN', ts: posted.ts },
    ]);

    await ws.act.message({
      as: 'U0BOB',
      channel: 'C0001',
      text: `<@${BOT}|split> me too`,
      thread_ts: posted.ts,
    });
    const reply = ws.messages('C0001').at(-1)!;
    expect(rig.events('app_mention').at(-1)).toMatchObject({
      user: 'U0BOB',
      ts: reply.ts,
      thread_ts: posted.ts,
      channel: 'C0001',
    });
    expect(rig.events('message').at(-1)).toMatchObject({
      thread_ts: posted.ts,
      parent_user_id: 'U0ANN',
    });
  });

  it('needs the subscription and app_mentions:read, and the bot in the channel', async () => {
    rig = await startEventRig(
      manifestText({ events: BOT_EVENTS.filter((e) => e !== 'app_mention') }),
    );
    await rig.ws.act.message({ as: 'U0ANN', channel: 'C0001', text: `<@${BOT}> hi` });
    expect(rig.events('app_mention')).toEqual([]);
    expect(rig.events('message')).toHaveLength(1);
    await rig.close();

    rig = await startEventRig(
      manifestText({ scopes: BOT_SCOPES.filter((s) => s !== 'app_mentions:read') }),
    );
    await rig.ws.act.message({ as: 'U0ANN', channel: 'C0001', text: `<@${BOT}> hi` });
    expect(rig.events('app_mention')).toEqual([]);
    await rig.close();

    rig = await startEventRig();
    rig.ws.addChannel({ id: 'C0AWAY', name: 'away', botIsMember: false });
    await rig.ws.act.message({ as: 'U0ANN', channel: 'C0AWAY', text: `<@${BOT}> hi` });
    expect(rig.events()).toEqual([]);
    expect(rig.ws.notices('U0ANN').map((n) => [n.tone, n.text, n.channel])).toEqual([
      ['info', 'You mentioned @Split, but it is not in #away, so it was not told.', 'C0AWAY'],
    ]);
  });
});

describe('an edit of a message that mentions the app', () => {
  it('is sent as message_changed and as a new app_mention with edited and the message’s ts', async () => {
    rig = await startEventRig();
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: `<@${BOT}> 40 lunch <@U0BOB>` });
    const posted = ws.messages('C0001').at(-1)!;
    await ws.act.editMessage({
      as: 'U0ANN',
      channel: 'C0001',
      ts: posted.ts,
      text: `<@${BOT}> 42 lunch <@U0BOB>`,
    });
    const [first, again] = rig.events('app_mention');
    const changed = rig.events('message').find((e) => e.subtype === 'message_changed')!;
    const editTs = (changed.message as { edited: { ts: string } }).edited.ts;
    expect(again).toEqual({
      type: 'app_mention',
      user: 'U0ANN',
      text: `<@${BOT}> 42 lunch <@U0BOB>`,
      ts: posted.ts,
      channel: 'C0001',
      team: 'T0001',
      client_msg_id: first!.client_msg_id,
      edited: { user: 'U0ANN', ts: editTs },
      event_ts: editTs,
    });
    expect(editTs > posted.ts).toBe(true);
    expect(first).not.toHaveProperty('edited');
    const ids = rig
      .envelopes()
      .filter((e) => (e.event as { type: string }).type === 'app_mention')
      .map((e) => e.event_id);
    expect(new Set(ids).size).toBe(2);
  });

  it('sends no app_mention once the edit takes the mention out, in a thread keeps thread_ts', async () => {
    rig = await startEventRig();
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'Lunch?' });
    const parent = ws.messages('C0001').at(-1)!;
    await ws.act.message({
      as: 'U0ANN',
      channel: 'C0001',
      text: `<@${BOT}> 40 lunch`,
      thread_ts: parent.ts,
    });
    const reply = ws.messages('C0001').at(-1)!;
    await ws.act.editMessage({
      as: 'U0ANN',
      channel: 'C0001',
      ts: reply.ts,
      text: `<@${BOT}> 41 lunch`,
    });
    expect(rig.events('app_mention').at(-1)).toMatchObject({
      ts: reply.ts,
      thread_ts: parent.ts,
      edited: { user: 'U0ANN' },
    });
    await ws.act.editMessage({ as: 'U0ANN', channel: 'C0001', ts: reply.ts, text: '41 lunch' });
    expect(rig.events('app_mention')).toHaveLength(2);
    expect(rig.events('message').filter((e) => e.subtype === 'message_changed')).toHaveLength(2);
  });

  it('in the Messages tab is message_changed alone, as message.im', async () => {
    rig = await startEventRig();
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: `<@${BOT}> 12 taxi` });
    const posted = ws.messages('U0ANN').at(-1)!;
    await ws.act.editMessage({ as: 'U0ANN', channel: 'D0ANN', ts: posted.ts, text: '13 taxi' });
    expect(rig.events('app_mention')).toEqual([]);
    expect(rig.events().at(-1)).toMatchObject({
      type: 'message',
      subtype: 'message_changed',
      channel: 'D0ANN',
      channel_type: 'im',
      message: { text: '13 taxi', user: 'U0ANN', ts: posted.ts, edited: { user: 'U0ANN' } },
      previous_message: { text: `<@${BOT}> 12 taxi`, ts: posted.ts },
    });
  });
});

describe('the Messages tab', () => {
  it('sends a person’s message there as message.im, never as app_mention', async () => {
    rig = await startEventRig();
    await rig.ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: `<@${BOT}> 12 taxi` });
    const posted = rig.ws.messages('U0ANN').at(-1)!;
    expect(rig.events()).toEqual([
      {
        type: 'message',
        text: `<@${BOT}> 12 taxi`,
        ts: posted.ts,
        user: 'U0ANN',
        team: 'T0001',
        client_msg_id: expect.any(String),
        channel: 'D0ANN',
        channel_type: 'im',
        event_ts: posted.ts,
      },
    ]);
  });

  it('is not written in when read-only or turned off, and message.im needs im:history', async () => {
    rig = await startEventRig(manifestText({ readOnly: true }));
    await expect(
      rig.ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: 'hello' }),
    ).rejects.toThrow('Sending messages to this app has been turned off.');
    await expect(
      rig.ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: '/split 4 tea' }),
    ).rejects.toThrow('Sending messages to this app has been turned off.');
    expect(rig.ws.pageState('U0ANN').app_home).toEqual({ home: true, messages: 'read_only' });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    expect(rig.events('app_home_opened')).toMatchObject([{ tab: 'messages', channel: 'D0ANN' }]);
    await rig.close();

    rig = await startEventRig(manifestText({ messagesTab: false }));
    expect(rig.ws.pageState('U0ANN').app_home).toEqual({ home: true, messages: 'off' });
    await expect(rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'messages' })).rejects.toThrow(
      'The app has no Messages tab.',
    );
    await rig.close();

    rig = await startEventRig(
      manifestText({ scopes: BOT_SCOPES.filter((s) => s !== 'im:history') }),
    );
    await rig.ws.act.message({ as: 'U0ANN', channel: 'D0ANN', text: 'hello' });
    expect(rig.events()).toEqual([]);
  });

  it('sends app_home_opened with tab messages each time the tab is opened', async () => {
    rig = await startEventRig();
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    expect(rig.events('app_home_opened').map((e) => [e.tab, e.user])).toEqual([
      ['messages', 'U0ANN'],
      ['messages', 'U0ANN'],
    ]);
  });
});

describe('messages the app must leave alone', () => {
  it('sends the app its own posts, edits and deletions as a bot’s messages', async () => {
    rig = await startEventRig();
    const posted = await rig.api('chat.postMessage', { channel: 'U0ANN', text: 'Hi Ann' });
    const [own] = await rig.waitForEvents((e) => e.ts === posted.ts);
    expect(own).toEqual({
      type: 'message',
      text: 'Hi Ann',
      ts: posted.ts,
      user: BOT,
      bot_id: 'B0BOT0001',
      app_id: 'A0FAKEAPP',
      team: 'T0001',
      bot_profile: {
        id: 'B0BOT0001',
        app_id: 'A0FAKEAPP',
        name: 'Split',
        deleted: false,
        team_id: 'T0001',
      },
      channel: 'D0ANN',
      channel_type: 'im',
      event_ts: posted.ts,
    });

    await rig.api('chat.update', { channel: 'D0ANN', ts: posted.ts, text: 'Hello Ann' });
    const [changed] = await rig.waitForEvents((e) => e.subtype === 'message_changed');
    expect(changed).toMatchObject({
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: 'D0ANN',
      channel_type: 'im',
      message: { text: 'Hello Ann', ts: posted.ts, bot_id: 'B0BOT0001', edited: { user: BOT } },
      previous_message: { text: 'Hi Ann', ts: posted.ts, bot_id: 'B0BOT0001' },
    });

    await rig.api('chat.delete', { channel: 'D0ANN', ts: posted.ts });
    const [deleted] = await rig.waitForEvents((e) => e.subtype === 'message_deleted');
    expect(deleted).toMatchObject({
      subtype: 'message_deleted',
      hidden: true,
      channel: 'D0ANN',
      deleted_ts: posted.ts,
      previous_message: { text: 'Hello Ann', bot_id: 'B0BOT0001' },
    });
  });

  it('sends other bots’ messages: another app’s with bot_id, a classic bot’s as bot_message', async () => {
    rig = await startEventRig();
    const other = await rig.ws.postAsOtherBot({
      channel: 'C0001',
      text: 'deploy done',
      user: 'U0OTHER',
      bot_id: 'B0OTHER',
    });
    const classic = await rig.ws.postAsOtherBot({
      channel: 'C0001',
      text: 'build failed',
      username: 'ci',
    });
    expect(rig.events()).toEqual([
      expect.objectContaining({
        ts: other.ts,
        user: 'U0OTHER',
        bot_id: 'B0OTHER',
        app_id: 'A0OTHERAPP',
        channel_type: 'channel',
      }),
      {
        type: 'message',
        subtype: 'bot_message',
        bot_id: 'B0OTHERBOT',
        username: 'ci',
        text: 'build failed',
        ts: classic.ts,
        channel: 'C0001',
        channel_type: 'channel',
        event_ts: classic.ts,
      },
    ]);
    expect(rig.events()[0]).not.toHaveProperty('subtype');
  });

  it('sends a person’s edit as message_changed and deletion as message_deleted', async () => {
    rig = await startEventRig();
    const { ws } = rig;
    await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'taxi 30' });
    const posted = ws.messages('C0001').at(-1)!;
    await ws.act.editMessage({ as: 'U0ANN', channel: 'C0001', ts: posted.ts, text: 'taxi 32' });
    expect(ws.messages('C0001').at(-1)).toMatchObject({ text: 'taxi 32', edited: true });
    await expect(
      ws.act.editMessage({ as: 'U0BOB', channel: 'C0001', ts: posted.ts, text: 'mine' }),
    ).rejects.toThrow('Only your own messages can be edited or deleted.');
    await ws.act.deleteMessage({ as: 'U0ANN', channel: 'C0001', ts: posted.ts });
    expect(ws.messages('C0001')).toEqual([]);
    expect(rig.events().map((e) => e.subtype ?? 'message')).toEqual([
      'message',
      'message_changed',
      'message_deleted',
    ]);
    expect(rig.events()[1]).toMatchObject({
      message: { text: 'taxi 32', user: 'U0ANN', edited: { user: 'U0ANN' } },
      previous_message: { text: 'taxi 30', user: 'U0ANN' },
    });
    expect(rig.events()[2]).toMatchObject({
      deleted_ts: posted.ts,
      previous_message: { text: 'taxi 32' },
    });
  });
});
