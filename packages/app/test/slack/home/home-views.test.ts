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
import { voiceFor } from '../../../src/voice/index.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';

const en = await voiceFor({ locale: 'en-US' });

const codes = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const a = String.fromCharCode(65 + (i % 26));
    const b = String.fromCharCode(65 + (Math.floor(i / 26) % 26));
    return { code: `${a}${b}X`, unit: '¤' };
  });

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
    const text = blocksText(view.blocks);
    expect(text).toContain('…and 280 more.');
    expect(text).toContain('Paused (it was on at 21:00).');
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
    );
    const total = (select.option_groups ?? []).reduce((n, g) => n + g.options.length, 0);
    expect(total).toBe(153);
    expect(select.option_groups?.length).toBeLessThanOrEqual(26);
    expect(select.initial_option).toEqual({
      text: { type: 'plain_text', text: 'JPY (¥)' },
      value: 'JPY',
    });
  });

  it('offers Connect to someone not connected', () => {
    const view = homeView(
      {
        kind: 'not_connected',
        connectUrl: 'http://split.test/oauth/start?s=1',
      },
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

  it('lists it with Remove my data behind a confirm dialog, within the 100 blocks', () => {
    const blocks = keptBlocks(kept, en);
    expect(blocks).toEqual([
      { type: 'divider' },
      { type: 'header', text: { type: 'plain_text', text: 'Your data' } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'What Split keeps about you:\n• the token of your expense account (encrypted)\n• your daily balance DM settings, with the balances it last showed you\n• the last expense you booked from Slack (for /split undo)',
        },
        accessory: {
          type: 'button',
          action_id: 'home_forget',
          text: { type: 'plain_text', text: 'Remove my data' },
          value: 'forget',
          style: 'danger',
          confirm: {
            title: { type: 'plain_text', text: 'Remove your data?' },
            text: {
              type: 'mrkdwn',
              text: 'I will remove everything listed here, your token included, so you will be disconnected. Your expenses stay in the expense service; connect again at any time.',
            },
            confirm: { type: 'plain_text', text: 'Remove' },
            deny: { type: 'plain_text', text: 'Cancel' },
            style: 'danger',
          },
        },
      },
    ]);
    const view = homeView(connected({ kept }), en);
    expect(view.blocks.slice(-3)).toEqual(blocks);
    expect(viewErrors(view)).toEqual([]);
  });

  it('shows nothing when nothing is kept, and shows it to someone not connected too', () => {
    expect(
      keptBlocks({ token: false, preferences: false, digest: null, lastBooked: false }, en),
    ).toEqual([]);
    const view = homeView(
      {
        kind: 'not_connected',
        connectUrl: 'http://split.test/oauth/start?state=x',
        kept: { token: false, preferences: true, digest: null, lastBooked: false },
      },
      en,
    );
    expect(blocksText(view.blocks)).toContain('your default group');
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
    expect(line).toBe('*Eve* added *“&lt;!channel&gt; &amp; ∗x∗ &lt;@U1&gt;”*.');
    expect(line).not.toMatch(/<[!@]/);
  });

  it('drops unknown tags and keeps lines short, with a date Slack formats', () => {
    const [line] = activityLines([
      { content: `<a href="x">link</a> ${'y'.repeat(500)}`, created_at: '2026-11-20T10:00:00Z' },
    ]);
    expect(line).toMatch(/^• link y+…/);
    expect(line).toContain('<!date^1795168800^{date_short_pretty} {time}|2026-11-20 10:00 UTC>');
  });
});
