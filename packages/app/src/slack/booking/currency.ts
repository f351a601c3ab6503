/**
 * The currency of a group: what an amount typed without one is in when the expense goes into the
 * group (a `/split` in a channel bound to it, or naming it; the expense form choosing it). The
 * currency saved for the group (`/split group default <group> EUR`) first, else the one most of
 * its recent expenses are in. The second costs a service call, so each group's answer is kept a
 * few minutes: a steady-state `/split` into a group costs a store read and no service call.
 */
import type { Logger } from '@slack/bolt';
import type { Expense, ServiceClient } from '../../service/index.js';
import type { GroupKey, SlackUserKey, SplitDefaults } from '../../store/index.js';
import { TtlCache } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { BLOCKS } from '../ids.js';
import { contextBlock, mrkdwnObject } from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mention, mrkdwn } from '../kit/text.js';
import type { Voice } from '../shared/voice.js';

export interface GroupCurrencyChoice {
  /** ISO 4217 code, upper case. */
  code: string;
  /** `saved`: the group's default currency; `recent`: most of its recent expenses are in it. */
  reason: 'saved' | 'recent';
}

/** Recent expenses read to find a group's usual currency: one page. */
const RECENT = 20;
/** How long a group's usual currency is kept: new expenses rarely change it. */
const KEEP_MS = 10 * 60_000;

/**
 * The usual currencies found, per app: the store's defaults object stands for the app, so that two
 * apps in one process (tests, the sandbox) never share what one of them found.
 */
const usual = new WeakMap<object, TtlCache<string | null>>();

function usualCache(owner: object): TtlCache<string | null> {
  let cache = usual.get(owner);
  if (!cache) {
    cache = new TtlCache<string | null>(KEEP_MS, 10_000);
    usual.set(owner, cache);
  }
  return cache;
}

/**
 * The currency most of `expenses` are in (payments left out); among as many, the one of the most
 * recent expense. Null when there is none. `expenses` are newest first, as the service lists them.
 */
export function usualCurrency(expenses: readonly Expense[]): string | null {
  const counts = new Map<string, number>();
  for (const e of expenses) {
    if (e.payment || !e.currency_code) continue;
    const code = e.currency_code.toUpperCase();
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [code, count] of counts) {
    // Maps keep insertion order, newest expense's currency first: a tie keeps the earlier.
    if (best === null || count > (counts.get(best) ?? 0)) best = code;
  }
  return best;
}

/**
 * The group's currency, or undefined when it has none saved and no expenses yet. A failed read
 * (store or service) is thrown: the caller decides, rather than an amount silently taking
 * another currency.
 */
export async function groupCurrency(input: {
  deps: { splitDefaults: Pick<SplitDefaults, 'currency'> };
  group: GroupKey;
  /** The caller's client: the group's expenses are read as they see them. */
  client: Pick<ServiceClient, 'getExpenses'>;
}): Promise<GroupCurrencyChoice | undefined> {
  const { deps, group } = input;
  const saved = await deps.splitDefaults.currency(group);
  if (saved) return { code: saved.currency, reason: 'saved' };
  const key = `${group.team_id}:${group.group_id}`;
  const code = await usualCache(deps.splitDefaults).getOrLoad(key, async () =>
    usualCurrency(
      await input.client.getExpenses({ group_id: group.group_id, limit: RECENT, visible: true }),
    ),
  );
  return code === null ? undefined : { code, reason: 'recent' };
}

/**
 * The group's currency as the person sees it, through their own link; undefined when they are not
 * linked (their form asks them to connect first) or the group has none.
 */
export type GroupCurrencyOf = (
  deps: SlackDeps,
  user: SlackUserKey,
  group_id: number,
) => Promise<string | undefined>;

export const groupCurrencyOf: GroupCurrencyOf = async (deps, user, group_id) => {
  const record = await deps.tokens.get(user);
  if (!record) return undefined;
  const choice = await groupCurrency({
    deps,
    group: { team_id: user.team_id, group_id },
    client: deps.service.forLink(record),
  });
  return choice?.code;
};

/**
 * The form that opens for a group replaces an "opening" view, so this waits on nothing Slack
 * times; still, a slow choice (the service reading recent expenses) must not keep the person
 * looking at "Opening the form…": past this, the form starts from their own currency.
 */
const START_BUDGET_MS = 1_500;

/**
 * The currency a form opened for a group starts from: the one a `/split` into the group books,
 * when it comes in time and is a code the service knows (or may know: before the currency list
 * is read, any well-formed code); else undefined, and the form starts from the person's own.
 */
export async function groupStartCurrency(
  deps: SlackDeps,
  user: SlackUserKey,
  group_id: number | undefined,
  logger: Pick<Logger, 'warn'>,
  options: { choose?: GroupCurrencyOf; budgetMs?: number } = {},
): Promise<string | undefined> {
  if (group_id === undefined) return undefined;
  const { choose = groupCurrencyOf, budgetMs = START_BUDGET_MS } = options;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs);
  });
  try {
    const code = await Promise.race([
      choose(deps, user, group_id).catch((error: Error) => {
        logger.warn({
          msg: 'expense form: the currency of group {group_id} failed: {error}',
          group_id,
          error: error.message,
        });
        return undefined;
      }),
      late,
    ]);
    const upper = code?.toUpperCase();
    if (!upper || !/^[A-Z]{3,4}$/.test(upper)) return undefined;
    return deps.reference.knownCurrency(upper) === false ? undefined : upper;
  } finally {
    clearTimeout(timer);
  }
}

/** The short line an answer carries when the group's currency decided the amount's. */
export function groupCurrencyNote(
  voice: Voice,
  choice: GroupCurrencyChoice,
  groupName: string,
): string {
  const values = { currency: choice.code, group: mrkdwn(groupName) };
  return choice.reason === 'saved'
    ? voice.t('split.currency_saved', values)
    : voice.t('split.currency_recent', values);
}

/** `message` with a context line (mrkdwn) above its buttons, and in its fallback text. */
export function withNote(message: SlackMessage, note: string): SlackMessage {
  const blocks = [...message.blocks];
  const at = blocks.findIndex((b) => b.block_id === BLOCKS.expenseActions);
  blocks.splice(
    at < 0 ? blocks.length : at,
    0,
    contextBlock({ elements: [mrkdwnObject({ text: note })] }),
  );
  return { text: clip(`${message.text} ${note}`, LIMITS.fallbackText), blocks };
}

/** The group's saved currency, as `/split group default <group>` shows it (mrkdwn). */
export async function groupCurrencyShown(
  voice: Voice,
  splitDefaults: Pick<SplitDefaults, 'currency'>,
  group: GroupKey,
  groupName: string,
): Promise<string> {
  const saved = await splitDefaults.currency(group);
  const name = mrkdwn(groupName);
  return saved
    ? voice.t('split.group_currency_shown', { group: name, currency: saved.currency })
    : voice.t('split.group_currency_none', { group: name });
}

/**
 * Saves `currency` as the group's, and gives the two lines that announce it in the channel
 * (mrkdwn): who set it, and what it does.
 */
export async function saveGroupCurrency(input: {
  voice: Voice;
  splitDefaults: Pick<SplitDefaults, 'setCurrency'>;
  group: GroupKey & { name: string };
  currency: string;
  by: string;
  at: Date;
}): Promise<{ said: string; detail: string }> {
  const { voice, group, currency, by } = input;
  await input.splitDefaults.setCurrency(
    { team_id: group.team_id, group_id: group.group_id },
    {
      group_id: group.group_id,
      group_name: group.name,
      currency,
      set_by: by,
      set_at: input.at.toISOString(),
    },
  );
  return {
    said: voice.t('split.group_currency_set', {
      person: mention(by),
      group: mrkdwn(group.name),
      currency,
    }),
    detail: voice.t('split.group_currency_set_detail', { currency }),
  };
}
