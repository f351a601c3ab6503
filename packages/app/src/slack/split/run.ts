/**
 * Carries out a `/split` once it has been acked: reads what was typed, once, and hands it to the
 * handler for its kind. The kinds handled here are the expense itself, help, and the expense
 * commands; the other features' handlers are handed in (slack/app.ts lists them), and the type
 * checker refuses a kind without a handler.
 */
import type { Logger } from '@slack/bolt';
import { lookupBudget } from '../../accounts/lookups.js';
import { type ParseContext, parseCommand } from '../../core/command/index.js';
import { voiceFor } from '../../voice/index.js';
import { bookExpense, boundGroup } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import type { Reply } from '../runtime/reply.js';
import { todayIn } from '../shared/dates.js';
import { errorNotice, helpMessage } from '../shared/notices.js';
import { troubleText } from '../shared/parse-problem.js';
import {
  type ProfileCurrency,
  promptConnect,
  type SplitContext,
  type SplitHandlers,
  type SplitInvocation,
  type SplitKind,
} from '../shared/split-context.js';
import { examplePeople } from './example-people.js';
import { exportCommand, formWithoutTrigger, listExpenses, undoLast } from './expense-commands.js';

type OwnKind = 'help' | 'error' | 'expense' | 'open_modal' | 'list' | 'export' | 'undo';

/** The handlers of the kinds other features own, each typed for exactly its kind. */
export type OtherHandlers = Omit<SplitHandlers, OwnKind>;

const OWN_HANDLERS: Pick<SplitHandlers, OwnKind> = {
  help: async (c) => {
    const people = await c.examplePeople();
    const { topic, asked } = c.parsed;
    await c.reply.ephemeral(helpMessage(c.voice, { topic, asked, people }));
  },

  error: async (c) => {
    const { problem } = c.parsed;
    const people = await c.examplePeople();
    const message = troubleText(c.voice, problem, people);
    await c.reply.ephemeral(errorNotice(c.voice, message, problem.example, people));
  },
  expense: async (c) => {
    const read = c.profileCurrency.ok ? c.profileCurrency.link : undefined;
    const record = read !== undefined ? read : await c.deps.tokens.get(c.user);
    if (!record) return promptConnect(c, 'first_time', true);
    await bookExpense(c, record);
  },

  open_modal: formWithoutTrigger,
  list: listExpenses,
  export: exportCommand,
  undo: undoLast,
};

/**
 * The caller's default currency on the service, which an amount without a currency is in. Read
 * through the directory's cache, so that a steady-state `/split` adds no service call for it.
 */
async function profileCurrency(deps: SlackDeps, inv: SplitInvocation): Promise<ProfileCurrency> {
  const user = { team_id: inv.team_id, user_id: inv.user_id };
  try {
    const record = await deps.tokens.get(user);
    if (!record) return { ok: true, code: undefined, link: null };
    const profile = await deps.directory.profile(user, deps.service.forLink(record));
    return { ok: true, code: profile.default_currency || undefined, link: record };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Every kind's handler: this feature's own and the other features'. */
export function splitHandlers(others: OtherHandlers): SplitHandlers {
  return { ...OWN_HANDLERS, ...others };
}

/**
 * Runs a `/split` text for a person in a conversation: parses it once, with the caller's own
 * currency, day and locale, and hands it to its kind's handler.
 */
export async function runSplit(
  handlers: SplitHandlers,
  deps: SlackDeps,
  inv: SplitInvocation,
  reply: Reply,
  logger: Logger,
): Promise<void> {
  const user = { team_id: inv.team_id, user_id: inv.user_id };
  const lookups = lookupBudget();
  const [me, binding, currency] = await Promise.all([
    deps.directory.slackUser(inv.team_id, inv.user_id, lookups).catch((error: Error) => {
      // Only the time zone and locale are lost: dates fall back to UTC, numbers to en-US.
      logger.warn({ msg: 'users.info for the caller failed: {error}', error: error.message });
      return undefined;
    }),
    boundGroup(deps, user, inv.channel_id),
    profileCurrency(deps, inv),
  ]);
  const ctx: ParseContext = {
    today: todayIn(me?.tz, deps.now()),
    defaultCurrency: (currency.ok && currency.code) || 'USD',
    channelHasGroup: binding !== undefined,
  };
  if (me?.locale) ctx.locale = me.locale;
  const parsed = parseCommand(inv.text, ctx);
  const voice = await voiceFor({ locale: me?.locale, tz: me?.tz });
  let people: Promise<readonly string[]> | undefined;
  const c: SplitContext = {
    deps,
    inv,
    user,
    parsed,
    ctx,
    profileCurrency: currency,
    binding,
    me,
    voice,
    lookups,
    examplePeople: () => {
      people ??= examplePeople({ deps, user, typed: inv.text, lookups, logger });
      return people;
    },
    reply,
    logger,
  };
  // The table gives each kind the handler typed for it; TypeScript cannot follow that link
  // through a union-typed lookup, so the call is widened here, once.
  await (handlers[parsed.kind] as (c: SplitContext<SplitKind>) => Promise<void>)(c);
}
