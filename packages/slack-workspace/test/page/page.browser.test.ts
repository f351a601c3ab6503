// The built page in a real (headless) Chromium, against a stub of the workspace server that
// answers the page's JSON API with canned state and records what the page posts.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { StubPage } from './stub.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

const stub = new StubPage();
let page: StubPage['page'];
const open = (...args: Parameters<StubPage['open']>) => stub.open(...args);
const waitForPost = (path: string) => stub.waitForPost(path);

beforeAll(async () => {
  await stub.start();
  page = stub.page;
}, 30_000);

afterAll(() => stub.close());

afterEach(() => {
  expect(stub.violations, 'the page broke its Content-Security-Policy').toEqual([]);
});

describe.skipIf(!chromiumPath)('the sandbox page', () => {
  it('shows channels, the person switcher, messages and notices by their accessible names', async () => {
    await open('?as=U1&channel=C1');
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: '#general' }).count()).resolves.toBe(1);
    await expect(nav.getByRole('link', { name: '#lunch' }).count()).resolves.toBe(1);
    const acting = page.getByLabel('Acting as');
    expect(await acting.locator('option').allTextContents()).toEqual(['Ann', 'Bob']);
    expect(await acting.inputValue()).toBe('U1');

    const articles = page.getByRole('article');
    expect(await articles.count()).toBe(3);
    const first = articles.nth(0);
    expect(await first.textContent()).toContain('Bob');
    expect(await first.textContent()).toContain('(edited)');
    expect(await first.locator('strong').textContent()).toBe('lunch');
    expect(await first.locator('script').count()).toBe(0);
    expect(await articles.nth(2).textContent()).toContain('Only visible to you');

    await expect(
      page.getByRole('alert').filter({ hasText: 'operation_timeout' }).count(),
    ).resolves.toBe(1);
    await page.getByRole('button', { name: 'Run daily digest now' }).click();
    expect(await waitForPost('control/digest')).toEqual({});
    expect(await page.getByRole('button', { name: 'Reset' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/page-channel.png' });
  });

  it('opens a thread from the reply count', async () => {
    await open('?as=U1&channel=C1');
    await page.getByRole('button', { name: '1 reply' }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText('Me!').waitFor();
    await page.screenshot({ path: '/tmp/page-thread.png' });
    await thread.getByRole('textbox', { name: 'Reply' }).fill('count me in');
    await thread.getByRole('textbox', { name: 'Reply' }).press('Enter');
    expect(await waitForPost('message')).toEqual({
      as: 'U1',
      channel: 'C1',
      text: 'count me in',
      thread_ts: '1767261600.000100',
    });
  });

  it('offers commands after / and people after @, and sends the mention escaped', async () => {
    await open('?as=U1&channel=C1');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('/sp');
    const command = page.getByRole('option', { name: '/split' });
    expect(await command.textContent()).toContain('Share an expense');
    await box.press('Tab');
    expect(await box.inputValue()).toBe('/split ');
    await box.pressSequentially('40 fish & chips @');
    const people = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    // People, then the app itself, which a message can mention too.
    expect(await people.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(
      ['Ann', 'Bob', 'Split'],
    );
    await page.screenshot({ path: '/tmp/page-suggestions.png' });
    await box.press('ArrowDown');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('/split 40 fish & chips @Bob ');
    await box.press('Enter');
    expect(await waitForPost('message')).toEqual({
      as: 'U1',
      channel: 'C1',
      text: '/split 40 fish &amp; chips <@U2|bob>',
    });
    await expect.poll(() => box.inputValue()).toBe('');
  });

  it('sends block actions from buttons, confirmed buttons, selects and shortcuts', async () => {
    await open('?as=U1&channel=C1');
    const expense = page.getByRole('article').nth(1);
    const container = { type: 'message', channel: 'C1', ts: '1767261700.000300' };

    await expense.getByRole('button', { name: 'Edit' }).click();
    const edit = await waitForPost('action');
    expect(edit.container).toEqual(container);
    expect(edit.action).toMatchObject({
      type: 'button',
      action_id: 'edit',
      block_id: 'summary',
      value: 'e1',
    });

    stub.posted = [];
    await expense.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this expense?' });
    expect(await confirm.textContent()).toContain('Everyone in it will see it removed.');
    expect(stub.posted).toEqual([]);
    await page.screenshot({ path: '/tmp/page-confirm.png' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    expect((await waitForPost('action')).action).toMatchObject({
      action_id: 'delete',
      value: 'd1',
      style: 'danger',
    });

    stub.posted = [];
    await expense.getByRole('combobox', { name: 'Category' }).click();
    await expense.getByRole('combobox', { name: 'Category' }).pressSequentially('tra');
    await expense.getByRole('option', { name: 'Travel' }).click();
    expect((await waitForPost('action')).action).toMatchObject({
      type: 'static_select',
      action_id: 'category',
      block_id: 'expense-actions',
      selected_option: { text: { type: 'plain_text', text: 'Travel' }, value: 'travel' },
    });

    stub.posted = [];
    await expense.hover();
    await expense.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Split this' }).click();
    expect(await waitForPost('shortcut')).toEqual({
      as: 'U1',
      callback_id: 'split_this',
      channel: 'C1',
      ts: '1767261700.000300',
    });
  });

  it('submits a modal in view.state.values shape, shows errors under fields, closes live', async () => {
    await open('?as=U1&channel=C1', { withModal: true });
    const dialog = page.getByRole('dialog', { name: 'New expense' });
    await dialog.waitFor();
    await dialog.getByLabel('Amount', { exact: true }).fill('12.50');
    await dialog.getByRole('combobox', { name: 'Currency' }).click();
    await dialog.getByRole('option', { name: 'USD' }).click();
    await dialog.getByRole('combobox', { name: 'Split with' }).click();
    await dialog.getByRole('option', { name: 'Ann' }).click();
    // A multi select stays open for more choices; Escape closes it (and not the modal).
    await dialog.getByRole('combobox', { name: 'Split with' }).press('Escape');
    await dialog.getByRole('combobox', { name: 'Group' }).click();
    await dialog.getByRole('combobox', { name: 'Group' }).pressSequentially('rom');
    // The page asks again as each letter is typed; "ro" already lists Rome, so wait for "rom".
    // The asks may reach the server out of order (one connection each): any of them may be last.
    const asked = () => stub.posted.filter((p) => p.path === 'options').map((p) => p.body);
    await expect.poll(() => asked().some((body) => body.value === 'rom')).toBe(true);
    await dialog.getByRole('option', { name: 'Rome office' }).click();
    expect(asked().find((body) => body.value === 'rom')).toEqual({
      as: 'U1',
      container: { type: 'view', view_id: 'V1' },
      action_id: 'value',
      block_id: 'group',
      value: 'rom',
    });
    await dialog.getByLabel('Notes (optional)').fill('with <friends>');
    // Input blocks without dispatch_action only collect values; nothing is sent until Save.
    expect(stub.posted.filter((p) => p.path !== 'options')).toEqual([]);
    stub.submitErrors = { amount: 'Enter an amount above zero' };
    await dialog.getByRole('button', { name: 'Save' }).click();
    const submit = await waitForPost('view-submit');
    expect(submit).toEqual({
      as: 'U1',
      view_id: 'V1',
      values: {
        amount: { value: { type: 'plain_text_input', value: '12.50' } },
        currency: {
          value: {
            type: 'static_select',
            selected_option: { text: { type: 'plain_text', text: 'USD' }, value: 'USD' },
          },
        },
        date: { value: { type: 'datepicker', selected_date: '2026-03-01' } },
        people: { value: { type: 'multi_users_select', selected_users: ['U2', 'U1'] } },
        group: {
          value: {
            type: 'external_select',
            selected_option: {
              text: { type: 'plain_text', text: 'Rome office' },
              value: 'rome office',
            },
          },
        },
        how: {
          value: {
            type: 'radio_buttons',
            selected_option: { text: { type: 'plain_text', text: 'Equally' }, value: 'equal' },
          },
        },
        note: { value: { type: 'plain_text_input', value: 'with <friends>' } },
      },
    });
    const error = dialog.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('Enter an amount above zero');
    expect(
      await dialog.getByLabel('Amount', { exact: true }).getAttribute('aria-describedby'),
    ).toBe(await error.getAttribute('id'));
    await page.screenshot({ path: '/tmp/page-modal.png' });

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await waitForPost('view-close')).toEqual({ as: 'U1', view_id: 'V1' });
    // The stub pops the view and announces a new version; the page refetches and closes it.
    await dialog.waitFor({ state: 'detached', timeout: 3000 });
  });

  it('shows App Home in the Home tab and keeps person and channel in the URL', async () => {
    await open('?as=U2&channel=C1');
    await page.getByRole('navigation').getByRole('link', { name: 'Split' }).click();
    await page.getByRole('tab', { name: 'Home' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('heading', { name: 'Your balances' }).waitFor();
    expect(await panel.textContent()).toContain('You are owed 20.00 EUR by @Bob');
    // Opening the conversation reports the Messages tab first, then the switch to Home.
    await expect
      .poll(() => stub.posted.filter((p) => p.path === 'home-opened').map((p) => p.body))
      .toEqual([
        { as: 'U2', tab: 'messages' },
        { as: 'U2', tab: 'home' },
      ]);
    await panel.getByRole('button', { name: 'Remind' }).click();
    const action = await waitForPost('action');
    expect(action.container).toEqual({ type: 'view', view_id: 'VH' });
    expect(await page.getByRole('tab', { name: 'Messages' }).getAttribute('aria-selected')).toBe(
      'false',
    );
    await page.screenshot({ path: '/tmp/page-home.png' });

    const url = new URL(page.url());
    expect([url.searchParams.get('as'), url.searchParams.get('channel')]).toEqual(['U2', 'D1']);
    await page.reload();
    await page.getByRole('tab', { name: 'Home', selected: true }).waitFor();
    expect(await page.getByLabel('Acting as').inputValue()).toBe('U2');
  });
});
