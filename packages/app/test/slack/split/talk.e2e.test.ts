/**
 * `/split` written as a message, end to end: people post in the simulated workspace (started from
 * manifest.yml, so with its events and scopes), the workspace sends the app `app_mention` and
 * `message.im`, and the app books at the emulator and answers where the message was written: in
 * the mention's thread (a mention of its own gets its answer threaded under it), or in the DM.
 */
import { readFileSync } from 'node:fs';
import { createUser } from '@split/service-emulator/testing';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  connectButtonUrl,
  consentDance,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';
import { element, formOpened } from '../../support/modal-support.js';

const CHANNEL = 'C0001';
const DM = 'D0ANN';
const BOT = 'U0BOT0001';
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { LOG_LEVEL: 'info' } });
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob', locale: 'de-DE', tz: 'Europe/Berlin' });
}, 30_000);
afterAll(() => h?.close());

/** A person posts in the channel (in a thread when given); returns the message kept. */
async function post(as: string, text: string, thread_ts?: string, channel = CHANNEL) {
  await h.slack.act.message({ as, channel, text, ...(thread_ts ? { thread_ts } : {}) });
  return h.slack.messages(channel).at(-1)!;
}

/** The app's messages in a thread (ephemeral ones included), once `count` are there. */
async function answersIn(thread_ts: string, count: number, channel = CHANNEL) {
  const answers = () =>
    h.slack.messages(channel).filter((m) => m.user === BOT && m.thread_ts === thread_ts);
  await expect.poll(() => answers().length, { timeout: 8_000 }).toBeGreaterThanOrEqual(count);
  await h.app.deps.work.idle();
  for (const m of answers()) expect(blockKitErrors(m.blocks ?? [], 'message')).toEqual([]);
  return answers();
}

async function creates(): Promise<number> {
  const counts = await h.serviceCounts();
  return Object.entries(counts)
    .filter(([route]) => route.includes('create_expense'))
    .reduce((sum, [, n]) => sum + n, 0);
}

describe('a mention', () => {
  it('in a thread books once and answers everyone in that thread', async () => {
    const before = await creates();
    const parent = await post('U0ANN', 'Lunch at the corner place?');
    await post('U0ANN', `<@${BOT}> 40 lunch <@U0BOB>`, parent.ts);
    const [answer, ...more] = await answersIn(parent.ts, 1);
    expect(more).toEqual([]);
    expect(answer!.ephemeralFor).toBeUndefined();
    expect(blocksText(answer!.blocks)).toContain('lunch');
    expect(JSON.stringify(answer!.blocks)).toContain('<@U0BOB>');
    expect((await creates()) - before).toBe(1);
    // Nothing went to the channel itself.
    expect(h.slack.messages(CHANNEL).filter((m) => m.user === BOT && !m.thread_ts)).toEqual([]);
  });

  it('of its own gets its answer threaded under it', async () => {
    const mention = await post('U0ANN', `<@${BOT}|split> 12 taxi <@U0BOB>`);
    const [answer] = await answersIn(mention.ts, 1);
    expect(blocksText(answer!.blocks)).toContain('taxi');
  });

  it('answers balance and help privately, in the thread', async () => {
    const parent = await post('U0BOB', 'Wer schuldet wem?');
    await post('U0ANN', `<@${BOT}> balance`, parent.ts);
    const [balance] = await answersIn(parent.ts, 1);
    expect(balance!.ephemeralFor).toBe('U0ANN');
    expect(blocksText(balance!.blocks)).toMatch(/Bob/);
    await post('U0ANN', `<@${BOT}> help`, parent.ts);
    const [, help] = await answersIn(parent.ts, 2);
    expect(help!.ephemeralFor).toBe('U0ANN');
    expect(blocksText(help!.blocks)).toContain('/split 40 lunch');
    // Ann sees both in the thread; Bob sees neither.
    const seen = (as: string) =>
      (h.slack.pageState(as).messages[CHANNEL] ?? []).filter(
        (m) => m.sender.id === BOT && m.thread_ts === parent.ts,
      );
    expect(seen('U0ANN')).toHaveLength(2);
    expect(seen('U0BOB')).toEqual([]);
  });

  it('of a de-DE person is answered in German, amounts their way', async () => {
    // Bob's account at the service is in US dollars, which German writes after the amount.
    const parent = await post('U0BOB', 'Pizza gestern');
    await post('U0BOB', `<@${BOT}> 20 Pizza <@U0ANN>`, parent.ts);
    const [booked] = await answersIn(parent.ts, 1);
    const text = blocksText(booked!.blocks).replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain('Pizza · 20,00 $');
    expect(text).toContain('*Bezahlt von*');
    await post('U0BOB', `<@${BOT}> hilfe`, parent.ts);
    const [, help] = await answersIn(parent.ts, 2);
    expect(blocksText(help!.blocks)).toContain('Split: was du eingeben kannst');
  });

  it('"split this" in a thread offers the form, filled in from the thread’s first message', async () => {
    const parent = await post('U0BOB', 'Taxi to the airport 35 EUR');
    await post('U0ANN', `<@${BOT}> split this`, parent.ts);
    const [offer] = await answersIn(parent.ts, 1);
    expect(offer!.ephemeralFor).toBe('U0ANN');
    const button = (offer!.blocks as { elements?: Record<string, unknown>[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'talk_open_form')!;
    // Signed for Ann: what her client sends back is acted on only because the app offered it.
    const [ref] = String(button.value).split('~');
    expect(JSON.parse(ref!)).toEqual({ c: CHANNEL, t: parent.ts, p: 1 });
    const since = Date.now();
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'message', channel: CHANNEL, ts: offer!.ts },
      action: { type: 'button', action_id: button.action_id, value: button.value },
    });
    const { view, meta } = await formOpened(h, since);
    expect(element(view, 'form_description').initial_value).toBe('Taxi to the airport');
    expect(element(view, 'form_amount').initial_value).toBe('35.00');
    expect(element(view, 'form_participants').initial_users).toEqual(['U0ANN', 'U0BOB']);
    // The expense, once submitted, goes to the thread.
    expect(meta).toContain(parent.ts);
  });

  it('"split this" under a photographed bill offers the photo as the receipt', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a bill')]);
    await h.slack.act.message({
      as: 'U0BOB',
      channel: CHANNEL,
      text: 'Dinner 48 EUR',
      file: { name: 'bill.png', mimetype: 'image/png', content: png },
    });
    const parent = h.slack.messages(CHANNEL).at(-1)!;
    await post('U0ANN', `<@${BOT}> split this`, parent.ts);
    const [offer] = await answersIn(parent.ts, 1);
    const button = (offer!.blocks as { elements?: Record<string, unknown>[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'talk_open_form')!;
    const since = Date.now();
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'message', channel: CHANNEL, ts: offer!.ts },
      action: { type: 'button', action_id: button.action_id, value: button.value },
    });
    const { view } = await formOpened(h, since);
    expect(element(view, 'form_amount').initial_value).toBe('48.00');
    const receipt = element(view, 'form_message_receipt') as {
      options: { value: string }[];
      initial_options?: { value: string }[];
    };
    expect(receipt.options.map((o) => o.value)).toEqual([parent.files![0]]);
  });

  it('of someone not connected asks them to, then books in the thread once they are', async () => {
    const email = `cho.${Date.now().toString(36)}@example.com`;
    h.addSlackUser({ slackId: 'U0CHO', first_name: 'Cho', email });
    await createUser(h.emu.url, { email, first_name: 'Cho' });
    const parent = await post('U0ANN', 'Breakfast?');
    await post('U0CHO', `<@${BOT}> 18 breakfast <@U0ANN>`, parent.ts);
    const [prompt] = await answersIn(parent.ts, 1);
    expect(prompt!.ephemeralFor).toBe('U0CHO');
    // What will be carried out names Ann as a slash command would, not by her id.
    const promised = blocksText(prompt!.blocks);
    expect(promised).toMatch(/`\/split 18 breakfast @\w/);
    expect(promised).not.toContain('U0ANN');
    const done = await consentDance(h, connectButtonUrl(prompt!.blocks), {
      email,
      slackId: 'U0CHO',
    });
    expect(done.page.status).toBe(200);
    const [, booked] = await answersIn(parent.ts, 2);
    expect(booked!.ephemeralFor).toBeUndefined();
    expect(blocksText(booked!.blocks)).toContain('breakfast');
  });

  it('alone offers the empty form for the thread under it', async () => {
    const mention = await post('U0ANN', `<@${BOT}>`);
    const [offer] = await answersIn(mention.ts, 1);
    expect(offer!.ephemeralFor).toBe('U0ANN');
    expect(JSON.stringify(offer!.blocks)).toContain('Open the form');
    expect(JSON.stringify(offer!.blocks)).not.toContain('\\"p\\"');
  });
});

describe('the Messages tab', () => {
  const dmAnswers = () => h.slack.messages(DM).filter((m) => m.user === BOT);

  it('greets the first time only, with three examples', async () => {
    await h.slack.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    await expect.poll(() => dmAnswers().length, { timeout: 5_000 }).toBe(1);
    const [greeting] = dmAnswers();
    expect(blockKitErrors(greeting!.blocks ?? [], 'message')).toEqual([]);
    const text = blocksText(greeting!.blocks);
    expect(text).toContain(`<@${BOT}>`);
    const examples = text.split('\n').filter((line) => line.startsWith('• '));
    expect(examples).toHaveLength(3);
    expect(examples[0]).toMatch(/^• 40 lunch (@someone|<@U0BOB>) — you paid 40/);
    expect(examples[2]).toMatch(/^• balance — /);
    await h.slack.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    await h.slack.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await h.app.deps.work.idle();
    expect(dmAnswers()).toHaveLength(1);
  });

  it('books a message once and answers in the DM; an edit books nothing, a deletion is left alone', async () => {
    const before = await creates();
    const already = dmAnswers().length;
    const mine = await post('U0ANN', `30 dinner <@U0BOB>`, undefined, DM);
    await expect.poll(() => dmAnswers().length, { timeout: 8_000 }).toBe(already + 1);
    const answer = dmAnswers().at(-1)!;
    expect(answer.thread_ts).toBeUndefined();
    expect(blocksText(answer.blocks)).toContain('dinner');
    expect((await creates()) - before).toBe(1);

    await h.slack.act.editMessage({ as: 'U0ANN', channel: DM, ts: mine.ts, text: '31 dinner' });
    await h.slack.act.deleteMessage({ as: 'U0ANN', channel: DM, ts: mine.ts });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.app.deps.work.idle();
    // The edit is answered once, with how to change the expense; the deletion not at all.
    expect(dmAnswers()).toHaveLength(already + 2);
    expect(blocksText(dmAnswers().at(-1)!.blocks)).toContain('use *Edit* on the expense');
    expect((await creates()) - before).toBe(1);
  });

  it('leaves another bot’s message alone', async () => {
    const already = dmAnswers().length;
    const response = await h.sender.event(
      {
        type: 'message',
        subtype: 'bot_message',
        bot_id: 'B0OTHER',
        username: 'Other',
        text: '50 lunch',
        ts: '1700000000.000100',
        channel: DM,
        channel_type: 'im',
        event_ts: '1700000000.000100',
      },
      { event_id: 'Ev0OTHERBOT' },
    );
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.app.deps.work.idle();
    expect(dmAnswers()).toHaveLength(already);
  });

  it('answers a reply in a DM thread in that thread', async () => {
    const top = await post('U0ANN', 'help', undefined, DM);
    await expect.poll(() => dmAnswers().filter((m) => !m.thread_ts).length).toBeGreaterThan(0);
    await post('U0ANN', 'balance', top.ts, DM);
    await answersIn(top.ts, 1, DM);
  });
});
