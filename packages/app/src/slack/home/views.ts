/**
 * The App Home tab: the connection, balances with Settle up, the latest activity, and settings
 * (the daily DM and its hour, the default currency, the default group). A pure function from what
 * was read to a `home` view; it keeps within Slack's limits itself (100 blocks a Home view, 100
 * options a static select, 3000 characters a section).
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, Money } from '../../core/balances.js';
import type { KeptAbout } from '../../store/index.js';
import { ACTIONS, LEDGER_ACTIONS } from '../ids.js';
import { balanceBlocks, clipLines, friendRef, summaryDebts } from '../shared/balance-blocks.js';
import { keptLines } from '../shared/kept.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import { settleButton } from '../shared/settle-views.js';
import type { Voice } from '../shared/voice.js';

/** Slack refuses a Home view of more than 100 blocks. */
const HOME_BLOCKS = 100;
/** A static select takes 100 options; one is "no default group". */
const GROUP_OPTIONS = 99;

interface HomeDigest {
  enabled: boolean;
  paused: boolean;
  hour: number;
  tz: string;
}

export type HomeInput =
  | {
      kind: 'not_connected';
      connectUrl: string;
      /** The link stopped working and was removed. */
      revoked?: boolean;
      /** What the app keeps about the person even so (settings, the DM's subscription). */
      kept?: KeptAbout | undefined;
      notice?: string | undefined;
      /** Payment reminders from others are off; undefined when the setting could not be read. */
      remindersOff?: boolean | undefined;
    }
  | {
      kind: 'connected';
      name: string;
      serviceUserId: number;
      /** Undefined when the service could not be read (the reason is in `problem`). */
      summary?: BalanceSummary | undefined;
      groups: Array<{ id: number; name: string; balance: Money[] }>;
      activity: string[];
      digest: HomeDigest | undefined;
      /** The person's Slack time zone, shown next to the hour. */
      tz: string | undefined;
      defaultCurrency: string | undefined;
      /** Codes the service knows, with their symbol. */
      currencies: Array<{ code: string; unit: string }>;
      defaultGroup: { id: number; name: string } | null;
      /** A line at the top: what just happened, or what could not be read. */
      notice?: string | undefined;
      problem?: string | undefined;
      locale?: string | undefined;
      kept?: KeptAbout | undefined;
      remindersOff?: boolean | undefined;
    };

function section(text: string): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

function header(text: string): types.HeaderBlock {
  return { type: 'header', text: { type: 'plain_text', text: clip(text, LIMITS.headerText) } };
}

const plain = (text: string): types.PlainTextElement => ({
  type: 'plain_text',
  text: clip(text, 75),
});

function option(text: string, value: string): types.PlainTextOption {
  return { text: plain(text), value };
}

export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/**
 * 153 currencies do not fit a static select's 100 options, so they are grouped by first letter
 * (at most 26 groups of at most 100 options each).
 */
export function currencySelect(
  currencies: Array<{ code: string; unit: string }>,
  current: string | undefined,
): types.StaticSelect {
  const label = (c: { code: string; unit: string }) =>
    c.unit && c.unit !== c.code ? `${c.code} (${c.unit})` : c.code;
  const byLetter = new Map<string, types.PlainTextOption[]>();
  let initial: types.PlainTextOption | undefined;
  for (const c of [...currencies].sort((a, b) => a.code.localeCompare(b.code))) {
    const letter = c.code[0] ?? '?';
    const list = byLetter.get(letter) ?? [];
    if (list.length >= 100) continue;
    const o = option(label(c), c.code);
    if (c.code === current) initial = o;
    list.push(o);
    byLetter.set(letter, list);
  }
  const select: types.StaticSelect = {
    type: 'static_select',
    action_id: LEDGER_ACTIONS.homeCurrency,
    placeholder: plain('Choose a currency'),
    option_groups: [...byLetter]
      .slice(0, 100)
      .map(([letter, options]) => ({ label: plain(letter), options })),
  };
  if (initial) select.initial_option = initial;
  return select;
}

function hourSelect(hour: number): types.StaticSelect {
  const options = Array.from({ length: 24 }, (_, h) => option(hourLabel(h), String(h)));
  return {
    type: 'static_select',
    action_id: LEDGER_ACTIONS.homeDigestHour,
    placeholder: plain('Hour'),
    options,
    initial_option: options[hour] ?? options[9]!,
  };
}

function groupSelect(
  groups: Array<{ id: number; name: string }>,
  current: { id: number; name: string } | null,
): types.StaticSelect {
  const none = option('No default group', '0');
  const options = [
    none,
    ...groups.slice(0, GROUP_OPTIONS).map((g) => option(g.name, String(g.id))),
  ];
  const initial = current ? options.find((o) => o.value === String(current.id)) : none;
  return {
    type: 'static_select',
    action_id: LEDGER_ACTIONS.homeDefaultGroup,
    placeholder: plain('Choose a group'),
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

/**
 * What the app keeps about the person, with the button that removes it; nothing when nothing is
 * kept. The confirm dialog says what goes and what stays, before anything is removed.
 */
export function keptBlocks(kept: KeptAbout | undefined, voice: Voice): types.KnownBlock[] {
  const lines = kept ? keptLines(kept, voice) : [];
  if (lines.length === 0) return [];
  return [
    { type: 'divider' },
    header('Your data'),
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: clip(
          `What Split keeps about you:\n${lines.map((l) => `• ${mrkdwnEscape(l)}`).join('\n')}`,
          LIMITS.sectionText,
        ),
      },
      accessory: {
        type: 'button',
        action_id: LEDGER_ACTIONS.homeForget,
        text: plain('Remove my data'),
        value: 'forget',
        style: 'danger',
        confirm: {
          title: plain('Remove your data?'),
          text: {
            type: 'mrkdwn',
            text: 'I will remove everything listed here, your token included, so you will be disconnected. Your expenses stay in the expense service; connect again at any time.',
          },
          confirm: plain('Remove'),
          deny: plain('Cancel'),
          style: 'danger',
        },
      },
    },
  ];
}

/** Payment reminders from others, on or off; nothing when the setting could not be read. */
function reminderSetting(off: boolean | undefined): types.KnownBlock[] {
  if (off === undefined) return [];
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: off
          ? '*Payment reminders*\nOff: nobody can send you a reminder of what you owe them.'
          : '*Payment reminders*\nOn: someone you owe can send you a reminder, at most once a day.',
      },
      accessory: {
        type: 'button',
        action_id: LEDGER_ACTIONS.homeRemindersToggle,
        text: plain(off ? 'Turn on' : 'Turn off'),
        value: off ? 'on' : 'off',
      },
    },
  ];
}

function notConnected(
  input: Extract<HomeInput, { kind: 'not_connected' }>,
  voice: Voice,
): types.KnownBlock[] {
  return [
    header('Split'),
    ...(input.notice ? [section(mrkdwnEscape(input.notice))] : []),
    section(
      input.revoked
        ? ':warning: Your connection to the expense account stopped working (it was revoked or expired). Connect again to see your balances here.'
        : "You haven't connected your expense account yet. Connect it once, and this tab shows what you owe and are owed, per friend, group and currency, with buttons to settle up; `/split 40 lunch @ann` then books expenses from any channel.",
    ),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.connect,
          style: 'primary',
          text: plain('Connect account'),
          url: input.connectUrl,
        },
      ],
    },
    context(
      'The link works once, for 10 minutes, and only for you. Reopen this tab for a new one.',
    ),
    ...reminderSetting(input.remindersOff),
    ...keptBlocks(input.kept, voice),
  ];
}

type Connected = Extract<HomeInput, { kind: 'connected' }>;

/** The header, the notices, and who is connected with the Disconnect button. */
function connectedTop(input: Connected): types.KnownBlock[] {
  const top: types.KnownBlock[] = [header('Split')];
  if (input.notice) top.push(section(mrkdwnEscape(input.notice)));
  if (input.problem) top.push(section(`:warning: ${mrkdwnEscape(input.problem)}`));
  top.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: `Connected as *${mrkdwnEscape(clip(input.name, 100))}* (account #${input.serviceUserId}).`,
    },
    accessory: {
      type: 'button',
      action_id: LEDGER_ACTIONS.homeDisconnect,
      text: plain('Disconnect'),
      value: 'disconnect',
      confirm: {
        title: plain('Disconnect?'),
        text: {
          type: 'mrkdwn',
          text: 'I will remove everything I keep about you: the token for your expense account, your settings here, the daily DM and your unfinished forms. Your expenses stay in the service; connect again at any time.',
        },
        confirm: plain('Disconnect'),
        deny: plain('Cancel'),
        style: 'danger',
      },
    },
  });
  return top;
}

/**
 * The balances (shared/balance-blocks.ts, as every surface shows them): what goes above the debt
 * rows, the rows, and what goes below them (groups, Remind and Pay part…, Refresh).
 */
function balanceSection(input: Connected): {
  above: types.KnownBlock[];
  debts: types.KnownBlock[];
  below: types.KnownBlock[];
} {
  const { locale } = input;
  const above: types.KnownBlock[] = [{ type: 'divider' }, header('Balances')];
  const refresh: types.ActionsBlock = {
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: LEDGER_ACTIONS.homeRefresh,
        text: plain('Refresh'),
        value: 'refresh',
      },
    ],
  };
  if (!input.summary) {
    above.push(section("Your balances couldn't be read just now."));
    return { above, debts: [], below: [refresh] };
  }
  const parts = balanceBlocks(
    { summary: input.summary, groups: input.groups, locale },
    {
      settle: (debt, direction) => settleButton(friendRef(debt, direction, 'a'), locale),
      controls: true,
    },
  );
  above.push(parts.totals);
  return { above, debts: parts.debts, below: [...parts.groups, ...parts.controls, refresh] };
}

function settingsBlocks(input: Connected, voice: Voice): types.KnownBlock[] {
  const digest = input.digest;
  const on = digest?.enabled === true;
  const tz = digest?.tz ?? input.tz ?? 'UTC';
  const digestState = !on
    ? 'Off. Turn it on for a DM with your balances once a day, at the hour you choose.'
    : digest?.paused
      ? `Paused (it was on at ${hourLabel(digest.hour)}).`
      : `On, at ${hourLabel(digest?.hour ?? 9)} every day.`;
  return [
    { type: 'divider' },
    header('Settings'),
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*Daily balance DM*\n${digestState}` },
      accessory: {
        type: 'button',
        action_id: LEDGER_ACTIONS.homeDigestToggle,
        text: plain(on ? 'Turn off' : 'Turn on'),
        value: on ? 'off' : 'on',
        ...(on ? {} : { style: 'primary' as const }),
      },
    },
    {
      type: 'actions',
      elements: [
        hourSelect(digest?.hour ?? 9),
        ...(on && digest?.paused
          ? [
              {
                type: 'button' as const,
                action_id: LEDGER_ACTIONS.homeDigestResume,
                text: plain('Resume'),
                value: 'resume',
              },
            ]
          : []),
      ],
    },
    context(`Hour in your Slack time zone: ${mrkdwnEscape(tz)}.`),
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*Default currency*\nUsed when an amount has no currency. Now: ${input.defaultCurrency ?? 'not set'}.`,
      },
      accessory: currencySelect(input.currencies, input.defaultCurrency),
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*Default group*\n${
          input.defaultGroup
            ? `\`/split\` books into *${mrkdwnEscape(clip(input.defaultGroup.name, 100))}* unless the channel has a group or you name one.`
            : '`/split` books outside groups unless the channel has a group or you name one.'
        }`,
      },
      accessory: groupSelect(input.groups, input.defaultGroup),
    },
    ...reminderSetting(input.remindersOff),
    ...keptBlocks(input.kept, voice),
  ];
}

/** The tab, with what the app keeps about the person written in their voice. */
export function homeView(input: HomeInput, voice: Voice): types.HomeView {
  if (input.kind === 'not_connected') return { type: 'home', blocks: notConnected(input, voice) };
  const top = connectedTop(input);
  const { above, debts, below } = balanceSection(input);
  const activity: types.KnownBlock[] = [
    { type: 'divider' },
    header('Latest activity'),
    section(input.activity.length > 0 ? clipLines(input.activity, 2900) : 'Nothing yet.'),
  ];
  const settings = settingsBlocks(input, voice);
  // The debt rows give way first: everything else is a fixed handful of blocks.
  const fixed = top.length + above.length + below.length + activity.length + settings.length;
  const rows = summaryDebts(debts, HOME_BLOCKS - fixed);
  return {
    type: 'home',
    blocks: [...top, ...above, ...rows, ...below, ...activity, ...settings],
  };
}
