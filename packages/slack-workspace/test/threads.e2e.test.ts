// Threads as Slack keeps them: chat.postMessage and chat.postEphemeral with thread_ts reply in a
// thread (a reply's ts means its thread), conversations.replies reads one back, and the page
// counts replies and shows a private reply only to its person.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_SCOPES, type EventRig, manifestText, startEventRig } from './event-rig.js';

let rig: EventRig;
beforeEach(async () => {
  rig = await startEventRig();
});
afterEach(() => rig.close());

async function thread() {
  const { ws } = rig;
  await ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'Dinner 60 tonight?' });
  const parent = ws.messages('C0001').at(-1)!;
  await ws.act.message({ as: 'U0BOB', channel: 'C0001', text: 'yes', thread_ts: parent.ts });
  const reply = ws.messages('C0001').at(-1)!;
  return { parent, reply };
}

describe('replies in a thread', () => {
  it('posts and posts privately into a thread; a reply’s ts means its thread', async () => {
    const { parent, reply } = await thread();
    const answer = await rig.api('chat.postMessage', {
      channel: 'C0001',
      thread_ts: reply.ts,
      text: 'Booked',
    });
    expect(answer).toMatchObject({ ok: true, message: { thread_ts: parent.ts } });
    const ephemeral = await rig.api('chat.postEphemeral', {
      channel: 'C0001',
      user: 'U0BOB',
      thread_ts: parent.ts,
      text: 'Only you owe',
    });
    expect(ephemeral.ok).toBe(true);
    const stored = rig.ws.messages('C0001').at(-1)!;
    expect(stored).toMatchObject({ thread_ts: parent.ts, ephemeralFor: 'U0BOB' });

    const bob = rig.ws.pageState('U0BOB').messages.C0001!;
    expect(bob.find((m) => m.ts === parent.ts)?.reply_count).toBe(3);
    expect(bob.filter((m) => m.thread_ts === parent.ts).map((m) => [m.text, m.ephemeral])).toEqual([
      ['yes', false],
      ['Booked', false],
      ['Only you owe', true],
    ]);
    const ann = rig.ws.pageState('U0ANN').messages.C0001!;
    expect(ann.find((m) => m.ts === parent.ts)?.reply_count).toBe(2);
    expect(ann.some((m) => m.text === 'Only you owe')).toBe(false);
  });

  it('refuses a thread_ts that names no message, as Slack does', async () => {
    expect(
      await rig.api('chat.postMessage', { channel: 'C0001', thread_ts: '1.000001', text: 'x' }),
    ).toEqual({ ok: false, error: 'invalid_thread_ts' });
    expect(
      await rig.api('chat.postEphemeral', {
        channel: 'C0001',
        user: 'U0ANN',
        thread_ts: '1.000001',
        text: 'x',
      }),
    ).toEqual({ ok: false, error: 'invalid_thread_ts' });
    await expect(
      rig.ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'x', thread_ts: '1.000001' }),
    ).rejects.toThrow('That thread is gone.');
  });

  it('keeps a deleted parent’s place while replies hang from it', async () => {
    const { parent } = await thread();
    await rig.ws.act.deleteMessage({ as: 'U0ANN', channel: 'C0001', ts: parent.ts });
    const seen = rig.ws.pageState('U0ANN').messages.C0001!;
    expect(seen.map((m) => [m.ts === parent.ts, m.deleted ?? false, m.text])).toEqual([
      [true, true, ''],
      [false, false, 'yes'],
    ]);
  });
});

describe('conversations.replies', () => {
  it('answers the parent with its thread facts, then the replies, from any ts of the thread', async () => {
    const { parent, reply } = await thread();
    await rig.api('chat.postEphemeral', {
      channel: 'C0001',
      user: 'U0ANN',
      thread_ts: parent.ts,
      text: 'private',
    });
    const answer = await rig.api('conversations.replies', { channel: 'C0001', ts: reply.ts });
    expect(answer).toEqual({
      ok: true,
      messages: [
        {
          type: 'message',
          text: 'Dinner 60 tonight?',
          user: 'U0ANN',
          ts: parent.ts,
          team: 'T0001',
          thread_ts: parent.ts,
          reply_count: 1,
          reply_users_count: 1,
          latest_reply: reply.ts,
          reply_users: ['U0BOB'],
          is_locked: false,
          subscribed: false,
        },
        {
          type: 'message',
          text: 'yes',
          user: 'U0BOB',
          ts: reply.ts,
          team: 'T0001',
          thread_ts: parent.ts,
          parent_user_id: 'U0ANN',
        },
      ],
      has_more: false,
      response_metadata: { next_cursor: '' },
    });
  });

  it('lists the files shared with a message, as Slack does', async () => {
    const { ws } = rig;
    await ws.act.message({
      as: 'U0ANN',
      channel: 'C0001',
      text: 'Dinner receipt',
      file: {
        name: 'receipt.png',
        mimetype: 'image/png',
        content: Buffer.from('89504e470d0a1a0a', 'hex'),
      },
    });
    const parent = ws.messages('C0001').at(-1)!;
    const answer = await rig.api('conversations.replies', { channel: 'C0001', ts: parent.ts });
    const [first] = answer.messages as { files?: Record<string, unknown>[] }[];
    expect(first!.files).toEqual([
      expect.objectContaining({
        id: parent.files![0],
        name: 'receipt.png',
        mimetype: 'image/png',
        size: 8,
      }),
    ]);
  });

  it('reads a message without replies as a thread of one, and pages with limit and cursor', async () => {
    await rig.ws.act.message({ as: 'U0ANN', channel: 'C0001', text: 'Taxi 23.50' });
    const lone = rig.ws.messages('C0001').at(-1)!;
    const one = await rig.api('conversations.replies', { channel: 'C0001', ts: lone.ts });
    expect(one.messages).toEqual([
      { type: 'message', text: 'Taxi 23.50', user: 'U0ANN', ts: lone.ts, team: 'T0001' },
    ]);

    for (const text of ['a', 'b', 'c'])
      await rig.ws.act.message({ as: 'U0BOB', channel: 'C0001', text, thread_ts: lone.ts });
    const first = await rig.api('conversations.replies', {
      channel: 'C0001',
      ts: lone.ts,
      limit: 2,
    });
    expect((first.messages as { text: string }[]).map((m) => m.text)).toEqual(['Taxi 23.50', 'a']);
    expect(first.has_more).toBe(true);
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = await rig.api('conversations.replies', {
      channel: 'C0001',
      ts: lone.ts,
      limit: 2,
      cursor,
    });
    expect((second.messages as { text: string }[]).map((m) => m.text)).toEqual(['b', 'c']);
    expect(second.has_more).toBe(false);
  });

  it('refuses an unknown thread, a channel the bot is not in, and a token without the scope', async () => {
    expect(await rig.api('conversations.replies', { channel: 'C0001', ts: '1.000001' })).toEqual({
      ok: false,
      error: 'thread_not_found',
    });
    rig.ws.addChannel({ id: 'C0AWAY', name: 'away', botIsMember: false });
    expect(await rig.api('conversations.replies', { channel: 'C0AWAY', ts: '1.000001' })).toEqual({
      ok: false,
      error: 'not_in_channel',
    });
    await rig.close();
    rig = await startEventRig(
      manifestText({ scopes: BOT_SCOPES.filter((s) => s !== 'channels:history') }),
    );
    expect(await rig.api('conversations.replies', { channel: 'C0001', ts: '1.000001' })).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'channels:history',
      provided: BOT_SCOPES.filter((s) => s !== 'channels:history').join(','),
    });
  });
});
