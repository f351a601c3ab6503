/**
 * The App Home tab: the connection, balances with Settle up, the latest activity, and settings
 * (the daily DM and its hour, the default currency, the default group, payment reminders), and
 * what the app keeps about the person. A pure function from what was read to a `home` view, in
 * the voice of the person whose tab it is; it keeps within Slack's limits itself (100 blocks a
 * Home view, 100 options a static select, 3000 characters a section).
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, Money } from '../../core/balances.js';
import type { KeptAbout } from '../../store/index.js';
import { formatsFor, type Voice } from '../../voice/index.js';
import { ACTIONS, LEDGER_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  dividerBlock,
  header,
  homeView as homeTab,
  mrkdwnObject,
  option,
  plain,
  section,
  sectionBlock,
  staticSelect,
} from '../kit/blocks.js';
import { clip } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import {
  balanceBlocks,
  clipLines,
  friendRef,
  summaryDebts,
  who,
} from '../shared/balance-blocks.js';
import { inOwnWords } from '../shared/examples.js';
import { settleButton } from '../shared/settle-views.js';

/** Slack refuses a Home view of more than 100 blocks. */
const HOME_BLOCKS = 100;
/** A static select takes 100 options; one is "no default group". */
const GROUP_OPTIONS = 99;
/** A confirm dialog's title and text. */
const CONFIRM_TITLE = 100;
const CONFIRM_TEXT = 300;

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
      /** A line at the top, mrkdwn already written: what just happened. */
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
      /** mrkdwn lines, already written (activity-view.ts). */
      activity: string[];
      digest: HomeDigest | undefined;
      /** The person's Slack time zone, shown next to the hour. */
      tz: string | undefined;
      defaultCurrency: string | undefined;
      /** Codes the service knows, with their symbol. */
      currencies: Array<{ code: string; unit: string }>;
      defaultGroup: { id: number; name: string } | null;
      /** A line at the top, mrkdwn already written: what just happened. */
      notice?: string | undefined;
      /** What could not be read, as the service or the store said it (escaped here). */
      problem?: string | undefined;
      kept?: KeptAbout | undefined;
      remindersOff?: boolean | undefined;
    };

/** A setting's name in bold over what it is now. */
const setting = (name: string, state: string) => `*${name}*\n${state}`;

/**
 * An hour of the day ("9:00 AM", "09:00", "9:00") as the person writes times: the hour is already
 * in their zone, so it is written as it is, in UTC.
 */
export function hourLabel(voice: Voice, hour: number): string {
  return formatsFor(voice.locale, 'UTC').time(new Date(Date.UTC(2000, 0, 1, hour)));
}

/**
 * 153 currencies do not fit a static select's 100 options, so they are grouped by first letter
 * (at most 26 groups of at most 100 options each). The initial option is one of the options
 * itself, as Block Kit asks.
 */
export function currencySelect(
  currencies: Array<{ code: string; unit: string }>,
  current: string | undefined,
  voice: Voice,
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
  const select: types.StaticSelect = staticSelect({
    action_id: LEDGER_ACTIONS.homeCurrency,
    placeholder: plain(voice.t('home.currency_placeholder')),
    option_groups: [...byLetter]
      .slice(0, 100)
      .map(([letter, options]) => ({ label: plain(letter), options })),
  });
  if (initial) select.initial_option = initial;
  return select;
}

function hourSelect(hour: number, voice: Voice): types.StaticSelect {
  const options = Array.from({ length: 24 }, (_, h) => option(hourLabel(voice, h), String(h)));
  return staticSelect({
    action_id: LEDGER_ACTIONS.homeDigestHour,
    placeholder: plain(voice.t('home.hour_placeholder')),
    options,
    initial_option: options[hour] ?? options[9]!,
  });
}

function groupSelect(
  groups: Array<{ id: number; name: string }>,
  current: { id: number; name: string } | null,
  voice: Voice,
): types.StaticSelect {
  const none = option(voice.t('home.no_default_group'), '0');
  const options = [
    none,
    ...groups.slice(0, GROUP_OPTIONS).map((g) => option(g.name, String(g.id))),
  ];
  const initial = current ? options.find((o) => o.value === String(current.id)) : none;
  return staticSelect({
    action_id: LEDGER_ACTIONS.homeDefaultGroup,
    placeholder: plain(voice.t('home.group_placeholder')),
    options,
    ...(initial ? { initial_option: initial } : {}),
  });
}

/** One line per thing kept, in plain words (no user text); empty when nothing is. */
export function keptLines(kept: KeptAbout, voice: Voice): string[] {
  const lines: string[] = [];
  if (kept.token) lines.push(voice.t('home.kept_token'));
  if (kept.preferences) lines.push(voice.t('home.kept_preferences'));
  if (kept.digest) {
    lines.push(
      kept.digest.snapshot
        ? voice.t('home.kept_digest_with_snapshot')
        : voice.t('home.kept_digest'),
    );
  }
  if (kept.lastBooked) lines.push(voice.t('home.kept_last_booked'));
  if (kept.drafts) lines.push(voice.t('home.kept_drafts', { count: kept.drafts }));
  if (kept.linkStates) lines.push(voice.t('home.kept_link_states', { count: kept.linkStates }));
  return lines;
}

/** What Disconnect (and "Remove my data") answer, in mrkdwn. */
export function forgottenText(kept: KeptAbout, voice: Voice): string {
  const lines = keptLines(kept, voice);
  if (lines.length === 0) return voice.t('home.forgotten_nothing');
  return voice.t('home.forgotten', { items: voice.list(lines) });
}

/**
 * What the app keeps about the person; nothing when nothing is kept. Someone not connected gets
 * the button that removes it, "Remove my data"; someone connected has Disconnect at the top of
 * the tab, which removes the same and the link with it, so the list goes without a second button
 * that would do the same. A confirm dialog says what goes and what stays, before anything is
 * removed.
 */
export function keptBlocks(
  kept: KeptAbout | undefined,
  voice: Voice,
  removable: boolean,
): types.KnownBlock[] {
  const lines = kept ? keptLines(kept, voice) : [];
  if (lines.length === 0) return [];
  const list: types.SectionBlock = section(
    `${voice.t('home.data_intro')}\n${lines.map((l) => `• ${l}`).join('\n')}`,
  );
  if (!removable) return [dividerBlock(), header(voice.t('home.data_title')), list];
  return [
    dividerBlock(),
    header(voice.t('home.data_title')),
    {
      ...list,
      accessory: buttonElement({
        action_id: LEDGER_ACTIONS.homeForget,
        text: plain(voice.t('home.remove_data')),
        value: 'forget',
        style: 'danger',
        confirm: {
          title: plain(voice.t('home.remove_title'), CONFIRM_TITLE),
          text: mrkdwnObject({ text: clip(voice.t('home.remove_text'), CONFIRM_TEXT) }),
          confirm: plain(voice.t('home.remove')),
          deny: plain(voice.t('home.cancel')),
          style: 'danger',
        },
      }),
    },
  ];
}

/** Payment reminders from others, on or off; nothing when the setting could not be read. */
function reminderSetting(off: boolean | undefined, voice: Voice): types.KnownBlock[] {
  if (off === undefined) return [];
  return [
    sectionBlock({
      text: mrkdwnObject({
        text: setting(
          voice.t('home.reminders_title'),
          off ? voice.t('home.reminders_off') : voice.t('home.reminders_on'),
        ),
      }),
      accessory: buttonElement({
        action_id: LEDGER_ACTIONS.homeRemindersToggle,
        text: plain(off ? voice.t('home.turn_on') : voice.t('home.turn_off')),
        value: off ? 'on' : 'off',
      }),
    }),
  ];
}

/** The app's name, the same in every language. */
const APP_NAME = 'Split';

function notConnected(
  input: Extract<HomeInput, { kind: 'not_connected' }>,
  voice: Voice,
): types.KnownBlock[] {
  return [
    header(APP_NAME),
    ...(input.notice ? [section(input.notice)] : []),
    section(
      input.revoked
        ? `:warning: ${voice.t('home.revoked')}`
        : inOwnWords(voice, voice.t('home.welcome')),
    ),
    actionsBlock({
      elements: [
        buttonElement({
          action_id: ACTIONS.connect,
          style: 'primary',
          text: plain(voice.t('home.connect')),
          url: input.connectUrl,
        }),
      ],
    }),
    context(voice.t('home.connect_hint')),
    ...reminderSetting(input.remindersOff, voice),
    ...keptBlocks(input.kept, voice, true),
  ];
}

type Connected = Extract<HomeInput, { kind: 'connected' }>;

/** The header, the notices, and who is connected with the Disconnect button. */
function connectedTop(input: Connected, voice: Voice): types.KnownBlock[] {
  const top: types.KnownBlock[] = [header(APP_NAME)];
  if (input.notice) top.push(section(input.notice));
  if (input.problem) top.push(section(`:warning: ${mrkdwn(input.problem)}`));
  top.push(
    sectionBlock({
      text: mrkdwnObject({
        text: voice.t('home.connected_as', {
          name: who(clip(input.name, 100)),
          account: String(input.serviceUserId),
        }),
      }),
      accessory: buttonElement({
        action_id: LEDGER_ACTIONS.homeDisconnect,
        text: plain(voice.t('home.disconnect')),
        value: 'disconnect',
        confirm: {
          title: plain(voice.t('home.disconnect_title'), CONFIRM_TITLE),
          text: mrkdwnObject({ text: clip(voice.t('home.disconnect_text'), CONFIRM_TEXT) }),
          confirm: plain(voice.t('home.disconnect')),
          deny: plain(voice.t('home.cancel')),
          style: 'danger',
        },
      }),
    }),
  );
  return top;
}

/**
 * The balances (shared/balance-blocks.ts, as every surface shows them): what goes above the debt
 * rows, the rows, and what goes below them (groups, Remind and Record part…, Refresh).
 */
function balanceSection(
  input: Connected,
  voice: Voice,
): {
  above: types.KnownBlock[];
  debts: types.KnownBlock[];
  below: types.KnownBlock[];
} {
  const above: types.KnownBlock[] = [dividerBlock(), header(voice.t('home.balances'))];
  const refresh: types.ActionsBlock = actionsBlock({
    elements: [
      buttonElement({
        action_id: LEDGER_ACTIONS.homeRefresh,
        text: plain(voice.t('home.refresh')),
        value: 'refresh',
      }),
    ],
  });
  if (!input.summary) {
    above.push(section(voice.t('home.balances_unread')));
    return { above, debts: [], below: [refresh] };
  }
  const parts = balanceBlocks(
    { summary: input.summary, groups: input.groups },
    {
      settle: (debt, direction) => settleButton(friendRef(debt, direction, 'a'), voice),
      controls: true,
    },
    voice,
  );
  above.push(parts.totals);
  return { above, debts: parts.debts, below: [...parts.groups, ...parts.controls, refresh] };
}

function digestState(digest: HomeDigest | undefined, voice: Voice): string {
  if (digest?.enabled !== true) return voice.t('home.digest_off');
  const time = hourLabel(voice, digest.hour);
  return digest.paused
    ? voice.t('home.digest_paused', { time })
    : voice.t('home.digest_on', { time });
}

function settingsBlocks(input: Connected, voice: Voice): types.KnownBlock[] {
  const digest = input.digest;
  const on = digest?.enabled === true;
  const tz = digest?.tz ?? input.tz ?? 'UTC';
  return [
    dividerBlock(),
    header(voice.t('home.settings')),
    sectionBlock({
      text: mrkdwnObject({
        text: setting(voice.t('home.digest_title'), digestState(digest, voice)),
      }),
      accessory: buttonElement({
        action_id: LEDGER_ACTIONS.homeDigestToggle,
        text: plain(on ? voice.t('home.turn_off') : voice.t('home.turn_on')),
        value: on ? 'off' : 'on',
        ...(on ? {} : { style: 'primary' as const }),
      }),
    }),
    actionsBlock({
      elements: [
        hourSelect(digest?.hour ?? 9, voice),
        ...(on && digest?.paused
          ? [
              buttonElement({
                action_id: LEDGER_ACTIONS.homeDigestResume,
                text: plain(voice.t('home.resume')),
                value: 'resume',
              }),
            ]
          : []),
      ],
    }),
    context(voice.t('home.hour_zone', { zone: mrkdwn(tz) })),
    sectionBlock({
      text: mrkdwnObject({
        text: setting(
          voice.t('home.currency_title'),
          input.defaultCurrency
            ? voice.t('home.currency_now', { currency: mrkdwn(input.defaultCurrency) })
            : voice.t('home.currency_unset'),
        ),
      }),
      accessory: currencySelect(input.currencies, input.defaultCurrency, voice),
    }),
    sectionBlock({
      text: mrkdwnObject({
        text: setting(
          voice.t('home.group_title'),
          input.defaultGroup
            ? voice.t('home.group_set', { group: who(clip(input.defaultGroup.name, 100)) })
            : voice.t('home.group_unset'),
        ),
      }),
      accessory: groupSelect(input.groups, input.defaultGroup, voice),
    }),
    ...reminderSetting(input.remindersOff, voice),
    ...keptBlocks(input.kept, voice, false),
  ];
}

export function homeView(input: HomeInput, voice: Voice): types.HomeView {
  if (input.kind === 'not_connected') return homeTab({ blocks: notConnected(input, voice) });
  const top = connectedTop(input, voice);
  const { above, debts, below } = balanceSection(input, voice);
  const activity: types.KnownBlock[] = [
    dividerBlock(),
    header(voice.t('home.activity')),
    section(
      input.activity.length > 0
        ? clipLines(input.activity, 2900, voice)
        : voice.t('home.activity_none'),
    ),
  ];
  const settings = settingsBlocks(input, voice);
  // The debt rows give way first: everything else is a fixed handful of blocks.
  const fixed = top.length + above.length + below.length + activity.length + settings.length;
  const rows = summaryDebts(debts, HOME_BLOCKS - fixed, voice);
  return homeTab({ blocks: [...top, ...above, ...rows, ...below, ...activity, ...settings] });
}
