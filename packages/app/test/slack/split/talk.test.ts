/**
 * `/split` written as a message, at the listeners: what a mention and a DM keep as the `/split`
 * job (the text without the app's mention, where to answer), what each leaves alone, a redelivery
 * of the same event, the form's offer and its button value, and the Messages tab's greeting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSplitThis } from '../../../src/core/command/index.js';
import { createOffers } from '../../../src/slack/shared/offers.js';
import { putActingVoice } from '../../../src/slack/shared/voice.js';
import {
  encodeFormRef,
  formOffer,
  formOfferClicked,
  offeredFormRef,
  parseFormRef,
} from '../../../src/slack/split/form-offer.js';
import { greetingMessage, messagesTabOpened } from '../../../src/slack/split/greeting.js';
import { appMentioned, commandText, directMessage } from '../../../src/slack/split/talk.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  type HandlerWorld,
  recorder,
  startHandlerWorld,
  TEAM,
} from '../../support/handler-world.js';
import { testOffers } from '../../support/offers.js';
import { voices } from '../../support/voice-support.js';

const BOT = 'U0BOT0001';

let world: HandlerWorld;
beforeAll(async () => {
  world = await startHandlerWorld();
});
afterAll(() => world?.close());

/** A listener's arguments for `event`, as Bolt hands them (each listener reads what it types). */
function eventArgs(event: Record<string, unknown>, event_id: string): never {
  const args = {
    event,
    body: { team_id: TEAM, event_id, event },
    context: { teamId: TEAM, botUserId: BOT, isEnterpriseInstall: false },
    client: world.client,
    logger: world.logger,
  };
  // As the app's global middleware does before any listener.
  putActingVoice(world.deps, args);
  return args as never;
}

const splitJobs = () => world.ran.filter((j) => j.kind === 'split').map((j) => j.payload);

describe('the text of a message to the app', () => {
  it('loses every mention of the app, labelled or not, and nothing else', () => {
    expect(commandText(`<@${BOT}> 40 lunch <@U0ANN>`, BOT)).toBe('40 lunch <@U0ANN>');
    expect(commandText(`40 lunch <@${BOT}|split>  <@U0ANN>`, BOT)).toBe('40 lunch <@U0ANN>');
    expect(commandText(`<@${BOT}>`, BOT)).toBe('');
    expect(commandText('<@U0BOT00012> hi', BOT)).toBe('<@U0BOT00012> hi');
  });

  it('"split this", in any of the app’s languages, is the empty command that offers the form', () => {
    for (const phrase of [
      'split this',
      'Split this!',
      'teile das',
      'partage ça',
      'divide esto',
      'dividir isso',
      'これを割り勘',
    ]) {
      expect(isSplitThis(phrase), phrase).toBe(true);
      expect(commandText(`<@${BOT}> ${phrase}`, BOT)).toBe('');
    }
    expect(isSplitThis('split this 40')).toBe(false);
    expect(commandText(`<@${BOT}> split this 40 <@U0ANN>`, BOT)).toBe('split this 40 <@U0ANN>');
  });
});

describe('app_mention', () => {
  it('keeps a mention in a thread as the /split job answered in that thread, once per event', async () => {
    const before = splitJobs().length;
    const event = {
      type: 'app_mention',
      user: 'U0ANN',
      text: `<@${BOT}> 40 lunch <@U0BOB>`,
      ts: '1700000100.000200',
      thread_ts: '1700000000.000100',
      channel: 'C0001',
    };
    await appMentioned(world.deps)(eventArgs(event, 'Ev0MENTION1'));
    await appMentioned(world.deps)(eventArgs(event, 'Ev0MENTION1'));
    await world.settled();
    expect(splitJobs().slice(before)).toEqual([
      {
        team_id: TEAM,
        user_id: 'U0ANN',
        channel_id: 'C0001',
        text: '40 lunch <@U0BOB>',
        response_url: undefined,
        typed: { kind: 'mention', thread_ts: '1700000000.000100', in_thread: true },
      },
    ]);
    expect(world.logger.lines.join('\n')).toContain(
      'Ev0MENTION1: message 1700000100.000200 already carried out',
    );
  });

  it('threads the answer to a mention of its own under it; another app’s mention is left alone', async () => {
    const before = splitJobs().length;
    const own = { type: 'app_mention', user: 'U0ANN', text: `<@${BOT}> balance`, channel: 'C0001' };
    await appMentioned(world.deps)(eventArgs({ ...own, ts: '1700000200.000100' }, 'Ev0MENTION2'));
    await appMentioned(world.deps)(
      eventArgs({ ...own, ts: '1700000300.000100', bot_id: 'B0OTHER' }, 'Ev0MENTION3'),
    );
    await world.settled();
    expect(splitJobs().slice(before)).toMatchObject([
      { text: 'balance', typed: { kind: 'mention', thread_ts: '1700000200.000100' } },
    ]);
  });
});

describe('an edited message', () => {
  const said = (channel: string) =>
    world.calls
      .filter((c) => /^chat\.post(Ephemeral|Message)$/.test(c.method) && c.args.channel === channel)
      .map((c) => ({
        method: c.method,
        user: c.args.user,
        thread_ts: c.args.thread_ts,
        text: c.args.text,
      }));
  const mention = {
    type: 'app_mention',
    user: 'U0ANN',
    text: `<@${BOT}> 40 lunch <@U0BOB>`,
    ts: '1700000600.000100',
    channel: 'C0EDIT',
  };

  it('books nothing more when a mention comes again edited, and its author is told once, privately in the thread', async () => {
    const before = splitJobs().length;
    await appMentioned(world.deps)(eventArgs(mention, 'Ev0EDIT0'));
    const edit = (n: number) => ({
      ...mention,
      text: `<@${BOT}> 42 lunch <@U0BOB>`,
      edited: { user: 'U0ANN', ts: `170000070${n}.000100` },
      event_ts: `170000070${n}.000100`,
    });
    await appMentioned(world.deps)(eventArgs(edit(1), 'Ev0EDIT1'));
    await appMentioned(world.deps)(eventArgs(edit(2), 'Ev0EDIT2'));
    await world.settled();
    expect(splitJobs().slice(before)).toMatchObject([{ text: '40 lunch <@U0BOB>' }]);
    expect(said('C0EDIT')).toEqual([
      {
        method: 'chat.postEphemeral',
        user: 'U0ANN',
        thread_ts: mention.ts,
        text: expect.stringContaining('use *Edit* on the expense'),
      },
    ]);
  });

  it('books nothing from a mention whose message was carried out already, edited or not', async () => {
    const before = splitJobs().length;
    const again = { ...mention, ts: '1700000800.000100' };
    await appMentioned(world.deps)(eventArgs(again, 'Ev0SAME1'));
    // The same message under a new event id, with no `edited`.
    await appMentioned(world.deps)(eventArgs(again, 'Ev0SAME2'));
    await world.settled();
    expect(splitJobs().slice(before)).toHaveLength(1);
  });

  it('in the DM books nothing and is told once there; a preview added to it is no edit', async () => {
    const before = splitJobs().length;
    const original = {
      type: 'message',
      user: 'U0ANN',
      text: '12 taxi',
      ts: '1700000900.000100',
    };
    const changed = (n: number, edited: boolean) => ({
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: 'D0EDIT',
      channel_type: 'im',
      ts: `170000100${n}.000100`,
      message: {
        ...original,
        text: '13 taxi',
        ...(edited ? { edited: { user: 'U0ANN', ts: `170000100${n}.000100` } } : {}),
      },
      previous_message: original,
    });
    await directMessage(world.deps)(eventArgs(changed(0, false), 'Ev0DMEDIT0'));
    await directMessage(world.deps)(eventArgs(changed(1, true), 'Ev0DMEDIT1'));
    await directMessage(world.deps)(eventArgs(changed(2, true), 'Ev0DMEDIT2'));
    await world.settled();
    expect(splitJobs().slice(before)).toEqual([]);
    expect(said('D0EDIT')).toEqual([
      {
        method: 'chat.postMessage',
        user: undefined,
        thread_ts: undefined,
        text: expect.stringContaining('use *Edit* on the expense'),
      },
    ]);
  });

  it('is told in the author’s language', async () => {
    for (const voice of Object.values(voices)) {
      const text = voice.t('talk.edit_not_read');
      expect(text.length).toBeGreaterThan(40);
      expect(text).toContain(`*${voice.t('expense.edit')}*`);
    }
  });
});

describe('a message longer than a command', () => {
  it('is refused for its length, unread and with nothing kept', async () => {
    const before = splitJobs().length;
    const text = `<@${BOT}> 40 lunch ${'。'.repeat(40_000 - 22)}`;
    expect(text.length).toBe(40_000);
    await appMentioned(world.deps)(
      eventArgs(
        {
          ...{ type: 'app_mention', user: 'U0ANN', channel: 'C0LONG' },
          text,
          ts: '1700001100.000100',
        },
        'Ev0LONG1',
      ),
    );
    await world.settled();
    expect(splitJobs().slice(before)).toEqual([]);
    const refusal = world.calls.find((c) => c.args.channel === 'C0LONG');
    expect(refusal?.args.text).toBe(
      'That is 40,000 characters: /split reads at most 4,000. Shorten it to the amount, the people and a short description.',
    );
  });
});

describe('message.im', () => {
  const dm = (fields: Record<string, unknown>) => ({
    type: 'message',
    channel: 'D0ANN',
    channel_type: 'im',
    user: 'U0ANN',
    text: '12 taxi <@U0BOB>',
    ts: '1700000400.000100',
    ...fields,
  });

  it('keeps a person’s message as the /split job answered in the DM, in its thread if any', async () => {
    const before = splitJobs().length;
    await directMessage(world.deps)(eventArgs(dm({}), 'Ev0DM1'));
    await directMessage(world.deps)(
      eventArgs(dm({ ts: '1700000500.000100', thread_ts: '1700000400.000100' }), 'Ev0DM2'),
    );
    await world.settled();
    expect(splitJobs().slice(before)).toMatchObject([
      { channel_id: 'D0ANN', text: '12 taxi <@U0BOB>', typed: { kind: 'im' } },
      {
        channel_id: 'D0ANN',
        typed: { kind: 'im', thread_ts: '1700000400.000100', in_thread: true },
      },
    ]);
    expect((splitJobs().at(-2) as { typed: object }).typed).toEqual({ kind: 'im' });
  });

  it('leaves its own messages, other bots’, edits, deletions, other subtypes and channels alone', async () => {
    const before = splitJobs().length;
    const ignored = [
      dm({ user: BOT, bot_id: 'B0BOT0001' }),
      dm({ user: 'U0OTHER', bot_id: 'B0OTHER' }),
      dm({ subtype: 'bot_message', user: undefined, bot_id: 'B0HOOK' }),
      dm({ subtype: 'message_changed', user: undefined }),
      dm({ subtype: 'message_deleted', user: undefined }),
      dm({ subtype: 'file_share' }),
      dm({ channel: 'C0001', channel_type: 'channel' }),
    ];
    let n = 0;
    for (const event of ignored) await directMessage(world.deps)(eventArgs(event, `Ev0IGN${n++}`));
    await world.settled();
    expect(splitJobs().slice(before)).toEqual([]);
  });
});

describe('the form’s offer', () => {
  it('carries where the form belongs, read back with its schema', () => {
    const ref = { channel: 'C0001', thread_ts: '1700000000.000100', fromThread: true };
    expect(parseFormRef(encodeFormRef(ref))).toEqual(ref);
    const dmRef = { channel: 'D0ANN', thread_ts: undefined, fromThread: false };
    expect(parseFormRef(encodeFormRef(dmRef))).toEqual(dmRef);
    for (const bad of [
      undefined,
      'nope',
      '{"c":"C0001","p":1}',
      '{"c":"#general"}',
      '{"c":"C0001","t":"yesterday"}',
    ])
      expect(parseFormRef(bad), String(bad)).toBeUndefined();
  });

  it('is valid Block Kit in every language, the button labelled in plain text', () => {
    for (const voice of Object.values(voices)) {
      const offer = formOffer(
        voice,
        { channel: 'C0001', thread_ts: '1.1', fromThread: true },
        'signed value',
      );
      expect(blockKitErrors(offer.blocks, 'message')).toEqual([]);
    }
    expect(
      JSON.stringify(
        formOffer(
          voices.de,
          { channel: 'C0001', thread_ts: undefined, fromThread: false },
          'signed value',
        ).blocks,
      ),
    ).toContain('Formular öffnen');
  });

  /** Clicks the offer as `user` in `channel`, with `value`; what opened, and what they read. */
  async function clickOffer(value: string, user = 'U0ANN', channel = 'C0001') {
    const opened: Record<string, unknown>[] = [];
    const rec = recorder();
    const args = {
      ack: rec.ack,
      respond: rec.respond,
      action: { type: 'button', action_id: 'talk_open_form', value },
      body: {
        type: 'block_actions',
        trigger_id: '123.456.abc',
        user: { id: user, team_id: TEAM },
        team: { id: TEAM },
        channel: { id: channel },
      },
      context: { teamId: TEAM, isEnterpriseInstall: false },
      client: world.client,
      logger: world.logger,
    };
    putActingVoice(world.deps, args);
    await formOfferClicked(world.deps, async (request) => {
      opened.push({ ...request, message: await request.readMessage?.() });
    })(args as never);
    expect(rec.acks).toEqual([undefined]);
    return { opened, told: rec.responses.map((r) => JSON.stringify(r)).join('\n') };
  }

  const threadRef = { channel: 'C0001', thread_ts: '1700000000.000100', fromThread: true };
  const repliesRead = () => world.calls.filter((c) => c.method === 'conversations.replies').length;

  it('opens the form with the click’s trigger, for the thread, and reads the first message then', async () => {
    const value = offeredFormRef(world.deps.offers, { team_id: TEAM, user_id: 'U0ANN' }, threadRef);
    const { opened } = await clickOffer(value);
    expect(opened).toMatchObject([
      {
        trigger_id: '123.456.abc',
        user: { team_id: TEAM, user_id: 'U0ANN' },
        channel: 'C0001',
        thread_ts: '1700000000.000100',
      },
    ]);
    expect(world.calls.filter((c) => c.method === 'conversations.replies').at(-1)?.args).toEqual({
      channel: 'C0001',
      ts: '1700000000.000100',
      limit: 1,
    });
  });

  it('acts only on a value it offered to the clicker, where it offered it', async () => {
    const before = repliesRead();
    const forAnn = offeredFormRef(
      world.deps.offers,
      { team_id: TEAM, user_id: 'U0ANN' },
      threadRef,
    );
    // Another person's DM with the app, named in a value Ann's client made up.
    const made = encodeFormRef({
      channel: 'D0BOB',
      thread_ts: '1700000000.000200',
      fromThread: true,
    });
    const tries = [
      { value: made, user: 'U0ANN', channel: 'D0BOB' },
      { value: made, user: 'U0ANN', channel: 'C0001' },
      // Ann's offer, clicked by Bob's client, or sent from another conversation.
      { value: forAnn, user: 'U0BOB', channel: 'C0001' },
      { value: forAnn, user: 'U0ANN', channel: 'C0002' },
      // Ann's offer with its channel changed and the signature kept.
      { value: forAnn.replace('C0001', 'D0BOB'), user: 'U0ANN', channel: 'D0BOB' },
    ];
    for (const t of tries) {
      const { opened, told } = await clickOffer(t.value, t.user, t.channel);
      expect(opened, JSON.stringify(t)).toEqual([]);
      expect(told).toContain('This button is damaged');
    }
    expect(repliesRead()).toBe(before);
  });

  it('tells the clicker an offer more than a day old is too old, and reads nothing', async () => {
    const before = repliesRead();
    const ann = { team_id: TEAM, user_id: 'U0ANN' };
    const yesterday = createOffers(world.store.signer, () => new Date(Date.now() - 25 * 3600_000));
    const { opened, told } = await clickOffer(offeredFormRef(yesterday, ann, threadRef));
    expect(opened).toEqual([]);
    expect(told).toContain('more than a day old');
    // Under another key (another deployment's, or made up) it is no offer at all.
    const { told: foreign } = await clickOffer(offeredFormRef(testOffers(), ann, threadRef));
    expect(foreign).toContain('This button is damaged');
    expect(repliesRead()).toBe(before);
  });
});

describe('the Messages tab’s greeting', () => {
  it('shows three examples with the reader’s people, in their language', () => {
    const message = greetingMessage(voices.fr, { app: BOT, people: ['U0BOB', 'U0CHO'] });
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    const text = JSON.stringify(message.blocks);
    // French examples, in French words: the same forms as the French /split help.
    expect(text).toContain('• 40 déjeuner <@U0BOB> — ');
    expect(text).toContain('• 12,50 € taxi <@U0BOB> <@U0CHO> hier — ');
    expect(text).toContain('• solde — ');
    expect(text).not.toContain('lunch');
    expect(text).toContain(`<@${BOT}> 40 déjeuner <@U0BOB>`);
    expect(text).toContain('Bonjour');
  });

  it('names nobody outside the workspace, and speaks each language’s own examples', () => {
    const alone = JSON.stringify(greetingMessage(voices.de, { app: BOT, people: [] }).blocks);
    expect(alone).not.toMatch(/@(?:ann|bob|cho)\b/);
    expect(alone).toContain('40 Mittagessen @jemand');
    expect(alone).toContain('Taxi @jemand @jemand-anderes gestern');
    const one = JSON.stringify(greetingMessage(voices.pt, { app: BOT, people: ['U0BOB'] }).blocks);
    expect(one).toContain('40 almoço <@U0BOB>');
    expect(one).toContain('táxi <@U0BOB> @outra-pessoa ontem');
    expect(one).not.toMatch(/@(?:ann|bob|cho)\b/);
  });

  it('greets once per person, on the Messages tab only', async () => {
    const posts = () => world.calls.filter((c) => c.method === 'chat.postMessage');
    const before = posts().length;
    const open = (tab: string, user = 'U0GREET') => {
      const event = { type: 'app_home_opened', user, channel: 'D0GREET', tab };
      return messagesTabOpened(world.deps)(eventArgs(event, `Ev${user}${tab}`));
    };
    await open('home');
    await open('messages');
    await world.settled();
    await open('messages');
    await world.settled();
    expect(
      posts()
        .slice(before)
        .map((c) => c.args.channel),
    ).toEqual(['D0GREET']);
    expect(await world.deps.claims.claim(`greeted:${TEAM}:U0GREET`, 1000)).toBe(false);
  });
});
