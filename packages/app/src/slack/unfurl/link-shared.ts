/**
 * A link to an expense or a group at the service, pasted in Slack, unfolds under its message
 * (`link_shared`, then chat.unfurl). It is read with the link of the person who shared it, so it
 * shows only what they can see at the service, and it is written in their voice, since it is
 * their message (the conversation reads it as it reads the expense message a booking posts).
 *
 * Someone who has not connected their account, or whose connection stopped working, gets only
 * Slack's private invitation to connect; a link they cannot see (not on the expense, not in the
 * group, gone) unfolds to nothing. Either way the conversation sees nothing of the expense.
 *
 * Bolt acknowledges the event before this runs. Slack sends it again when that acknowledgement
 * came late, to this replica or another, so each event is carried out once, under a claim in the
 * shared store keyed by its event_id.
 */
import type {
  AllMiddlewareArgs,
  Context,
  Logger,
  SlackEventMiddlewareArgs,
  webApi,
} from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import { currencyExponent, parseMinor } from '../../core/money.js';
import {
  type Expense,
  type Group,
  type ServiceClient,
  ServiceUnauthorizedException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { whoIsWho } from '../shared/expense-people.js';
import { voiceIn } from '../shared/voice.js';
import { parseServiceLink, type ServiceLink } from './links.js';
import { connectInvitation, type ExpenseLine, expensePreview, groupPreview } from './views.js';

type LinkSharedArgs = SlackEventMiddlewareArgs<'link_shared'> & AllMiddlewareArgs;
type LinkSharedEvent = LinkSharedArgs['event'];

/**
 * Links read for one message at most: each costs the service a read or two, and Slack lists every
 * link of a message, however many it holds. The Slack lookups of all of them together come from
 * one budget (accounts/lookups.ts), however many people the expenses hold.
 */
export const MAX_LINKS_PER_EVENT = 5;
/**
 * Links looked at for one message at most, service links or not: a message of 40,000 characters
 * can list 20,000 links, and reading each costs a URL parse.
 */
export const MAX_LINKS_EXAMINED = 100;

interface SharedLink {
  /** As Slack sent it: chat.unfurl is keyed by the exact URL. */
  url: string;
  link: ServiceLink;
}

/**
 * The service's links among an event's first MAX_LINKS_EXAMINED, each once, in order, at most
 * MAX_LINKS_PER_EVENT.
 */
export function serviceLinks(links: readonly { url: string }[]): SharedLink[] {
  const out: SharedLink[] = [];
  for (const { url } of links.slice(0, MAX_LINKS_EXAMINED)) {
    if (out.length === MAX_LINKS_PER_EVENT) break;
    if (typeof url !== 'string' || out.some((s) => s.url === url)) continue;
    const link = parseServiceLink(url);
    if (link) out.push({ url, link });
  }
  return out;
}

/** The message chat.unfurl acts on: by the event's unfurl_id (composer links too), else its ts. */
function targetOf(
  event: LinkSharedEvent,
):
  | { unfurl_id: string; source: 'composer' | 'conversations_history' }
  | { channel: string; ts: string } {
  const { unfurl_id, source } = event;
  if (unfurl_id && (source === 'composer' || source === 'conversations_history'))
    return { unfurl_id, source };
  return { channel: event.channel, ts: event.message_ts };
}

/** What one link unfolds to: blocks, nothing (not the sharer's to see), or a link to renew. */
type Preview = { blocks: webApi.KnownBlock[] } | 'hidden' | 'relink';

interface Reader {
  deps: SlackDeps;
  sharer: SlackUserKey;
  record: ServiceTokenRecord;
  client: ServiceClient;
  voice: Voice;
  /** The event's Slack lookups, shared by its links. */
  lookups: LookupBudget;
  logger: Logger;
}

function minorOf(text: string, currency: string): number {
  try {
    return parseMinor(text, currencyExponent(currency));
  } catch {
    return 0;
  }
}

function serviceName(user: { first_name?: string | null; last_name?: string | null } | undefined) {
  return [user?.first_name, user?.last_name].filter(Boolean).join(' ');
}

async function expenseBlocks(
  r: Reader,
  url: string,
  expense: Expense,
): Promise<webApi.KnownBlock[]> {
  const [who, groups] = await Promise.all([
    whoIsWho(r.deps, r.sharer, r.record.service_user_id, r.client, expense, r.lookups),
    expense.group_id
      ? r.deps.directory.groups(r.sharer, r.client).catch(() => [])
      : Promise.resolve([]),
  ]);
  const currency = expense.currency_code;
  const lines: ExpenseLine[] = expense.users.map((u) => ({
    who: who.get(u.user_id) ?? { name: serviceName(u.user) || r.voice.t('unfurl.nobody') },
    paid: minorOf(u.paid_share, currency),
    owed: minorOf(u.owed_share, currency),
  }));
  return expensePreview(
    {
      url,
      id: expense.id,
      description: expense.description,
      cost: minorOf(expense.cost, currency),
      currency,
      date: expense.date,
      group: groups.find((g) => g.id !== 0 && g.id === expense.group_id)?.name ?? null,
      deleted: Boolean(expense.deleted_at),
      lines,
    },
    r.voice,
  );
}

function groupBlocks(r: Reader, url: string, group: Group): webApi.KnownBlock[] {
  const me = group.members.find((m) => m.id === r.record.service_user_id);
  return groupPreview(
    {
      url,
      name: group.name,
      members: group.members.length,
      sharer: r.sharer.user_id,
      balance: (me?.balance ?? [])
        .map((b) => ({ currency: b.currency_code, minor: minorOf(b.amount, b.currency_code) }))
        .filter((b) => b.minor !== 0),
    },
    r.voice,
  );
}

async function preview(r: Reader, shared: SharedLink): Promise<Preview> {
  const { link, url } = shared;
  try {
    if (link.kind === 'group')
      return { blocks: groupBlocks(r, url, await r.client.getGroup(link.id)) };
    const expense = await r.client.getExpense(link.id);
    // A group's address around another group's expense is no address the service writes.
    if (link.groupId !== undefined && expense.group_id !== link.groupId) return 'hidden';
    return { blocks: await expenseBlocks(r, url, expense) };
  } catch (error) {
    if (error instanceof ServiceUnauthorizedException && error.http_status === 401) return 'relink';
    // Not on it, not in it, gone, or the service failing: nothing of it reaches the conversation.
    r.logger.info({
      msg: 'link_shared: {kind} {link_id} not shown: {error}',
      kind: link.kind,
      link_id: link.id,
      error: (error as Error).message,
    });
    return 'hidden';
  }
}

interface Unfurling {
  client: webApi.WebClient;
  logger: Logger;
  /** The event's context: the previews and the prompt to connect are in the sharer's voice. */
  context: Context;
  sharer: SlackUserKey;
  event: LinkSharedEvent;
  links: SharedLink[];
}

/** Slack's own private prompt to the sharer, with the Connect link; the conversation sees none. */
async function invite(
  deps: SlackDeps,
  u: Unfurling,
  voice: Voice,
  reason: 'first_time' | 'revoked',
): Promise<void> {
  const url = await deps.linking.connectUrl(u.sharer);
  await u.client.chat.unfurl({
    ...targetOf(u.event),
    unfurls: {},
    user_auth_required: true,
    user_auth_url: url,
    user_auth_message: connectInvitation({ url, reason }, voice),
  });
}

async function unfurl(deps: SlackDeps, u: Unfurling): Promise<void> {
  const { sharer, logger } = u;
  const lookups = lookupBudget();
  const [voice, record] = await Promise.all([
    voiceIn(u.context, { lookups }),
    deps.tokens.get(sharer),
  ]);
  if (!record) {
    await invite(deps, u, voice, 'first_time');
    return;
  }
  const reader: Reader = {
    deps,
    sharer,
    record,
    client: deps.service.forLink(record),
    voice,
    lookups,
    logger,
  };
  const previews = await Promise.all(u.links.map((shared) => preview(reader, shared)));
  if (previews.includes('relink')) {
    await deps.unlinking.unlink(sharer);
    await invite(deps, u, voice, 'revoked');
    return;
  }
  const unfurls: Record<string, { blocks: webApi.KnownBlock[] }> = Object.create(null);
  u.links.forEach((shared, i) => {
    const shown = previews[i];
    if (shown && typeof shown === 'object') unfurls[shared.url] = shown;
  });
  if (Object.keys(unfurls).length === 0) return;
  await u.client.chat.unfurl({ ...targetOf(u.event), unfurls });
}

export function linkShared(deps: SlackDeps) {
  return async ({ event, body, client, logger, context }: LinkSharedArgs): Promise<void> => {
    const links = serviceLinks(Array.isArray(event.links) ? event.links : []);
    const team = context.teamId ?? body.team_id;
    if (links.length === 0 || !team || !event.user) return;
    const sharer = { team_id: team, user_id: event.user };
    const claim = `unfurl:${team}:${body.event_id}`;
    deps.work.push(async () => {
      let claimed: boolean;
      try {
        claimed = await deps.claims.claim(claim, DEDUPE_TTL_MS);
      } catch (error) {
        logger.error({
          msg: 'link_shared {event_id}: claim failed: {error}',
          event_id: body.event_id,
          error: (error as Error).message,
        });
        return;
      }
      if (!claimed) {
        logger.info({
          msg: 'link_shared {event_id}: already carried out, redelivery ignored',
          event_id: body.event_id,
        });
        return;
      }
      try {
        await unfurl(deps, { client, logger, context, sharer, event, links });
      } catch (error) {
        // Nothing reached the conversation: a redelivery of the event may try again.
        await deps.claims.release(claim).catch(() => undefined);
        logger.warn({
          msg: 'link_shared {event_id} failed: {error}',
          event_id: body.event_id,
          error: (error as Error).message,
        });
      }
    });
  };
}
