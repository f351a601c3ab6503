/**
 * The Home view and the activity lines by value: 100 blocks and 100 options kept with hundreds of
 * debts, groups and 153 currencies; the service's notification HTML turned into safe mrkdwn.
 */
import { describe, expect, it } from 'vitest';
import { summarizeBalances } from '../../../src/core/balances.js';
import { activityLines, notificationText } from '../../../src/slack/home/activity-view.js';
import {
  currencySelect,
  type HomeInput,
  homeView,
  keptBlocks,
} from '../../../src/slack/home/views.js';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';
import { HOSTILE, mrkdwnTexts, rawIn, spaced, voices } from '../../support/voice-support.js';

const en = voices.en;

const codes = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const a = String.fromCharCode(65 + (i % 26));
    const b = String.fromCharCode(65 + (Math.floor(i / 26) % 26));
    return { code: `${a}${b}X`, unit: '¤' };
  });

/** Every button of a view, in accessories and actions blocks, by action id and label. */
function buttonsOf(blocks: unknown[]): Array<{ action_id: string; text: string }> {
  const found: Array<{ action_id: string; text: string }> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const element = node as { type?: string; action_id?: string; text?: { text?: string } };
    if (element.type === 'button' && element.action_id) {
      found.push({ action_id: element.action_id, text: element.text?.text ?? '' });
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(blocks);
  return found;
}

function connected(overrides: Partial<Extract<HomeInput, { kind: 'connected' }>> = {}): HomeInput {
  return {
    kind: 'connected',
    name: 'Ann Lee',
    serviceUserId: 1,
    summary: summarizeBalances([]),
    groups: [],
    activity: [],
    digest: undefined,
    tz: 'Asia/Tokyo',
    defaultCurrency: 'EUR',
    currencies: [{ code: 'EUR', unit: '€' }],
    defaultGroup: null,
    ...overrides,
  };
}

describe('homeView', () => {
  it('keeps to 100 blocks and 100 options with 300 debts, 250 groups and 153 currencies', () => {
    const friends = Array.from({ length: 300 }, (_, i) => ({
      id: i + 2,
      first_name: `F${i}`,
      last_name: null,
      balance: [{ currency_code: 'EUR', amount: i % 2 ? '-3.0' : '4.0' }],
      groups: [],
    }));
    const view = homeView(
      connected({
        summary: summarizeBalances(friends),
        groups: Array.from({ length: 250 }, (_, i) => ({
          id: i + 1,
          name: `Group ${i}`,
          balance: [{ currency: 'EUR', amount: 100 }],
        })),
        activity: Array.from({ length: 10 }, (_, i) => `• line ${i} ${'x'.repeat(240)}`),
        currencies: codes(153),
        digest: { enabled: true, paused: true, hour: 21, tz: 'Asia/Tokyo' },
      }),
      en,
    );
    expect(viewErrors(view as unknown as Record<string, unknown>)).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = spaced(blocksText(view.blocks));
    expect(text).toContain('…and 280 more.');
    expect(text).toContain('Paused (it was on at 9:00 PM).');
    expect(text).toContain('Asia/Tokyo');
  });

  it('groups 153 currencies by letter, with the current one chosen', () => {
    const select = currencySelect(
      [
        ...codes(150),
        { code: 'EUR', unit: '€' },
        { code: 'USD', unit: '$' },
        { code: 'JPY', unit: '¥' },
      ],
      'JPY',
      en,
    );
    const total = (select.option_groups ?? []).reduce((n, g) => n + g.options.length, 0);
    expect(total).toBe(153);
    expect(select.option_groups?.length).toBeLessThanOrEqual(26);
    expect(select.initial_option).toEqual({
      text: { type: 'plain_text', text: 'JPY (¥)', emoji: true },
      value: 'JPY',
    });
  });

  it('offers Connect to someone not connected', () => {
    const view = homeView(
      { kind: 'not_connected', connectUrl: 'http://split.test/oauth/start?s=1' },
      en,
    );
    expect(viewErrors(view as unknown as Record<string, unknown>)).toEqual([]);
    expect(JSON.stringify(view)).toContain('"url":"http://split.test/oauth/start?s=1"');
  });
});

describe('what the app keeps, on the Home tab', () => {
  const kept = {
    token: true,
    preferences: false,
    digest: { snapshot: true },
    lastBooked: true,
  };
  const keptLoggedOut = { ...kept, token: false, preferences: true };

  it('lists it with Remove my data behind a confirm dialog for someone not connected', () => {
    const blocks = keptBlocks(keptLoggedOut, en, true);
    expect(blocks).toEqual([
      { type: 'divider' },
      { type: 'header', text: { type: 'plain_text', text: 'Your data' } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'What Split keeps about you:\n• your settings here (default group, payment reminders)\n• your daily balance DM settings, with the balances it last showed you\n• the last expense you booked from Slack (for `/split undo`)',
        },
        accessory: {
          type: 'button',
          action_id: 'home_forget',
          text: { type: 'plain_text', text: 'Remove my data', emoji: true },
          value: 'forget',
          style: 'danger',
          confirm: {
            title: { type: 'plain_text', text: 'Remove your data?', emoji: true },
            text: {
              type: 'mrkdwn',
              text: 'I will remove everything listed here. Your expenses stay in Splitwise; connect again at any time.',
            },
            confirm: { type: 'plain_text', text: 'Remove', emoji: true },
            deny: { type: 'plain_text', text: 'Cancel', emoji: true },
            style: 'danger',
          },
        },
      },
    ]);
    const view = homeView(
      {
        kind: 'not_connected',
        connectUrl: 'http://split.test/oauth/start?s=1',
        kept: keptLoggedOut,
      },
      en,
    );
    expect(view.blocks.slice(-3)).toEqual(blocks);
    expect(viewErrors(view)).toEqual([]);
  });

  it('lists it for someone connected without a second button: their Disconnect removes it', () => {
    const blocks = keptBlocks(kept, en, false);
    expect(blocks).toEqual([
      { type: 'divider' },
      { type: 'header', text: { type: 'plain_text', text: 'Your data' } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'What Split keeps about you:\n• the link to your Splitwise account (encrypted)\n• your daily balance DM settings, with the balances it last showed you\n• the last expense you booked from Slack (for `/split undo`)',
        },
      },
    ]);
    const view = homeView(connected({ kept }), en);
    expect(view.blocks.slice(-3)).toEqual(blocks);
    expect(JSON.stringify(view)).toContain(
      'I will unlink your Splitwise account and remove everything I keep about you',
    );
    expect(viewErrors(view)).toEqual([]);
  });

  it("shows each action once: one button removes the person's data, whatever the state", () => {
    const removers = ['home_disconnect', 'home_forget'];
    const states: HomeInput[] = [
      connected({ kept }),
      connected({ kept, digest: { enabled: true, paused: true, hour: 9, tz: 'UTC' } }),
      {
        kind: 'not_connected',
        connectUrl: 'http://split.test/oauth/start?s=1',
        kept: keptLoggedOut,
      },
    ];
    for (const input of states) {
      const buttons = buttonsOf(homeView(input, en).blocks);
      const ids = buttons.map((b) => b.action_id);
      expect(new Set(ids).size, `${input.kind}: ${ids.join(', ')}`).toBe(ids.length);
      const labels = buttons.map((b) => b.text);
      expect(new Set(labels).size, `${input.kind}: ${labels.join(', ')}`).toBe(labels.length);
      expect(ids.filter((id) => removers.includes(id))).toHaveLength(1);
    }
  });

  it('shows nothing when nothing is kept, and shows it to someone not connected too', () => {
    expect(
      keptBlocks({ token: false, preferences: false, digest: null, lastBooked: false }, en, true),
    ).toEqual([]);
    const view = homeView(
      {
        kind: 'not_connected',
        connectUrl: 'http://split.test/oauth/start?state=x',
        kept: { token: false, preferences: true, digest: null, lastBooked: false },
      },
      en,
    );
    expect(blocksText(view.blocks)).toContain(
      'your settings here (default group, payment reminders)',
    );
  });
});

describe('activity lines', () => {
  it('turns the service HTML into mrkdwn', () => {
    expect(
      notificationText(
        '<strong>Bob R.</strong> added <strong>“dinner”</strong>.<br><font color="#ff652f">You owe $20.00</font>',
      ),
    ).toBe('*Bob R.* added *“dinner”*. — You owe $20.00');
    expect(notificationText('<strong>You</strong> deleted <strike>“taxi”</strike>.')).toBe(
      '*You* deleted ~“taxi”~.',
    );
    expect(notificationText('<small>Nov 20</small> <strong>You</strong> paid')).toBe(
      'Nov 20 *You* paid',
    );
  });

  it('escapes what people typed, after decoding the HTML entities', () => {
    const line = notificationText(
      '<strong>Eve</strong> added <strong>“&lt;!channel&gt; &amp; *x* &#x3C;@U1&#62;”</strong>.',
    );
    // Inside the bold span too, the stars someone typed stay stars and format nothing.
    expect(line).toBe(`*Eve* added *${mrkdwn('“<!channel> & *x* <@U1>”')}*.`);
    expect(line).not.toMatch(/<[!@]/);
    expect(
      rawIn([notificationText(`<strong>Eve</strong> added <strong>“${HOSTILE}”</strong>`)]),
    ).toEqual([]);
  });

  it('cuts a long line before formatting it, so that no span is left open', () => {
    const line = notificationText(
      `<strong>You</strong> added <strong>“${'long '.repeat(80)}”</strong>.`,
      60,
    );
    expect(line).toMatch(/^\*You\* added \*“[long ]+…\*$/);
    expect([...line].length).toBeLessThanOrEqual(60 + 4);
    const plain = notificationText(`<strong>You</strong> paid ${'x'.repeat(100)}`, 20);
    expect(plain).toBe(`*You* paid ${'x'.repeat(10)}…`);
  });

  it('shows a type the app does not know as the service wrote it: unknown tags dropped, short, dated', () => {
    const [line] = activityLines(
      [
        {
          kind: 'service',
          html: `<a href="x">link</a> ${'y'.repeat(500)}`,
          at: '2026-11-20T10:00:00Z',
        },
      ],
      en,
    );
    expect(line).toMatch(/^• link y+…/);
    // Old clients show the date as the reader writes it, in the reader's zone (New York).
    expect(spaced(line ?? '')).toContain(
      '<!date^1795168800^{date_short_pretty} {time}|Fri, Nov 20, 2026 5:00 AM>',
    );
    const [late] = activityLines(
      [{ kind: 'service', html: 'x', at: '2026-11-20T23:30:00Z' }],
      voices.ja,
    );
    // 08:30 the next day in Tokyo: the day is the reader's.
    expect(late).toContain('|2026年11月21日(土) 8:30>');
  });
});

/** Every static select in a view, with its options (grouped ones included). */
function selects(view: unknown) {
  const found: Array<{
    action_id: string;
    options: Array<{ text: { type: string; text: string }; value: string }>;
    initial_option?: unknown;
  }> = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.type === 'static_select') {
        const groups = (record.option_groups ?? []) as Array<{ options: unknown[] }>;
        found.push({
          action_id: String(record.action_id),
          options: [...((record.options ?? []) as []), ...groups.flatMap((g) => g.options)] as [],
          initial_option: record.initial_option,
        });
      }
      for (const v of Object.values(record)) walk(v);
    }
  };
  walk(view);
  return found;
}

describe('App Home in its reader’s voice', () => {
  const summary = summarizeBalances([
    {
      id: 2,
      first_name: 'Ann',
      last_name: null,
      balance: [{ currency_code: 'EUR', amount: '1234.5' }],
      groups: [],
    },
  ]);
  const input = connected({
    summary,
    groups: [{ id: 4, name: 'Flat', balance: [{ currency: 'EUR', amount: 123450 }] }],
    digest: { enabled: true, paused: false, hour: 7, tz: 'Europe/Berlin' },
    currencies: [
      { code: 'EUR', unit: '€' },
      { code: 'USD', unit: '$' },
    ],
    defaultGroup: { id: 4, name: 'Flat' },
    remindersOff: false,
  });

  it('is German, with German amounts and hours, for a de-DE reader', () => {
    const view = homeView(input, voices.de);
    const text = spaced(blocksText(view.blocks));
    expect(text).toContain('Verbunden als *Ann Lee* (Konto #1).');
    expect(text).toContain('• *EUR*: du bekommst *1.234,50 €*');
    expect(text).toContain('*Ann* schuldet dir *1.234,50 €*');
    expect(text).toContain('*Tägliche Saldo-DM* An, jeden Tag um 7:00.');
    expect(text).toContain('Uhrzeit in deiner Slack-Zeitzone: Europe/Berlin.');
    expect(text).toContain('Ausgaben aus `/split` gehen in *Flat*');
    expect(viewErrors(view)).toEqual([]);
  });

  it('is Japanese for a ja-JP reader', () => {
    const text = spaced(blocksText(homeView(input, voices.ja).blocks));
    expect(text).toContain('*Ann* はあなたに *€1,234.50* を借りています');
    expect(text).toContain('オン、毎日 7:00。');
    expect(text).toContain('最近のアクティビティ');
  });

  it('publishes selects whose initial option is one of their options, in plain text, in every language', () => {
    for (const voice of [voices.en, voices.de, voices.ja]) {
      const view = homeView(input, voice);
      const found = selects(view);
      expect(found.map((s) => s.action_id)).toEqual(
        expect.arrayContaining(['home_currency', 'home_default_group', 'home_digest_hour']),
      );
      for (const select of found) {
        for (const option of select.options) expect(option.text.type).toBe('plain_text');
        if (select.initial_option !== undefined) {
          expect(select.options, `${voice.locale} ${select.action_id}`).toContainEqual(
            select.initial_option,
          );
        }
      }
      const hour = found.find((s) => s.action_id === 'home_digest_hour');
      expect(hour?.initial_option).toEqual(hour?.options[7]);
      expect(found.find((s) => s.action_id === 'home_currency')?.initial_option).toMatchObject({
        value: 'EUR',
      });
      expect(found.find((s) => s.action_id === 'home_default_group')?.initial_option).toMatchObject(
        {
          value: '4',
        },
      );
      expect(viewErrors(view)).toEqual([]);
    }
  });

  it('escapes what people and the service wrote: names, groups, the notice’s values', () => {
    const view = homeView(
      connected({
        name: HOSTILE,
        summary: summarizeBalances([
          {
            id: 2,
            first_name: HOSTILE,
            last_name: null,
            balance: [{ currency_code: 'EUR', amount: '5' }],
            groups: [],
          },
        ]),
        groups: [{ id: 4, name: HOSTILE, balance: [{ currency: 'EUR', amount: 500 }] }],
        defaultGroup: { id: 4, name: HOSTILE },
        problem: HOSTILE,
        notice: voices.de.t('home.group_now_set', { group: mrkdwn(HOSTILE) }),
        activity: [`• ${notificationText(`<strong>${HOSTILE}</strong> added “${HOSTILE}”`)}`],
      }),
      voices.de,
    );
    expect(rawIn(mrkdwnTexts(view))).toEqual([]);
    // The group select shows the name as it is: plain text.
    expect(
      selects(view).find((s) => s.action_id === 'home_default_group')?.options[1]?.text.text,
    ).toBe(HOSTILE);
  });
});
