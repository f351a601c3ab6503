/**
 * Carries out a `/split` once it has been acked: reads what was typed and hands it to the handler
 * for its kind. The table is the extension point: a new kind of command adds its handler here,
 * and the type checker refuses a kind without one.
 */
import type { Logger } from '@slack/bolt';
import type { SlackPerson } from '../../accounts/directory.js';
import {
  HELP_SECTIONS,
  type ParseContext,
  type ParseResult,
  parseCommand,
} from '../../core/command/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { formWithoutTrigger, listExpenses, undoLast } from '../expenses/commands.js';
import { balanceCommand } from '../listeners/commands/balance.js';
import {
  groupAdd,
  groupCreate,
  groupDelete,
  groupsList,
  groupUse,
} from '../listeners/commands/groups.js';
import type { Reply } from '../reply.js';
import { errorNotice, helpMessage, plainNotice, whoamiMessage } from '../views/notices.js';
import { type BoundGroup, bookExpense } from './book.js';
import { promptConnect, relink } from './context.js';
import { todayIn } from './dates.js';
import type { SplitInvocation } from './invocation.js';

export interface SplitContext {
  deps: SlackDeps;
  inv: SplitInvocation;
  user: SlackUserKey;
  parsed: ParseResult;
  ctx: ParseContext;
  binding: BoundGroup | undefined;
  me: SlackPerson | undefined;
  reply: Reply;
  logger: Logger;
}

export type SplitHandler = (c: SplitContext) => Promise<void>;

export const SPLIT_HANDLERS: Record<ParseResult['kind'], SplitHandler> = {
  help: (c) => c.reply.ephemeral(helpMessage(HELP_SECTIONS)),

  error: async (c) => {
    if (c.parsed.kind === 'error')
      await c.reply.ephemeral(errorNotice(c.parsed.message, c.parsed.example));
  },

  connect: async (c) => {
    const record = await c.deps.tokens.get(c.user);
    if (record) {
      await c.reply.ephemeral(
        plainNotice(
          `You're already connected as ${record.name}. To link another account, type /split disconnect first.`,
        ),
      );
      return;
    }
    await promptConnect(c, 'asked', false);
  },

  disconnect: async (c) => {
    const removed = await c.deps.tokens.delete(c.user);
    c.deps.directory.forget(c.user);
    await c.reply.ephemeral(
      plainNotice(
        removed
          ? 'Disconnected: I no longer hold a token for your expense account. /split connect links it again.'
          : "You weren't connected. /split connect links your expense account.",
      ),
    );
  },

  whoami: async (c) => {
    const record = await c.deps.tokens.get(c.user);
    if (!record) return promptConnect(c, 'asked', false);
    await c.reply.ephemeral(
      whoamiMessage({
        name: record.name,
        serviceUserId: record.service_user_id,
        linkedAt: record.linked_at,
      }),
    );
  },

  expense: async (c) => {
    const record = await c.deps.tokens.get(c.user);
    if (!record) return promptConnect(c, 'first_time', true);
    await bookExpense({
      deps: c.deps,
      inv: c.inv,
      ctx: c.ctx,
      binding: c.binding,
      tz: c.me?.tz,
      record,
      reply: c.reply,
      logger: c.logger,
      relink: () => relink(c),
    });
  },

  balance: (c) => balanceCommand(c),
  groups: (c) => groupsList(c),
  group_create: (c) => groupCreate(c),
  group_add: (c) => groupAdd(c),
  group_delete: (c) => groupDelete(c),
  group_use: (c) => groupUse(c),

  open_modal: formWithoutTrigger,
  list: listExpenses,
  undo: undoLast,
};

/** The channel's group, else the caller's default group (chosen in App Home), else none. */
async function groupFor(deps: SlackDeps, inv: SplitInvocation): Promise<BoundGroup | undefined> {
  const [bound, preferences] = await Promise.all([
    deps.bindings.get({ team_id: inv.team_id, channel_id: inv.channel_id }),
    deps.preferences.get({ team_id: inv.team_id, user_id: inv.user_id }),
  ]);
  if (bound) return { group_id: bound.group_id, group_name: bound.group_name, source: 'channel' };
  const chosen = preferences.default_group;
  return chosen ? { group_id: chosen.id, group_name: chosen.name, source: 'default' } : undefined;
}

export async function runSplit(
  deps: SlackDeps,
  inv: SplitInvocation,
  reply: Reply,
  logger: Logger,
): Promise<void> {
  const user = { team_id: inv.team_id, user_id: inv.user_id };
  const [me, binding] = await Promise.all([
    deps.directory.slackUser(inv.team_id, inv.user_id).catch((error: Error) => {
      // Only the time zone and locale are lost: dates fall back to UTC, numbers to en-US.
      logger.warn(`users.info for the caller failed: ${error.message}`);
      return undefined;
    }),
    groupFor(deps, inv),
  ]);
  const ctx: ParseContext = {
    today: todayIn(me?.tz, deps.now()),
    defaultCurrency: 'USD',
    ...(me?.locale ? { locale: me.locale } : {}),
    channelHasGroup: binding !== undefined,
  };
  const parsed = parseCommand(inv.text, ctx);
  await SPLIT_HANDLERS[parsed.kind]({ deps, inv, user, parsed, ctx, binding, me, reply, logger });
}
