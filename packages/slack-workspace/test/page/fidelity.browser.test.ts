// The page drawn the way Slack's client draws it, in a real (headless) Chromium against the stub
// workspace server: App Home shows what the app published, text wraps, selects fit their text,
// modals close from their header and bring an error into view, messages group by sender.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Block, View } from '../../src/page/types.js';
import { StubPage } from './stub.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

const pt = (text: string) => ({ type: 'plain_text' as const, text });
const md = (text: string) => ({ type: 'mrkdwn' as const, text });
const option = (text: string, value: string) => ({ text: pt(text), value });

const stub = new StubPage();

beforeAll(() => stub.start(), 30_000);
afterAll(() => stub.close());

afterEach(() => {
  expect(stub.violations, 'the page broke its Content-Security-Policy').toEqual([]);
});

const CURRENCIES = [option('EUR (€)', 'EUR'), option('GBP (£)', 'GBP'), option('USD ($)', 'USD')];
const GROUPS = [option('No default group', '0'), option('Lisbon trip', '7')];

/** App Home's settings as the app draws them: no block ids, so blocks are known by position. */
function settingsHome(hash: string, input: { on: boolean; currency: string; group: string }): View {
  const section = (text: string, accessory: Record<string, unknown>): Block => ({
    type: 'section',
    text: md(text),
    accessory,
  });
  const blocks: Block[] = [{ type: 'header', text: pt('Settings') }];
  if (input.on) blocks.push({ type: 'section', text: md('The daily DM is on.') });
  blocks.push(
    section('*Default currency*', {
      type: 'static_select',
      action_id: 'home_currency',
      placeholder: pt('Choose a currency'),
      options: CURRENCIES,
      initial_option: CURRENCIES.find((o) => o.value === input.currency),
    }),
    section('*Default group*', {
      type: 'static_select',
      action_id: 'home_default_group',
      placeholder: pt('Choose a group'),
      options: GROUPS,
      initial_option: GROUPS.find((o) => o.value === input.group),
    }),
    section(input.on ? '*Daily DM*\nOn' : '*Daily DM*\nOff', {
      type: 'button',
      action_id: 'toggle',
      text: pt(input.on ? 'Turn off' : 'Turn on'),
    }),
  );
  return { id: 'VH', type: 'home', hash, callback_id: 'home', private_metadata: '', blocks };
}

async function homeSelects(): Promise<Record<string, string>> {
  const panel = stub.page.getByRole('tabpanel');
  const boxes = panel.getByRole('combobox');
  const pairs = await boxes.evaluateAll((els) =>
    els.map((e) => [e.getAttribute('aria-label') ?? '', (e as HTMLInputElement).value]),
  );
  return Object.fromEntries(pairs);
}

describe.skipIf(!chromiumPath)('App Home', () => {
  it('shows in its selects what the app last published, whatever was shown or chosen before', async () => {
    const { page } = stub;
    let settings = { on: false, currency: 'USD', group: '0' };
    let version = 0;
    const publish = () => {
      stub.state.home = settingsHome(`h${++version}`, settings);
      stub.changed();
    };
    await stub.open('?as=U1&channel=D1&tab=home', {
      edit: (state) => {
        state.home = settingsHome('h0', settings);
      },
    });
    // The stub plays the app: Turn on and a chosen currency republish App Home.
    stub.onPost = ({ path, body }) => {
      const action = body.action as { action_id?: string } | undefined;
      if (path === 'action' && action?.action_id === 'toggle') {
        settings = { ...settings, on: !settings.on };
        publish();
      }
      if (path === 'home-opened') publish();
    };
    await page.getByRole('tabpanel').getByRole('heading', { name: 'Settings' }).waitFor();
    const start = { 'Choose a currency': 'USD ($)', 'Choose a group': 'No default group' };
    expect(await homeSelects()).toEqual(start);

    // "Turn on" adds a block above the selects: each select still shows its own value.
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'Turn off' }).waitFor();
    expect(await homeSelects()).toEqual(start);

    // A currency chosen and not kept by the app (it republishes USD): USD is what shows.
    const currency = page.getByRole('combobox', { name: 'Choose a currency' });
    await currency.click();
    await page.getByRole('option', { name: 'GBP (£)' }).click();
    await expect.poll(() => currency.inputValue()).toBe('GBP (£)');
    publish();
    await expect.poll(homeSelects).toEqual(start);

    // Switching tabs back and forth: the app republishes on each home-opened.
    await page.getByRole('tab', { name: 'Messages' }).click();
    settings = { ...settings, on: false };
    await page.getByRole('tab', { name: 'Home' }).click();
    await page.getByRole('button', { name: 'Turn on' }).waitFor();
    expect(await homeSelects()).toEqual(start);

    // A group chosen, and the app republishing that choice with a block less above it.
    settings = { ...settings, on: true, group: '7' };
    publish();
    await page.getByRole('button', { name: 'Turn off' }).waitFor();
    settings = { ...settings, on: false };
    publish();
    await page.getByRole('button', { name: 'Turn on' }).waitFor();
    expect(await homeSelects()).toEqual({ ...start, 'Choose a group': 'Lisbon trip' });
  });
});

describe.skipIf(!chromiumPath)('a message the app edits', () => {
  it('shows in its select what the app wrote, not what was chosen before the edit', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C1');
    const expense = page.getByRole('article').nth(1);
    const category = expense.getByRole('combobox', { name: 'Category' });
    await category.click();
    await expense.getByRole('option', { name: 'Travel' }).click();
    await stub.waitForPost('action');
    expect(await category.inputValue()).toBe('Travel');

    // chat.update: the app keeps the expense under Food, and says so in the select.
    const message = stub.state.messages.C1![2]!;
    const actions = message.blocks!.find((b) => b.block_id === 'expense-actions')!;
    const select = (actions.elements as Record<string, unknown>[])[2]!;
    select.initial_option = option('Food', 'food');
    message.edited = true;
    stub.changed();
    await expect.poll(() => category.inputValue()).toBe('Food');
  });
});

describe.skipIf(!chromiumPath)('long words', () => {
  it('wrap inside headers, sections, fields, context and message text, in messages and App Home', async () => {
    const { page } = stub;
    const word = 'Supercalifragilistic'.repeat(15);
    const blocks: Block[] = [
      { type: 'header', text: pt(word) },
      { type: 'section', text: pt(word) },
      { type: 'section', text: md(`*${word}*`), fields: [md(word), pt(word)] },
      { type: 'context', elements: [md(word), pt(word)] },
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: word }] }],
      },
    ];
    await stub.open('?as=U1&channel=C2', {
      edit: (state) => {
        state.messages.C2 = [
          {
            ts: '1767261600.000100',
            channel: 'C2',
            reply_count: 0,
            sender: { id: 'U2', name: 'bob', is_bot: false },
            text: word,
            ephemeral: false,
            edited: false,
          },
          {
            ts: '1767261700.000200',
            channel: 'C2',
            reply_count: 0,
            sender: { id: 'UB', name: 'Split', is_bot: true },
            text: word,
            blocks,
            ephemeral: false,
            edited: false,
          },
        ];
        state.home = { ...state.home!, blocks };
      },
    });
    await page.getByRole('article').nth(1).waitFor();
    /** Every element holding the word, and whether it ends past the right edge of `panel`. */
    const overflowing = (panel: string) =>
      page.locator(panel).evaluate((root, text) => {
        const edge = root.getBoundingClientRect().right;
        const out: string[] = [];
        const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        let count = 0;
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          if (!node.textContent?.includes(text.slice(0, 40))) continue;
          count++;
          const range = document.createRange();
          range.selectNodeContents(node);
          const right = range.getBoundingClientRect().right;
          if (right > edge + 1) out.push(`${node.parentElement?.className}: ${right} > ${edge}`);
        }
        return { count, out, scrolls: root.scrollWidth > root.clientWidth };
      }, word);
    expect(await overflowing('.messages')).toEqual({ count: 9, out: [], scrolls: false });
    await page.screenshot({ path: '/tmp/page-long-words.png' });

    await page.getByRole('link', { name: 'Split' }).click();
    await page.getByRole('tab', { name: 'Home' }).click();
    await page.getByRole('tabpanel').locator('h3').waitFor();
    expect(await overflowing('.home')).toEqual({ count: 8, out: [], scrolls: false });
  });
});

describe.skipIf(!chromiumPath)('selects', () => {
  it('are as wide as the text they show, in actions blocks and section accessories', async () => {
    const { page } = stub;
    const remind = [option('Katherine Johnson', 'U3'), option('Grace Hopper', 'U4')];
    const blocks: Block[] = [
      {
        type: 'section',
        text: md('*Default currency*'),
        accessory: {
          type: 'static_select',
          action_id: 'currency',
          placeholder: pt('Choose a currency'),
          options: [option('XAF (Central African CFA franc)', 'XAF')],
          initial_option: option('XAF (Central African CFA franc)', 'XAF'),
        },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'static_select',
            action_id: 'remind',
            placeholder: pt('Remind someone who owes you'),
            options: remind,
          },
          {
            type: 'static_select',
            action_id: 'pay',
            placeholder: pt('Pay part of a debt…'),
            options: remind,
            initial_option: remind[0],
          },
          { type: 'users_select', action_id: 'who', placeholder: pt('Pick someone to remind') },
        ],
      },
    ];
    await stub.open('?as=U1&channel=D1&tab=home', {
      edit: (state) => {
        state.home = { ...state.home!, blocks };
      },
    });
    const boxes = page.getByRole('tabpanel').getByRole('combobox');
    await expect.poll(() => boxes.count()).toBe(4);
    // The room for text inside each field against the width of the text it shows.
    const fits = await boxes.evaluateAll((els) =>
      els.map((el) => {
        const input = el as HTMLInputElement;
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const shown = input.value || input.placeholder;
        const room =
          input.clientWidth -
          Number.parseFloat(style.paddingLeft) -
          Number.parseFloat(style.paddingRight);
        return { shown, fits: context.measureText(shown).width <= room };
      }),
    );
    expect(fits).toEqual([
      { shown: 'XAF (Central African CFA franc)', fits: true },
      { shown: 'Remind someone who owes you', fits: true },
      { shown: 'Katherine Johnson', fits: true },
      { shown: 'Pick someone to remind', fits: true },
    ]);
    // Each sizes to its own text, not one width for all.
    const widths = await boxes.evaluateAll((els) => els.map((el) => el.clientWidth));
    expect(new Set(widths).size).toBe(4);
    await page.screenshot({ path: '/tmp/page-selects.png' });
  });
});

describe.skipIf(!chromiumPath)('a modal', () => {
  /** A form longer than the modal, its last field below the fold. */
  function longForm(): View {
    const field = (id: string, label: string): Block => ({
      type: 'input',
      block_id: id,
      label: pt(label),
      element: { type: 'plain_text_input', action_id: 'value' },
    });
    return {
      id: 'V9',
      type: 'modal',
      hash: 'h9',
      callback_id: 'long',
      title: pt('Itemised bill'),
      submit: pt('Save'),
      close: pt('Cancel'),
      private_metadata: '',
      blocks: [
        ...Array.from({ length: 12 }, (_, i) => field(`item${i}`, `Item ${i + 1}`)),
        field('tip', 'Tip'),
      ],
    };
  }

  it('scrolls the first field with an error into view when a submission comes back with errors', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C1', {
      edit: (state) => {
        state.modals = [longForm()];
      },
    });
    const dialog = page.getByRole('dialog', { name: 'Itemised bill' });
    await dialog.waitFor();
    const visible = () =>
      dialog.locator('.modal-body').evaluate((body) => {
        const error = body.querySelector('[role="alert"]');
        if (!error) return 'no error';
        const shown = body.getBoundingClientRect();
        const at = error.getBoundingClientRect();
        return at.top >= shown.top && at.bottom <= shown.bottom ? 'in view' : 'out of view';
      });
    stub.submitErrors = { tip: 'Enter the tip as an amount, such as 4.50' };
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').waitFor();
    await expect.poll(visible).toBe('in view');
    await page.screenshot({ path: '/tmp/page-modal-error.png' });

    // Scrolled back up and submitted again with the same error: it comes into view again.
    await dialog.locator('.modal-body').evaluate((body) => body.scrollTo(0, 0));
    expect(await visible()).toBe('out of view');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(visible).toBe('in view');
  });

  it('closes from the × in its header, as its close button does', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C1', { withModal: true });
    const dialog = page.getByRole('dialog', { name: 'New expense' });
    const close = dialog.getByRole('button', { name: 'Close', exact: true });
    expect(await close.locator('svg').count()).toBe(1);
    await close.click();
    expect(await stub.waitForPost('view-close')).toEqual({ as: 'U1', view_id: 'V1' });
    await dialog.waitFor({ state: 'detached', timeout: 3000 });
  });
});

describe.skipIf(!chromiumPath)('"(edited)"', () => {
  it('follows the last line of the message text, above the buttons', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C2', {
      edit: (state) => {
        const message = (ts: string, sender: string, text: string, blocks?: Block[]) => ({
          ts,
          channel: 'C2',
          reply_count: 0,
          sender: { id: sender, name: sender, is_bot: sender === 'UB' },
          text,
          ...(blocks ? { blocks } : {}),
          ephemeral: false,
          edited: true,
        });
        state.messages.C2 = [
          message('1767261600.000100', 'U2', 'Lunch on Friday?\nI booked *the usual place*'),
          message('1767262600.000200', 'UB', 'Lunch: 40.00 EUR', [
            { type: 'section', text: md('*Lunch* · 40.00 EUR\nSplit with <@U2>') },
            {
              type: 'actions',
              elements: [
                { type: 'button', action_id: 'edit', text: pt('Edit') },
                { type: 'button', action_id: 'undo', text: pt('Undo') },
              ],
            },
          ]),
          message('1767263600.000300', 'UB', 'Taxi', [
            { type: 'section', text: pt('Taxi · 12.00 EUR') },
            { type: 'actions', elements: [{ type: 'button', action_id: 'x', text: pt('Undo') }] },
            { type: 'context', elements: [md('Booked by <@U1>')] },
          ]),
        ];
      },
    });
    const articles = page.getByRole('article');
    await articles.nth(2).waitFor();
    const placement = (n: number) =>
      articles.nth(n).evaluate((article) => {
        const edited = article.querySelector('.msg-edited');
        if (!edited) return 'no (edited)';
        const at = edited.getBoundingClientRect();
        // The text just before "(edited)", and its last line.
        const walk = document.createTreeWalker(
          article.querySelector('.msg-body')!,
          NodeFilter.SHOW_TEXT,
        );
        let before: Node | null = null;
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          if (edited.contains(node)) break;
          if (node.textContent?.trim()) before = node;
        }
        if (!before) return 'no text before';
        const range = document.createRange();
        range.selectNodeContents(before);
        const lines = range.getClientRects();
        const last = lines[lines.length - 1]!;
        const buttons = [...article.querySelectorAll('.msg-body button')];
        return {
          text: before.textContent,
          sameLine: at.top < last.bottom && at.bottom > last.top && at.left >= last.right - 1,
          aboveButtons: buttons.every((b) => b.getBoundingClientRect().top >= at.bottom),
        };
      });
    expect(await placement(0)).toEqual({
      text: 'the usual place',
      sameLine: true,
      aboveButtons: true,
    });
    // After the section's text, above the buttons; after a context line under them, which is
    // then the message's last text.
    expect(await placement(1)).toEqual({ text: 'Bob', sameLine: true, aboveButtons: true });
    expect(await placement(2)).toEqual({ text: 'Ann', sameLine: true, aboveButtons: false });
    await page.screenshot({ path: '/tmp/page-edited.png' });
  });
});

describe.skipIf(!chromiumPath)('messages of one sender', () => {
  it('show one avatar and name while they follow each other within a few minutes', async () => {
    const { page } = stub;
    const at = 1767261600;
    await stub.open('?as=U1&channel=C2', {
      edit: (state) => {
        const people = new Map([
          ['U1', 'ann'],
          ['U2', 'bob'],
          ['UB', 'Split'],
        ]);
        const message = (minutes: number, sender: string, text: string, ephemeral = false) => ({
          ts: `${at + minutes * 60}.000100`,
          channel: 'C2',
          reply_count: 0,
          sender: { id: sender, name: people.get(sender)!, is_bot: sender === 'UB' },
          text,
          ephemeral,
          edited: false,
        });
        state.messages.C2 = [
          message(0, 'U2', 'Lunch at noon?'),
          message(1, 'U2', 'The usual place'),
          message(3, 'U2', 'I booked a table'),
          message(15, 'U2', 'Running late'),
          message(16, 'U1', 'No problem'),
          message(17, 'UB', 'Lunch booked'),
          message(17, 'UB', 'Connect your account first.', true),
          message(18, 'UB', 'Taxi booked'),
          message(18.5, 'UB', 'Dinner booked'),
        ];
      },
    });
    const articles = page.getByRole('article');
    await articles.nth(8).waitFor();
    const shown = await articles.evaluateAll((els) =>
      els.map((el) => ({
        name: el.querySelector('.msg-sender')?.textContent ?? null,
        avatar: el.querySelector('.avatar') !== null,
        label: el.getAttribute('aria-label')?.split(',')[0],
      })),
    );
    const header = (name: string) => ({ name, avatar: true, label: name });
    const continued = (label: string) => ({ name: null, avatar: false, label });
    expect(shown).toEqual([
      header('Bob'),
      continued('Bob'),
      continued('Bob'),
      header('Bob'),
      header('Ann'),
      header('Split'),
      header('Split'),
      header('Split'),
      continued('Split'),
    ]);
    await page.screenshot({ path: '/tmp/page-grouped.png' });
  });
});

describe.skipIf(!chromiumPath)('"Run daily digest now"', () => {
  it('says how many daily DMs it sent, or that nobody was due one', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C1');
    const run = page.getByRole('button', { name: 'Run daily digest now' });
    stub.answers.set('control/digest', { sent: 2 });
    await run.click();
    await page.getByRole('status').filter({ hasText: 'Sent 2 daily DMs.' }).waitFor();
    stub.answers.set('control/digest', { sent: 1 });
    await run.click();
    await page.getByRole('status').filter({ hasText: 'Sent 1 daily DM.' }).waitFor();
    stub.answers.set('control/digest', { sent: 0 });
    await run.click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Nobody is due a daily DM: none sent.' })
      .waitFor();
    expect(stub.posted.filter((p) => p.path === 'control/digest')).toHaveLength(3);
  });
});

describe.skipIf(!chromiumPath)("the page's own icons", () => {
  it('are SVG drawings, not emoji or symbol characters that need a font to show', async () => {
    const { page } = stub;
    await stub.open('?as=U1&channel=C1', {
      withModal: true,
      edit: (state) => {
        // Emoji the app or a person wrote are theirs, not the page's: none in this state.
        const json = JSON.stringify(state).replace(/:[a-z_+-]+:/g, '');
        Object.assign(state, JSON.parse(json));
        state.messages.C1![0]!.files = [
          { id: 'F1', name: 'receipt.png', mimetype: 'image/png', url: '/icon.png' },
        ];
        state.notices.push({ id: 'n2', at: 1, text: 'Daily DMs sent', tone: 'info' });
        const people = state.modals[0]!.blocks.find((b) => b.block_id === 'people')!;
        (people.element as Record<string, unknown>).initial_users = ['U1', 'U2'];
      },
    });
    const dialog = page.getByRole('dialog', { name: 'New expense' });
    await dialog.getByRole('combobox', { name: 'Currency' }).click();
    await dialog.getByRole('option', { name: 'EUR' }).waitFor();
    // Everything an icon marks, each opened once: the glyphs it drew before would be text here.
    const GLYPHS = /[\p{Extended_Pictographic}\u2190-\u21ff\u22ee\u22ef\u25cf\u27a4\u00d7\u2713]/u;
    const glyphs = () =>
      page.evaluate(() =>
        [...document.body.innerText].filter((c) => c.codePointAt(0)! > 0x7f).join(''),
      );
    expect(await glyphs()).not.toMatch(GLYPHS);
    const iconButtons = [
      dialog.getByRole('button', { name: 'Close', exact: true }),
      dialog.getByRole('button', { name: 'Remove Ann' }),
    ];
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    const expense = page.getByRole('article').nth(1);
    await expense.getByRole('button', { name: 'More options' }).click();
    await page.getByRole('button', { name: '1 reply' }).click();
    await page.getByLabel('Message: file to attach').setInputFiles({
      name: 'bill.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('40.00'),
    });
    await page.getByRole('button', { name: 'Remove bill.txt' }).waitFor();
    await expense.hover();
    await expense.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Split this/ }).waitFor();
    expect(await glyphs()).not.toMatch(GLYPHS);
    await page.screenshot({ path: '/tmp/page-icons.png' });

    iconButtons.push(
      expense.getByRole('button', { name: 'More options' }),
      expense.getByRole('button', { name: 'More actions' }),
      page.getByRole('main').getByRole('button', { name: 'Attach a file' }),
      page.getByRole('main').getByRole('button', { name: 'Send' }),
      page.getByRole('button', { name: 'Remove bill.txt' }),
      page.getByRole('button', { name: 'Close thread' }),
      page.getByRole('button', { name: 'Dismiss' }).first(),
    );
    for (const button of iconButtons.slice(2)) {
      expect(
        await button.evaluate((b) => [b.textContent, b.querySelectorAll('svg').length]),
      ).toEqual(['', 1]);
    }
    // The marks beside text: a notice's kind, a private message, a file, the app in the sidebar.
    for (const marked of [
      page.getByRole('alert').first().locator('.notice-icon'),
      page.getByRole('status').first().locator('.notice-icon'),
      page
        .getByRole('article')
        .filter({ hasText: 'Only visible to you' })
        .locator('.msg-ephemeral-note'),
      page.getByRole('link', { name: 'receipt.png' }).first(),
      page.getByRole('navigation').getByRole('link', { name: 'Split' }),
    ]) {
      expect(await marked.locator('svg').count()).toBe(1);
    }
  });
});
