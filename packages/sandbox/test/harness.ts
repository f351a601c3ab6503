// One sandbox (emulator + simulated workspace + the real app) and one headless Chromium per test
// file, driven the way a person would: by roles and accessible names. The outcome is read back
// from the emulator's own HTTP API with a demo person's API key, never from the app's store.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PageWords, pageWords } from '@split/slack-workspace';
import { buildPage } from '@split/slack-workspace/build-page';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { type RunningSandbox, startSandbox } from '../src/index.js';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const PEOPLE = {
  Ada: 'ada@example.com',
  Grace: 'grace@example.com',
  Alan: 'alan@example.com',
  Katherine: 'katherine@example.com',
} as const;
export type Person = keyof typeof PEOPLE;

export interface Flows {
  sandbox: RunningSandbox;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

const root = join(import.meta.dirname, '..', '..', '..');

export async function startFlows(executablePath = '/usr/bin/chromium'): Promise<Flows> {
  const dir = await mkdtemp(join(tmpdir(), 'split-flows-'));
  const pageDir = join(dir, 'page');
  await buildPage(pageDir);
  const sandbox = await startSandbox({
    port: 0,
    dataDir: join(dir, 'data'),
    pageDir,
    manifestYaml: await readFile(join(root, 'manifest.yml'), 'utf8'),
    logLevel: 'error',
  });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // A missing element fails its step quickly, naming it, instead of the whole test timing out.
    context.setDefaultTimeout(6000);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(sandbox.url);
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    const opened = browser;
    return {
      sandbox,
      browser: opened,
      context,
      page,
      async close() {
        await opened.close();
        await sandbox.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Polls `check` until it holds (this module also runs outside vitest, in the screenshots). */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 6000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * The words of the page's chrome as it shows them now: in the acting person's language, which
 * the page gives as its `lang`. A person who reads Slack in German finds "Nachricht", not
 * "Message".
 */
export async function wordsOn(page: Page): Promise<PageWords> {
  return pageWords((await page.locator('.app').getAttribute('lang')) ?? undefined);
}

export async function actAs(page: Page, person: Person): Promise<void> {
  await page.getByLabel((await wordsOn(page)).actingAs).selectOption({ label: person });
  // The page shows the person once their own view has come: in their language from then on.
  const chosen = page.locator('#acting-as option:checked');
  await waitUntil(async () => (await chosen.textContent()) === person, `acting as ${person}`);
}

/** A channel (`#lunch`) or the app's conversation (`Split`) from the sidebar. */
export async function open(page: Page, conversation: string): Promise<void> {
  await page
    .getByRole('navigation', { name: (await wordsOn(page)).conversations })
    .getByRole('link', { name: conversation, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: conversation, exact: true }).waitFor();
}

/**
 * Types into the composer and presses Enter. A `/` or `@` suggestion still open is taken first,
 * as a person picking it with Enter would.
 */
export async function send(page: Page, text: string): Promise<void> {
  const words = await wordsOn(page);
  const box = page.getByRole('textbox', { name: words.message });
  await box.fill(text);
  if (await page.getByRole('listbox', { name: words.suggestions }).isVisible()) {
    await box.press('Enter');
  }
  await box.press('Enter');
  await waitUntil(async () => (await box.inputValue()) === '', 'the composer to empty');
}

export function messages(page: Page) {
  return page.getByRole('main').getByRole('article');
}

/** The newest message in the open conversation that contains `text`. */
export function lastMessage(page: Page, text: string | RegExp) {
  return messages(page).filter({ hasText: text }).last();
}

/**
 * Opens the thread of the newest message holding `under`, writes `reply` in it and sends it; the
 * thread is returned. A reply that ends with a person's name shows the suggestion for it, which
 * Enter takes first, as a person picking it would.
 */
export async function replyInThread(page: Page, under: string, reply: string): Promise<Locator> {
  const words = await wordsOn(page);
  const message = lastMessage(page, under);
  await message.hover();
  await message.getByRole('button', { name: words.moreActions }).click();
  await page.getByRole('menuitem', { name: words.replyInThread }).click();
  const thread = page.getByRole('complementary', { name: words.thread });
  const box = thread.getByRole('textbox', { name: words.reply });
  await box.fill(reply);
  const suggestions = thread.getByRole('listbox', { name: words.suggestions });
  if (
    await suggestions.waitFor({ timeout: 2000 }).then(
      () => true,
      () => false,
    )
  ) {
    await box.press('Enter');
    await suggestions.waitFor({ state: 'hidden' });
  }
  await box.press('Enter');
  await waitUntil(async () => (await box.inputValue()) === '', 'the reply to be sent');
  return thread;
}

/**
 * Walks the emulator's sign-in and consent screens in the window the Connect button opened, and
 * answers with that window's final text (the app's "connected" page).
 */
export async function signInAndAllow(
  popup: Page,
  email: string,
): Promise<{ prefilled: string; text: string }> {
  // Slack's sign-in first: the link only goes on for the Slack user it was made for.
  await popup.getByText('Signed in as').waitFor();
  await popup.getByRole('button', { name: 'Continue' }).click();
  const field = popup.getByLabel('E-mail address');
  const prefilled = await field.inputValue();
  if (prefilled !== email) await field.fill(email);
  await popup.getByRole('button', { name: 'Continue' }).click();
  await popup.getByRole('button', { name: 'Allow' }).click();
  await popup.getByRole('heading', { name: /Connected as/ }).waitFor();
  return { prefilled, text: await popup.locator('body').innerText() };
}

/** Clicks the Connect button of the newest private prompt and walks the consent in its window. */
export async function clickConnect(flows: Flows, email: string) {
  const prompt = lastMessage(flows.page, 'Only visible to you').filter({
    has: flows.page.getByRole('button', { name: /Connect account/ }),
  });
  await prompt.getByRole('button', { name: /Connect account/ }).waitFor();
  const [popup] = await Promise.all([
    flows.context.waitForEvent('page'),
    prompt.getByRole('button', { name: /Connect account/ }).click(),
  ]);
  try {
    return await signInAndAllow(popup, email);
  } finally {
    await popup.close();
  }
}

/**
 * Links a demo person through the real Connect flow: `/split connect`, the emulator's sign-in
 * and consent, then the DM in the app's conversation.
 */
export async function link(flows: Flows, person: Person): Promise<void> {
  const { page } = flows;
  await actAs(page, person);
  await open(page, '#general');
  await send(page, '/split connect');
  await clickConnect(flows, PEOPLE[person]);
  await open(page, 'Split');
  await page.getByRole('tab', { name: 'Messages' }).click();
  await lastMessage(page, 'Connected as').waitFor();
}

// --- The emulator, read as the demo people would read it ---------------------------------------

interface Seeded {
  user: { id: number; email: string };
  api_key: string;
}

export interface Share {
  paid: string;
  owed: string;
}

export interface ExpenseRead {
  id: number;
  cost: string;
  currency_code: string;
  description: string;
  deleted_at: string | null;
  /** Each person's paid and owed shares, by demo e-mail. */
  shares: Map<string, Share>;
}

export class EmulatorReader {
  private constructor(
    private readonly base: string,
    private readonly keys: Map<string, string>,
    private readonly emails: Map<number, string>,
  ) {}

  /** Seeding again adds no data and answers fresh API keys for the demo people. */
  static async connect(emulatorUrl: string): Promise<EmulatorReader> {
    const response = await fetch(`${emulatorUrl}/__emulator/seed`, { method: 'POST' });
    if (!response.ok) throw new Error(`seed: HTTP ${response.status}`);
    const { users } = (await response.json()) as { users: Seeded[] };
    return new EmulatorReader(
      `${emulatorUrl}/api/v3.0`,
      new Map(users.map((u) => [u.user.email, u.api_key])),
      new Map(users.map((u) => [u.user.id, u.user.email])),
    );
  }

  async get<T>(as: string, path: string): Promise<T> {
    const key = this.keys.get(as);
    if (!key) throw new Error(`no API key for ${as}`);
    const response = await fetch(`${this.base}/${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return (await response.json()) as T;
  }

  async expense(as: string, id: number | string): Promise<ExpenseRead> {
    const { expense } = await this.get<{
      expense: Omit<ExpenseRead, 'shares'> & {
        users: { user_id: number; paid_share: string; owed_share: string }[];
      };
    }>(as, `get_expense/${id}`);
    const shares = new Map<string, Share>();
    for (const u of expense.users) {
      shares.set(this.emails.get(u.user_id) ?? String(u.user_id), {
        paid: u.paid_share,
        owed: u.owed_share,
      });
    }
    return {
      id: expense.id,
      cost: expense.cost,
      currency_code: expense.currency_code,
      description: expense.description,
      deleted_at: expense.deleted_at,
      shares,
    };
  }

  /** Payments between the two, newest first. */
  async payments(as: string, friendEmail: string): Promise<ExpenseRead[]> {
    const friendId = [...this.emails].find(([, e]) => e === friendEmail)?.[0];
    const { expenses } = await this.get<{ expenses: { id: number; payment: boolean }[] }>(
      as,
      `get_expenses?friend_id=${friendId}&limit=50`,
    );
    return Promise.all(expenses.filter((e) => e.payment).map((e) => this.expense(as, e.id)));
  }
}

/** The expense number the app prints under a booked expense ("expense #4400000008"). */
export async function expenseNumber(message: Locator): Promise<number> {
  const text = await message.innerText();
  const found = /expense #(\d+)/.exec(text);
  if (!found?.[1]) throw new Error(`no expense number in: ${text}`);
  return Number(found[1]);
}
