/**
 * Reads each feed's new notifications and posts the group's expense changes to its channel, each
 * change once across restarts and replicas:
 *
 * - one replica polls a feed per interval (a short claim on the feed), so replicas do not each
 *   call the service for it;
 * - each notification is claimed (`feed:<team>:<channel>:<notification id>`) before it is
 *   posted, so that two replicas, or a run that overlaps a slow one, never post it twice;
 * - the cursor moves only past what was handled: a post that fails gives its claim back and stops
 *   the run, and the next run starts from there.
 *
 * The notifications are the feed owner's, so a change to an expense they are not on, in a group
 * they can see, is not among them: the service notifies only the people on an expense.
 */
import type { Logger } from '@slack/bolt';
import type { ServiceFactory } from '../../accounts/service.js';
import { currencyExponent, parseMinor } from '../../core/money.js';
import {
  type Expense,
  type Notification,
  ServiceBaseException,
  type ServiceClient,
  ServiceNotAllowedException,
  ServiceNotFoundException,
  ServiceUnauthorizedException,
} from '../../service/index.js';
import type {
  ChannelFeed,
  ChannelFeeds,
  Claims,
  SlackUserKey,
  TokenStore,
} from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { notesOf } from '../booking/index.js';
import { NotInstalledError, type TeamClients } from '../runtime/team-clients.js';
import { advance, oldestFirst, unseen } from './cursor.js';
import { type FeedVerb, feedChangeMessage, feedStoppedMessage } from './views.js';

/** The service's notification types for expenses (wire-protocol §3.9). */
const VERBS = new Map<number, FeedVerb>([
  [0, 'added'],
  [1, 'edited'],
  [2, 'deleted'],
  [13, 'restored'],
]);

/**
 * Slack's answers for a channel the feed can never post to again (archived, deleted, or private
 * without the app): the feed is removed, since nobody there could read a notice about it either.
 */
const CHANNEL_GONE = new Set(['channel_not_found', 'is_archived', 'not_in_channel']);

class ChannelGone extends Error {}

/** Longer than any notification stays within reach of the cursor. */
const POSTED_TTL_MS = 48 * 60 * 60_000;

interface FeedPollerParts {
  feeds: ChannelFeeds;
  tokens: TokenStore;
  claims: Claims;
  service: ServiceFactory;
  /** The bot's client of the feed's workspace. */
  slack: TeamClients;
  /** The voice of a Slack user (their locale and zone): a feed speaks in its owner's. */
  voiceOfOwner(user: SlackUserKey): Promise<Voice>;
  logger: Logger;
  /** Between two polls of one feed. */
  intervalMs: number;
}

interface FeedRunReport {
  polled: number;
  posted: number;
  stopped: number;
}

export interface FeedPoller {
  /** Polls every feed due; resolves when each has been handled. */
  pollAll(): Promise<FeedRunReport>;
}

const key = (feed: ChannelFeed) => `${feed.team_id}:${feed.channel_id}`;

export function createFeedPoller(parts: FeedPollerParts): FeedPoller {
  const { feeds, claims, logger } = parts;

  /** The feed as stored now, if it is still the same one (not turned off, or on again). */
  async function stillOn(feed: ChannelFeed): Promise<ChannelFeed | undefined> {
    const now = await feeds.get(feed);
    return now && now.started_at === feed.started_at && now.user_id === feed.user_id
      ? now
      : undefined;
  }

  /**
   * The voice of the person who turned the feed on, read when the feed first has something to
   * say in a run (a poll with nothing new asks Slack nothing).
   */
  function ownerVoice(feed: ChannelFeed): () => Promise<Voice> {
    let voice: Promise<Voice> | undefined;
    return () => {
      voice ??= parts.voiceOfOwner({ team_id: feed.team_id, user_id: feed.user_id });
      return voice;
    };
  }

  async function stop(feed: ChannelFeed, report: FeedRunReport): Promise<void> {
    if (!(await stillOn(feed))) return;
    await feeds.delete(feed);
    report.stopped += 1;
    // Told once, whichever replica notices first.
    if (!(await claims.claim(`feed-stopped:${key(feed)}:${feed.started_at}`, POSTED_TTL_MS)))
      return;
    logger.info({ msg: 'feed {feed}: stopped, its owner is no longer linked', feed: key(feed) });
    const slack = await parts.slack.forTeam(feed.team_id);
    const voice = await ownerVoice(feed)();
    await slack.chat
      .postMessage({
        channel: feed.channel_id,
        ...feedStoppedMessage(voice, feed.user_id, feed.group_name),
      })
      .catch((error: Error) =>
        logger.warn({
          msg: 'feed {feed}: could not tell: {error}',
          feed: key(feed),
          error: error.message,
        }),
      );
  }

  /** Posts one notification's change; false when the post failed (try again later). */
  async function handle(
    feed: ChannelFeed,
    client: ServiceClient,
    voice: () => Promise<Voice>,
    n: Notification,
    report: FeedRunReport,
  ): Promise<boolean> {
    const verb = VERBS.get(n.type);
    if (!verb || n.source?.type !== 'Expense') return true;
    const claim = `feed:${key(feed)}:${n.id}`;
    if (!(await claims.claim(claim, POSTED_TTL_MS))) return true;
    let expense: Expense;
    try {
      expense = await client.getExpense(n.source.id);
    } catch (error) {
      if (error instanceof ServiceNotFoundException || error instanceof ServiceNotAllowedException)
        return true;
      await claims.release(claim);
      throw error;
    }
    if (expense.group_id !== feed.group_id) return true;
    // Booked from Slack (it carries this app's marker): its booking message already said so.
    if (verb === 'added' && notesOf(expense.details) !== (expense.details ?? '')) return true;
    // Turned off while this poll was under way (the walk read the feed before): nothing more.
    if (!(await stillOn(feed))) {
      await claims.release(claim);
      return false;
    }
    const exponent = currencyExponent(expense.currency_code);
    const slack = await parts.slack.forTeam(feed.team_id);
    try {
      await slack.chat.postMessage({
        channel: feed.channel_id,
        ...feedChangeMessage(await voice(), {
          verb,
          who: actorName(expense, n.created_by),
          description: expense.description,
          payment: expense.payment === true,
          cost: parseMinor(expense.cost, exponent),
          currency: expense.currency_code,
          group: feed.group_name,
        }),
      });
    } catch (error) {
      await claims.release(claim);
      const reason = (error as { data?: { error?: unknown } }).data?.error;
      if (typeof reason === 'string' && CHANNEL_GONE.has(reason)) throw new ChannelGone(reason);
      logger.warn({
        msg: 'feed {feed}: post failed: {error}',
        feed: key(feed),
        error: (error as Error).message,
      });
      return false;
    }
    report.posted += 1;
    return true;
  }

  async function pollOne(feed: ChannelFeed, report: FeedRunReport): Promise<void> {
    const lease = Math.max(1, Math.floor(parts.intervalMs / 2));
    if (!(await claims.claim(`feed-poll:${key(feed)}`, lease))) return;
    report.polled += 1;
    const record = await parts.tokens.get({ team_id: feed.team_id, user_id: feed.user_id });
    if (!record) return stop(feed, report);
    const client = parts.service.forLink(record);
    let list: Notification[];
    try {
      list = await client.getNotifications(feed.cursor ?? undefined, 0);
    } catch (error) {
      if (error instanceof ServiceUnauthorizedException) return stop(feed, report);
      throw error;
    }
    const handled: Notification[] = [];
    const voice = ownerVoice(feed);
    try {
      for (const n of oldestFirst(unseen(feed, list))) {
        if (!(await handle(feed, client, voice, n, report))) break;
        handled.push(n);
      }
    } finally {
      const now = handled.length > 0 ? await stillOn(feed) : undefined;
      if (now) await feeds.set({ ...now, ...advance(now, handled) });
    }
  }

  return {
    async pollAll() {
      const report: FeedRunReport = { polled: 0, posted: 0, stopped: 0 };
      for await (const feed of feeds.all()) {
        await pollOne(feed, report).catch(async (error: unknown) => {
          if (error instanceof ChannelGone || error instanceof NotInstalledError) {
            logger.info({
              msg: 'feed {feed}: removed, Slack answers {error}',
              feed: key(feed),
              error: error.message,
            });
            if (await stillOn(feed)) await feeds.delete(feed);
            report.stopped += 1;
            return;
          }
          const why =
            error instanceof ServiceBaseException
              ? `${error.name}: ${error.message}`
              : (error as Error).message;
          logger.warn({ msg: 'feed {feed}: poll failed: {why}', feed: key(feed), why });
        });
      }
      return report;
    },
  };
}

/** The name the service gives whoever made the change, if it names them. */
function actorName(expense: Expense, userId: number): string | undefined {
  const people = [
    expense.updated_by,
    expense.deleted_by,
    expense.created_by,
    ...expense.users.map((u) => u.user),
  ];
  const found = people.find((p) => p && p.id === userId);
  const name = found ? [found.first_name, found.last_name].filter(Boolean).join(' ') : '';
  return name === '' ? undefined : name;
}
