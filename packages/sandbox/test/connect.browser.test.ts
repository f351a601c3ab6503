// Flow a: an unlinked person's first /split leads to Connect, the service's sign-in and consent,
// and then the /split they typed is carried out where they typed it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  clickConnect,
  EmulatorReader,
  expenseNumber,
  type Flows,
  lastMessage,
  open,
  PEOPLE,
  send,
  startFlows,
} from './harness.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let flows: Flows;
let emulator: EmulatorReader;
/** The link Ada's Connect button opened. */
let startUrl = '';

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  emulator = await EmulatorReader.connect(flows.sandbox.emulatorUrl);
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

describe.skipIf(!chromiumPath)('Connect from the first /split', () => {
  it('links Ada through sign-in and consent, DMs her, and books the pending /split', async () => {
    const { page } = flows;
    await actAs(page, 'Ada');
    await open(page, '#lunch');
    await send(page, '/split 40 lunch @Grace');

    const prompt = lastMessage(page, 'Only visible to you').filter({ hasText: 'connect' });
    await prompt.getByRole('button', { name: /Connect account/ }).waitFor();
    const promptText = await prompt.innerText();
    expect(promptText).toContain("Once you're connected I'll carry out /split 40 lunch @grace");
    expect(promptText).not.toContain('<@');
    // Nothing was booked before the link: the service has no expense for Ada yet besides the demo.
    const before = await emulator.get<{ expenses: { description: string }[] }>(
      PEOPLE.Ada,
      'get_expenses?limit=100',
    );
    expect(before.expenses.map((e) => e.description)).not.toContain('lunch');

    const started = flows.context.waitForEvent('request', (r) => r.url().includes('/oauth/start'));
    const { prefilled, text } = await clickConnect(flows, PEOPLE.Ada);
    startUrl = (await started).url();
    // The sign-in may offer the acting person's e-mail; it must never offer someone else's.
    expect(['', PEOPLE.Ada]).toContain(prefilled);
    expect(text).toContain('Connected as Ada Lovelace');

    const booked = lastMessage(page, 'lunch · US$40.00');
    await booked.waitFor({ timeout: 10_000 });
    const bookedText = await booked.innerText();
    expect(bookedText).not.toContain('Only visible to you');
    expect(bookedText).toContain('@Grace owes @Ada US$20.00');
    expect(bookedText).toContain("@Ada's own share: US$20.00");

    const expense = await emulator.expense(PEOPLE.Ada, await expenseNumber(booked));
    expect(expense).toMatchObject({ cost: '40.0', currency_code: 'USD', description: 'lunch' });
    expect(expense.shares).toEqual(
      new Map([
        [PEOPLE.Ada, { paid: '40.0', owed: '20.0' }],
        [PEOPLE.Grace, { paid: '0.0', owed: '20.0' }],
      ]),
    );

    await open(page, 'Split');
    await page.getByRole('tab', { name: 'Messages' }).click();
    const dm = lastMessage(page, 'Connected as');
    await dm.waitFor();
    const dmText = await dm.innerText();
    expect(dmText).toContain('Connected as Ada Lovelace');
    expect(dmText).toContain('Now carrying out /split 40 lunch @grace');
    expect(dmText).not.toContain('<@');
  }, 40_000);

  it('replaces the Connect prompt with the account it linked, and refuses its link again', async () => {
    const { page } = flows;
    await open(page, '#lunch');
    // The prompt Ada clicked is done: one line in its place, and no button to press again.
    const done = lastMessage(page, 'Only visible to you').filter({ hasText: 'Connected as' });
    await done.waitFor();
    expect(await done.innerText()).toContain('Connected as Ada Lovelace');
    expect(await done.getByRole('button', { name: /Connect account/ }).count()).toBe(0);
    expect(
      await lastMessage(page, 'Only visible to you')
        .filter({ has: page.getByRole('button', { name: /Connect account/ }) })
        .count(),
    ).toBe(0);

    // Its link, opened again, was used.
    expect(startUrl).toContain('/oauth/start?state=');
    const popup = await flows.context.newPage();
    try {
      await popup.goto(startUrl);
      const text = await popup.locator('body').innerText();
      expect(text).not.toContain('Connected as');
      expect(text.toLowerCase()).toMatch(/already|used/);
    } finally {
      await popup.close();
    }
  });
});
