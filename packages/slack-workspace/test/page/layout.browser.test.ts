// The page's layout as a person meets it in a real (headless) Chromium: the newest message's menu
// in full above the composer, a narrow window with the channels behind a button, notices where
// they arose and beside the messages rather than over them, and a post followed into view even
// when it grows after it arrived. Each test leaves a screenshot under /tmp to look at.
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Message } from '../../src/page/types.js';
import { StubPage } from './stub.js';
import { md } from './support.js';

const chromiumPath = inject('chromiumPath');

const stub = new StubPage();
let page: StubPage['page'];

beforeAll(async () => {
  await stub.start();
  page = stub.page;
}, 30_000);

afterAll(() => stub.close());

afterEach(async () => {
  expect(stub.violations, 'the page broke its Content-Security-Policy').toEqual([]);
  await page.setViewportSize({ width: 1280, height: 860 });
});

/** Whether what the person sees at the centre of `locator` is that element (nothing over it). */
async function seenAtItsCentre(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el === hit || el.contains(hit));
  });
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

describe.skipIf(!chromiumPath)('the page laid out', () => {
  it('opens the newest message’s More actions menu in full, above the composer', async () => {
    // Short enough for the messages to fill the list: the newest sits right above the composer.
    await page.setViewportSize({ width: 1280, height: 560 });
    await stub.open('?as=U1&channel=C1');
    const newest = page.getByRole('article').last();
    await newest.hover();
    await newest.getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.screenshot({ path: '/tmp/layout-menu.png' });
    // A wide window keeps the conversations in view: no button to open them.
    expect(await page.getByRole('button', { name: 'Conversations' }).isVisible()).toBe(false);
    const composer = await box(page.getByRole('textbox', { name: 'Message' }));
    const shown = await box(menu);
    expect(shown.y + shown.height).toBeLessThanOrEqual(composer.y);
    const items = menu.getByRole('menuitem');
    expect(await items.count()).toBeGreaterThan(0);
    for (const item of await items.all()) expect(await seenAtItsCentre(item)).toBe(true);
  });

  it('puts the channels behind a button at 390 px, and messages get the width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await stub.open('?as=U1&channel=C1');
    const nav = page.getByRole('navigation');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Conversations' }).isVisible()).toBe(true);
    const text = page.getByRole('article').first().getByText('Who is in for');
    // One letter a line was the failure: the text has most of the window's width.
    expect((await box(text)).width).toBeGreaterThan(250);
    await page.screenshot({ path: '/tmp/layout-narrow.png' });

    const toggle = page.getByRole('button', { name: 'Conversations' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await nav.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: '/tmp/layout-narrow-open.png' });
    // Escape closes it, as a click beside it does.
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.isVisible()).toBe(false);
    await page.mouse.click(370, 400);
    await toggle.click();
    await nav.waitFor();
    await nav.getByRole('link', { name: '#lunch' }).click();
    // Choosing a channel closes the panel and shows the channel.
    await page.getByRole('heading', { name: '#lunch' }).waitFor();
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(true);
  });

  it('keeps each notice to the channel it arose in, beside the messages, and lets it go', async () => {
    await stub.open('?as=U1&channel=C2', {
      edit: (state) => {
        state.notices = [
          { id: 'n1', at: 1, text: 'lunch failed', tone: 'error', channel: 'C2' },
          { id: 'n2', at: 2, text: 'also about lunch', tone: 'info', channel: 'C2' },
          { id: 'n3', at: 3, text: 'nothing to do with lunch', tone: 'error', channel: 'C1' },
        ];
        state.messages.C2 = [
          {
            ts: '1767261900.000100',
            channel: 'C2',
            reply_count: 0,
            sender: { id: 'U2', name: 'bob', is_bot: false },
            text: 'the first message of lunch',
            ephemeral: false,
            edited: false,
          },
        ];
      },
    });
    const notices = page.locator('.notice');
    await page.getByText('also about lunch').waitFor();
    expect(await notices.count()).toBe(2);
    expect(await page.getByText('nothing to do with lunch').count()).toBe(0);
    const first = page.getByRole('article').first();
    expect(await seenAtItsCentre(first)).toBe(true);
    await page.screenshot({ path: '/tmp/layout-notices.png' });

    await page.getByRole('navigation').getByRole('link', { name: '#general' }).click();
    await page.getByRole('heading', { name: '#general' }).waitFor();
    expect(await page.getByText('also about lunch').count()).toBe(0);
    await page.getByText('nothing to do with lunch').waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await notices.count()).toBe(0);
    expect(await seenAtItsCentre(page.getByRole('article').first())).toBe(true);
  });

  it('follows a post into view when it grows after it arrived', async () => {
    await stub.open('?as=U1&channel=C1');
    const list = page.locator('.messages');
    const atBottom = () =>
      list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
    await expect.poll(atBottom).toBe(true);
    // The app answers at once, then replaces its answer with the booked expense (a response_url
    // replace_original): the same message, many times taller.
    const messages = stub.state.messages.C1 as Message[];
    const answer: Message = {
      ts: '1767261900.000500',
      channel: 'C1',
      reply_count: 0,
      sender: { id: 'UB', name: 'Split', is_bot: true },
      text: 'Booking…',
      ephemeral: false,
      edited: false,
    };
    messages.push(answer);
    stub.changed();
    await page.getByText('Booking…').waitFor();
    await expect.poll(atBottom).toBe(true);
    messages[messages.length - 1] = {
      ...answer,
      text: 'Lunch booked',
      blocks: Array.from({ length: 14 }, (_, i) => ({
        type: 'section',
        block_id: `line-${i}`,
        text: md(`line ${i + 1} of the booked expense`),
      })),
    };
    stub.changed();
    await page.getByText('line 14 of the booked expense').waitFor();
    await expect.poll(atBottom).toBe(true);
    expect(await seenAtItsCentre(page.getByText('line 14 of the booked expense'))).toBe(true);
    await page.screenshot({ path: '/tmp/layout-scroll.png' });
  });
});
