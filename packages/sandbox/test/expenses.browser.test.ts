// Flows b and c: /split answered in the channel, then edited and deleted from its buttons; and
// "Split this" on a message, through the expense modal. Each outcome is read back at the emulator.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  EmulatorReader,
  expenseNumber,
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

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  emulator = await EmulatorReader.connect(flows.sandbox.emulatorUrl);
  await link(flows, 'Ada');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

function dialog(page: Page, name: string) {
  return page.getByRole('dialog', { name });
}

describe.skipIf(!chromiumPath)('/split in a channel, then Edit and Delete', () => {
  let id = 0;

  it('answers in the channel and books 40.00 split 20/20', async () => {
    const { page } = flows;
    await open(page, '#lunch');
    await send(page, '/split 40 lunch @Grace');
    const booked = lastMessage(page, 'lunch · US$40.00');
    await booked.waitFor();
    const text = await booked.innerText();
    expect(text).not.toContain('Only visible to you');
    expect(text).toContain('@Grace owes @Ada US$20.00');
    id = await expenseNumber(booked);

    const expense = await emulator.expense(PEOPLE.Grace, id);
    expect(expense).toMatchObject({ cost: '40.0', currency_code: 'USD', description: 'lunch' });
    expect(expense.shares).toEqual(
      new Map([
        [PEOPLE.Ada, { paid: '40.0', owed: '20.0' }],
        [PEOPLE.Grace, { paid: '0.0', owed: '20.0' }],
      ]),
    );
  });

  it('Edit opens the form pre-filled and saves a new description', async () => {
    const { page } = flows;
    const booked = messages(page)
      .filter({ hasText: `expense #${id}` })
      .last();
    await booked.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = dialog(page, 'Edit expense');
    const what = form.getByRole('textbox', { name: 'What for' });
    // The form is filled from the service after it opens.
    await expect.poll(() => what.inputValue()).toBe('lunch');
    expect(await form.getByRole('textbox', { name: 'Amount', exact: true }).inputValue()).toBe(
      '40.00',
    );
    expect(await form.getByRole('list', { name: 'Selected' }).innerText()).toMatch(
      /Ada[\s\S]*Grace/,
    );

    await what.fill('team lunch');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await emulator.expense(PEOPLE.Ada, id)).description)
      .toBe('team lunch');
    const expense = await emulator.expense(PEOPLE.Ada, id);
    expect(expense.cost).toBe('40.0');
    expect(expense.shares.get(PEOPLE.Grace)).toEqual({ paid: '0.0', owed: '20.0' });
    await lastMessage(page, 'team lunch · US$40.00').waitFor();
  });

  it('Delete asks first, then deletes it at the service', async () => {
    const { page } = flows;
    const booked = messages(page)
      .filter({ hasText: `expense #${id}` })
      .last();
    await booked.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this expense?' });
    expect(await confirm.innerText()).toContain('team lunch');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await emulator.expense(PEOPLE.Ada, id)).deleted_at).toBeNull();

    await booked.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect
      .poll(async () => (await emulator.expense(PEOPLE.Ada, id)).deleted_at)
      .not.toBeNull();
    const deleted = messages(page)
      .filter({ hasText: /deleted/i })
      .last();
    await deleted.waitFor();

    await deleted.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect.poll(async () => (await emulator.expense(PEOPLE.Ada, id)).deleted_at).toBeNull();
    // Restored, it reads as it did when booked: same amounts in the same form. The message is
    // updated after the service answered the undo, so the page may still show "Deleted" a moment.
    const restored = lastMessage(page, 'team lunch · US$40.00');
    await expect.poll(() => restored.innerText()).toContain('@Grace owes @Ada US$20.00');
  });
});

describe.skipIf(!chromiumPath)('"Split this" on a message', () => {
  async function splitThis(page: Page, text: string) {
    const message = messages(page).filter({ hasText: text }).last();
    await message.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Split this/ }).click();
    const form = dialog(page, 'Split an expense');
    await expect
      .poll(() => form.getByRole('textbox', { name: 'What for' }).inputValue())
      .toBe(text.split(' ')[0]);
    return form;
  }

  it('opens the modal pre-filled from the message and books it for the chosen people', async () => {
    const { page } = flows;
    await open(page, '#general');
    await send(page, 'Taxi 23.50');
    const form = await splitThis(page, 'Taxi 23.50');
    expect(await form.getByRole('textbox', { name: 'Amount', exact: true }).inputValue()).toBe(
      '23.50',
    );

    const people = form.getByRole('combobox', { name: /Shared by/ });
    await people.click();
    await people.fill('Gra');
    await form.getByRole('option', { name: 'Grace' }).click();
    await people.press('Escape');
    expect(await form.getByRole('list', { name: 'Selected' }).innerText()).toMatch(
      /Ada[\s\S]*Grace/,
    );
    await form.getByRole('button', { name: 'Book it' }).click();
    await form.waitFor({ state: 'detached' });

    // The expense is answered in the message's thread.
    await messages(page)
      .filter({ hasText: 'Taxi 23.50' })
      .last()
      .getByRole('button', { name: '1 reply' })
      .click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    const booked = thread.getByRole('article').filter({ hasText: 'Taxi · US$23.50' }).last();
    await booked.waitFor();
    expect(await booked.innerText()).not.toContain('Only visible to you');
    expect(await booked.innerText()).toContain('@Grace owes @Ada US$11.75');
    const expense = await emulator.expense(PEOPLE.Grace, await expenseNumber(booked));
    expect(expense).toMatchObject({ cost: '23.5', currency_code: 'USD', description: 'Taxi' });
    expect(expense.shares).toEqual(
      new Map([
        [PEOPLE.Ada, { paid: '23.5', owed: '11.75' }],
        [PEOPLE.Grace, { paid: '0.0', owed: '11.75' }],
      ]),
    );
  });

  it('shows a bad amount as an error under its field and books nothing', async () => {
    const { page } = flows;
    await page.getByRole('button', { name: 'Close thread' }).click();
    const before = await messages(page).count();
    const form = await splitThis(page, 'Taxi 23.50');
    const amount = form.getByRole('textbox', { name: 'Amount', exact: true });
    await amount.fill('twelve');
    await form.getByRole('button', { name: 'Book it' }).click();
    const describedBy = await expect
      .poll(() => amount.getAttribute('aria-describedby'))
      .toBeTruthy()
      .then(() => amount.getAttribute('aria-describedby'));
    const error = form.locator(`[id="${describedBy}"]`);
    expect(await error.getAttribute('role')).toBe('alert');
    expect((await error.innerText()).length).toBeGreaterThan(5);
    expect(await form.isVisible()).toBe(true);

    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect(await messages(page).count()).toBe(before);
  });
});
