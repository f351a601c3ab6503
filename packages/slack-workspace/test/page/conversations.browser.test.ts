// The page in a real (headless) Chromium against the real simulated workspace and a Bolt app on
// loopback: mentioning the app in a thread from the mention picker, writing in the app's Messages
// tab, choosing a language beside "Acting as", link previews, and editing one's own message.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPage } from '../../scripts/build-page.js';
import { readManifest } from '../../src/index.js';
import { manifestText } from '../event-rig.js';
import { type Rig, startRig } from '../support.js';
import { CHROMIUM_ARGS } from './stub.js';

const GROUP = 'https://secure.splitwise.com/#/groups/7';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let dir: string;
let rig: Rig;
let browser: Browser;
let page: Page;
const seen: { kind: string; body: Record<string, unknown> }[] = [];
const seenOf = (kind: string) => seen.filter((s) => s.kind === kind).map((s) => s.body);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-conversations-'));
  await buildPage(join(dir, 'page'));
  rig = await startRig(
    (app) => {
      app.event('app_mention', async ({ event, client }) => {
        seen.push({ kind: 'mention', body: event as unknown as Record<string, unknown> });
        const thread_ts = event.thread_ts ?? event.ts;
        await client.chat.postMessage({ channel: event.channel, thread_ts, text: 'Booked 40.00' });
        await client.chat.postEphemeral({
          channel: event.channel,
          user: event.user ?? '',
          thread_ts,
          text: 'Only you owe 20.00',
        });
      });
      app.message(async ({ message, client }) => {
        const m = message as { channel_type?: string; subtype?: string; text?: string };
        if (m.channel_type !== 'im' || m.subtype) return;
        seen.push({ kind: 'dm', body: message as unknown as Record<string, unknown> });
        await client.chat.postMessage({ channel: message.channel, text: `You wrote: ${m.text}` });
      });
      app.event('app_home_opened', async ({ event }) => {
        seen.push({ kind: 'home', body: event as unknown as Record<string, unknown> });
      });
      app.event('link_shared', async ({ event, client }) => {
        await client.chat.unfurl({
          channel: event.channel,
          ts: event.message_ts,
          unfurls: {
            [event.links[0]!.url]: {
              blocks: [
                {
                  type: 'section',
                  text: { type: 'mrkdwn', text: '*Lisbon trip* · you owe 20.00' },
                },
                {
                  type: 'actions',
                  block_id: 'group',
                  elements: [
                    {
                      type: 'button',
                      action_id: 'open_group',
                      text: { type: 'plain_text', text: 'Settle up' },
                    },
                  ],
                },
              ],
            },
          },
        });
      });
      app.action('open_group', async ({ ack, body }) => {
        await ack();
        seen.push({ kind: 'action', body: body as unknown as Record<string, unknown> });
      });
    },
    { app: readManifest(manifestText()), pageDir: join(dir, 'page') },
  );
  browser = await chromium.launch({ executablePath: chromiumPath!, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(4000);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  seen.length = 0;
});

async function open(query: string) {
  await page.goto(`${rig.ws.url}/${query}`);
  await page.getByRole('navigation').waitFor();
}

const article = (text: string) => page.getByRole('article').filter({ hasText: text });

describe.skipIf(!chromiumPath)('the app in conversations', () => {
  it('is mentioned from the picker in a thread, and answers in that thread', async () => {
    await open('?as=U0ANN&channel=C0001');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Dinner at the harbour');
    await box.press('Enter');
    await article('Dinner at the harbour').hover();
    await article('Dinner at the harbour').getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Reply in thread' }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    const reply = thread.getByRole('textbox', { name: 'Reply' });
    await reply.pressSequentially('@Sp');
    await thread.getByRole('option', { name: 'Split' }).click();
    await reply.pressSequentially('40 lunch @Bo');
    await reply.press('Enter');
    expect(await reply.inputValue()).toBe('@Split 40 lunch @bob ');
    await reply.press('Enter');

    await expect.poll(() => seenOf('mention').length).toBe(1);
    const parent = rig.ws.messages('C0001').find((m) => m.text === 'Dinner at the harbour')!;
    expect(seenOf('mention')[0]).toMatchObject({
      user: 'U0ANN',
      text: '<@U0BOT0001> 40 lunch <@U0BOB>',
      thread_ts: parent.ts,
      channel: 'C0001',
    });
    await thread.getByText('Booked 40.00').waitFor();
    const privately = thread.getByRole('article').filter({ hasText: 'Only you owe 20.00' });
    expect(await privately.textContent()).toContain('Only visible to you');
    expect(await thread.getByRole('article').first().textContent()).toContain('Dinner');
    // The mention reads as the app's name, and the thread's count is in the channel.
    expect(await thread.getByText('@Split', { exact: true }).count()).toBe(1);
    await article('Dinner at the harbour').getByRole('button', { name: '3 replies' }).waitFor();
    await page.screenshot({ path: '/tmp/page-mention-thread.png' });

    await page.getByLabel('Acting as').selectOption('U0BOB');
    await article('Dinner at the harbour').getByRole('button', { name: '2 replies' }).click();
    await thread.getByText('Booked 40.00').waitFor();
    expect(await thread.getByText('Only you owe 20.00').count()).toBe(0);
  });

  it('writes to the app in its Messages tab, which the app opens with app_home_opened', async () => {
    await open('?as=U0ANN&channel=D0ANN&tab=messages');
    await expect.poll(() => seenOf('home').map((e) => e.tab)).toEqual(['messages']);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('12 taxi with @bob today');
    await box.press('Enter');
    await page.getByRole('tabpanel').getByText('You wrote: 12 taxi with @bob today').waitFor();
    expect(seenOf('dm')).toMatchObject([
      { channel_type: 'im', text: '12 taxi with <@U0BOB> today' },
    ]);
    await page.getByRole('tab', { name: 'Home' }).click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    await expect
      .poll(() => seenOf('home').map((e) => e.tab))
      .toEqual(['messages', 'home', 'messages']);
  });

  it('chooses the acting person’s language beside "Acting as", as users.info reports it', async () => {
    await open('?as=U0BOB&channel=C0001');
    const language = page.getByLabel('Language');
    expect(await language.inputValue()).toBe('en-US');
    await language.selectOption({ label: 'Deutsch (Deutschland)' });
    await expect.poll(() => rig.ws.user('U0BOB')?.locale).toBe('de-DE');
    const info = await rig.app.client.users.info({ user: 'U0BOB', include_locale: true });
    expect(info.user?.locale).toBe('de-DE');
    await page.reload();
    await page.getByRole('navigation', { name: 'Unterhaltungen' }).waitFor();
    expect(await page.getByLabel('Sprache').inputValue()).toBe('de-DE');
    await page.getByLabel('Handelnd als').selectOption('U0ANN');
    await expect.poll(() => page.getByLabel('Language').inputValue()).toBe('en-US');
    await rig.ws.act.setLocale({ as: 'U0BOB', locale: 'en-US' });
  });

  it('sends nothing in the previous person’s name while the next person’s view loads', async () => {
    await open('?as=U0ANN&channel=C0001');
    // Bob's view is held back, as on a slow machine, while Bob is chosen and writes at once.
    await page.route(/\/state\?as=U0BOB/, async (route) => {
      await new Promise((done) => setTimeout(done, 800));
      await route.continue();
    });
    try {
      await page.getByLabel('Acting as').selectOption('U0BOB');
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Written by Bob just after the switch');
      await box.press('Enter');
      await article('Written by Bob just after the switch').waitFor();
    } finally {
      await page.unroute(/\/state\?as=U0BOB/);
    }
    expect(rig.ws.messages('C0001').at(-1)).toMatchObject({
      user: 'U0BOB',
      text: 'Written by Bob just after the switch',
    });
  });

  it('shows the app’s preview under a link to its domain; its button names the unfurl', async () => {
    await open('?as=U0ANN&channel=C0001');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(`our trip: ${GROUP}`);
    await box.press('Enter');
    const posted = article('our trip');
    const preview = posted.getByRole('region', { name: `Preview of ${GROUP}` });
    await preview.getByText('Lisbon trip').waitFor();
    expect(rig.ws.messages('C0001').at(-1)?.text).toBe(`our trip: <${GROUP}>`);
    await page.screenshot({ path: '/tmp/page-unfurl.png' });
    await preview.getByRole('button', { name: 'Settle up' }).click();
    await expect.poll(() => seenOf('action').length).toBe(1);
    expect(seenOf('action')[0]).toMatchObject({
      container: { type: 'message_attachment', is_app_unfurl: true, app_unfurl_url: GROUP },
      app_unfurl: { app_unfurl_url: GROUP },
    });
  });

  it('edits and deletes one’s own message from More actions', async () => {
    await open('?as=U0ANN&channel=C0001');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Taxi 23 with @bob today');
    await box.press('Enter');
    const mine = article('Taxi 23');
    await mine.hover();
    await mine.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit message' }).click();
    // While it is edited, the message's text is in the box, not in the article.
    const edit = page.getByRole('textbox', { name: 'Edit message' });
    expect(await edit.inputValue()).toBe('Taxi 23 with @bob today');
    await edit.fill('Taxi 25 with @bob today');
    await page.getByRole('button', { name: 'Save' }).click();
    await article('Taxi 25').getByText('(edited)').waitFor();
    expect(rig.ws.messages('C0001').at(-1)?.text).toBe('Taxi 25 with <@U0BOB> today');

    const edited = article('Taxi 25');
    await edited.hover();
    await edited.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete message' }).click();
    await edited.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => article('Taxi 25').count()).toBe(0);

    await page.getByLabel('Acting as').selectOption('U0BOB');
    const theirs = page.getByRole('article').first();
    await theirs.hover();
    await theirs.getByRole('button', { name: 'More actions' }).click();
    expect(await page.getByRole('menuitem', { name: 'Edit message' }).count()).toBe(0);
  });
});

describe.skipIf(!chromiumPath)('a read-only Messages tab', () => {
  it('has no composer, and says that sending messages is turned off', async () => {
    rig.ws.setApp(readManifest(manifestText({ readOnly: true })));
    try {
      await open('?as=U0ANN&channel=D0ANN&tab=messages');
      await page.getByText('Sending messages to this app has been turned off.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    } finally {
      rig.ws.setApp(readManifest(manifestText()));
    }
  });
});
