// A language chosen beside "Acting as": the next message is answered in it (the workspace tells
// the app with user_change, as Slack does), and the page itself and its Sign in with Slack page
// speak it, with times of day written its way (2:05 PM in US English, 14:05 in German).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  type Flows,
  lastMessage,
  link,
  open,
  send,
  startFlows,
  wordsOn,
} from './harness.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let flows: Flows;

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  await link(flows, 'Grace');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

/** The times the open conversation's messages show beside their senders. */
async function times(): Promise<string[]> {
  return flows.page.getByRole('main').locator('time.msg-time').allInnerTexts();
}

async function chooseLanguage(name: string): Promise<void> {
  const { page } = flows;
  await page.getByLabel((await wordsOn(page)).language).selectOption({ label: name });
}

describe.skipIf(!chromiumPath)('a language chosen beside "Acting as"', () => {
  it('answers the next message in it, and the page speaks it with its own time of day', async () => {
    const { page } = flows;
    await actAs(page, 'Grace');
    await open(page, 'Split');
    await send(page, 'help');
    await lastMessage(page, 'Split: what you can type').waitFor();
    const american = await times();
    expect(american.length).toBeGreaterThan(0);
    for (const time of american) expect(time).toMatch(/^\d{1,2}:\d{2}\s?[AP]M$/);

    await chooseLanguage('Deutsch (Deutschland)');
    const switched = Date.now();
    // The page's own words follow at once.
    await page.getByLabel('Sprache').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de-DE');
    await page.getByRole('navigation', { name: 'Unterhaltungen' }).waitFor();
    await page.getByRole('textbox', { name: 'Nachricht' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Nachrichten' }).count()).toBe(1);
    const german = await times();
    expect(german.length).toBe(american.length);
    for (const time of german) expect(time).toMatch(/^\d{1,2}:\d{2}$/);
    // The 12-hour times became 24-hour ones: an afternoon's hour reads 13 to 23.
    const hour = (text: string) => Number(text.split(':')[0]);
    const afternoon = american.findIndex((t) => /PM$/.test(t) && !t.startsWith('12:'));
    if (afternoon >= 0) expect(hour(german[afternoon]!)).toBe(hour(american[afternoon]!) + 12);

    // The next message is answered in German.
    await send(page, 'hilfe');
    await lastMessage(page, 'Split: was du eingeben kannst').waitFor();
    expect(Date.now() - switched).toBeLessThan(60_000);

    await chooseLanguage('Français (France)');
    await page.getByLabel('Langue').waitFor();
    await send(page, 'aide');
    await lastMessage(page, /Split\s*: ce que tu peux taper/).waitFor();
  });

  it('shows the Sign in with Slack page in the chosen language', async () => {
    const { page, context } = flows;
    await actAs(page, 'Katherine');
    await chooseLanguage('Deutsch (Deutschland)');
    await page.getByLabel('Sprache').waitFor();
    await open(page, '#general');
    await send(page, '/split connect');
    const prompt = lastMessage(page, 'Nur für dich sichtbar');
    const connect = prompt.getByRole('button', { name: /verbinden/i });
    await connect.waitFor();
    const [popup] = await Promise.all([context.waitForEvent('page'), connect.click()]);
    try {
      await popup.getByText('Angemeldet als').waitFor();
      expect(await popup.locator('html').getAttribute('lang')).toBe('de');
      expect(await popup.getByRole('button', { name: 'Weiter' }).count()).toBe(1);
      expect(await popup.getByRole('button', { name: 'Abbrechen' }).count()).toBe(1);
      expect(await popup.locator('body').innerText()).not.toMatch(/Signed in as|Continue/);
    } finally {
      await popup.close();
    }
  });
});
