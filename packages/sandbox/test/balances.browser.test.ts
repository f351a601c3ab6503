// Flows d, e and f: /split balance with Settle up, App Home (balances and settings, turning the
// daily DM on), and the daily DM sent by the sandbox's "Run daily digest now".
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  EmulatorReader,
  type Flows,
  lastMessage,
  link,
  messages,
  open,
  PEOPLE,
  send,
  startFlows,
} from './harness.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let flows: Flows;
let emulator: EmulatorReader;

interface SelectShape {
  type?: string;
  placeholder?: { text?: string };
  initial_option?: { text?: { text?: string } };
}

/** The static selects of the App Home the app last published to the acting person, by name. */
function publishedSelects(): Record<string, string> {
  const as = new URL(flows.page.url()).searchParams.get('as') ?? '';
  const home = flows.sandbox.workspace.pageState(as).home;
  const out: Record<string, string> = {};
  const blocks = (home?.blocks ?? []) as { accessory?: SelectShape; elements?: SelectShape[] }[];
  for (const select of blocks.flatMap((b) => [b.accessory, ...(b.elements ?? [])])) {
    if (select?.type !== 'static_select' || !select.placeholder?.text) continue;
    out[select.placeholder.text] = select.initial_option?.text?.text ?? '';
  }
  return out;
}

/** The Home tab's selects as the page shows them, by name. */
async function shownSelects(): Promise<Record<string, string>> {
  const pairs = await flows.page
    .getByRole('tabpanel', { name: 'Home' })
    .getByRole('combobox')
    .evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('aria-label') ?? '',
        (e as unknown as { value: string }).value,
      ]),
    );
  return Object.fromEntries(pairs);
}

async function expectHomeSelectsAsPublished(): Promise<void> {
  const published = publishedSelects();
  expect(Object.keys(published)).toEqual(
    expect.arrayContaining(['Hour', 'Choose a currency', 'Choose a group']),
  );
  await expect.poll(shownSelects).toEqual(published);
}

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  emulator = await EmulatorReader.connect(flows.sandbox.emulatorUrl);
  await link(flows, 'Ada');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

describe.skipIf(!chromiumPath)('/split balance and Settle up', () => {
  it('shows balances and records a payment after the confirmation', async () => {
    const { page } = flows;
    await open(page, '#general');
    await send(page, '/split balance');
    const answer = lastMessage(page, 'Your balances');
    await answer.waitFor();
    const text = await answer.innerText();
    expect(text).toContain('Only visible to you');
    const owed = /You owe Grace Hopper US\$(\d+\.\d\d)/.exec(text)?.[1];
    if (!owed) throw new Error(`no US$ debt to Grace in: ${text}`);
    const paymentsBefore = await emulator.payments(PEOPLE.Ada, PEOPLE.Grace);

    // The first row is the first debt: what Ada owes Grace in US$.
    await answer.getByRole('button', { name: 'Settle up' }).first().click();
    const confirm = page.getByRole('alertdialog', { name: 'Record a payment?' });
    expect(await confirm.innerText()).toContain(`Record that you paid Grace Hopper US$${owed}?`);
    await confirm.getByRole('button', { name: 'Record a payment' }).click();
    await confirm.waitFor({ state: 'detached' });

    await expect
      .poll(async () => (await emulator.payments(PEOPLE.Ada, PEOPLE.Grace)).length)
      .toBe(paymentsBefore.length + 1);
    const known = new Set(paymentsBefore.map((p) => p.id));
    const [payment] = (await emulator.payments(PEOPLE.Ada, PEOPLE.Grace)).filter(
      (p) => !known.has(p.id),
    );
    expect(payment?.currency_code).toBe('USD');
    expect(Number.parseFloat(payment?.cost ?? '')).toBe(Number.parseFloat(owed));
    expect(payment?.shares.get(PEOPLE.Ada)?.paid).toBe(payment?.cost);
    expect(payment?.shares.get(PEOPLE.Grace)?.owed).toBe(payment?.cost);

    const balances = await emulator.get<{
      friends: { email: string; balance: { currency_code: string; amount: string }[] }[];
    }>(PEOPLE.Ada, 'get_friends');
    const grace = balances.friends.find((f) => f.email === PEOPLE.Grace);
    expect(grace?.balance.filter((b) => b.currency_code === 'USD')).toEqual([]);
  });
});

describe.skipIf(!chromiumPath)('App Home and the daily DM', () => {
  it('shows balances and settings on the Home tab, and turns the daily DM on', async () => {
    const { page } = flows;
    await open(page, 'Split');
    await page.getByRole('tab', { name: 'Home' }).click();
    const home = page.getByRole('tabpanel', { name: 'Home' });
    await home.getByRole('heading', { name: 'Balances' }).waitFor();
    await home.getByRole('heading', { name: 'Settings' }).waitFor();
    const text = await home.innerText();
    expect(text).toContain('Connected as Ada Lovelace');
    expect(text).toMatch(/Lisbon trip: you owe €\d+\.\d\d/);
    expect(text).toContain('Daily balance DM\nOff.');

    await home.getByRole('button', { name: 'Turn on' }).click();
    // Reminders have a "Turn off" of their own on the same tab, so the text tells them apart.
    await home.getByText(/On, at 9:00 every day/).waitFor();
    expect(await home.innerText()).toMatch(/Daily balance DM\nOn, at 9:00 every day/);
    // The republished tab has a block more above the selects: each shows its own value.
    await expectHomeSelectsAsPublished();

    await page.getByRole('tab', { name: 'Messages' }).click();
    await page.getByRole('tab', { name: 'Home' }).click();
    await home.getByRole('heading', { name: 'Settings' }).waitFor();
    await expectHomeSelectsAsPublished();
  });

  it('"Run daily digest now" DMs the balances to the Split conversation', async () => {
    const { page } = flows;
    await page.getByRole('tab', { name: 'Messages' }).click();
    const before = await messages(page).count();
    await page.getByRole('button', { name: 'Run daily digest now' }).click();
    // Ada turned the daily DM on above, and is the only one linked: one DM went out.
    await page.getByRole('status').filter({ hasText: 'Sent 1 daily DM.' }).waitFor();
    await expect.poll(() => messages(page).count()).toBe(before + 1);
    const dm = messages(page).last();
    const text = await dm.innerText();
    expect(text).not.toContain('Only visible to you');
    expect(text).toMatch(/balance/i);
    expect(text).toMatch(/Lisbon trip|€\d+\.\d\d/);
    expect(text).not.toMatch(/<@|<!|&lt;|&amp;/);

    await page.getByRole('tab', { name: 'Home' }).click();
    await page
      .getByRole('tabpanel', { name: 'Home' })
      .getByRole('heading', { name: 'Settings' })
      .waitFor();
    await expectHomeSelectsAsPublished();
  });
});
