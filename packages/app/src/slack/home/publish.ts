/**
 * Publishes a person's Home tab, in their voice: everything read with their own token, in
 * parallel (friends, groups, notifications, their profile), plus the app's own settings; then the
 * few expenses the latest activity names (activity.ts). What cannot be read is said on the tab
 * instead of leaving it stale; a revoked token removes the link and shows Connect.
 */
import type { Logger, webApi } from '@slack/bolt';
import { summarizeBalances, summarizeGroup } from '../../core/balances.js';
import { ServiceUnauthorizedException } from '../../service/index.js';
import type { KeptAbout, ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import type { SlackDeps } from '../deps.js';
import { toFriendInput, toGroupInput } from '../shared/ledger.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { MAX_READS, readActivity } from './activity.js';
import { activityLines } from './activity-view.js';
import { type HomeInput, homeView } from './views.js';

/** Lines of latest activity: a glance, each with what it is about read once (MAX_READS). */
const ACTIVITY_ITEMS = MAX_READS;

async function homeInput(
  deps: SlackDeps,
  user: SlackUserKey,
  logger: Logger,
  voice: Voice,
  notice?: string,
  known?: ServiceTokenRecord,
): Promise<HomeInput> {
  const record = known ?? (await deps.tokens.get(user));
  if (!record) return await notConnectedInput(deps, user, logger, notice);
  const client = deps.service.forLink(record);
  const [friends, groups, notifications, profile, currencies, digest, prefs, kept] =
    await Promise.allSettled([
      client.getFriends(),
      client.getGroups(),
      client.getNotifications(undefined, ACTIVITY_ITEMS),
      deps.directory.profile(user, client),
      deps.reference.currencies(),
      deps.digest.get(user),
      deps.preferences.get(user),
      deps.forget.about(user),
    ]);
  const serviceResults = [friends, groups, notifications, profile];
  if (serviceResults.some(wasRevoked)) return await unlinkRevoked(deps, user, logger);
  const failed = [...serviceResults, currencies, digest, prefs].find(
    (r) => r.status === 'rejected',
  ) as PromiseRejectedResult | undefined;
  if (failed)
    logger.warn({
      msg: 'Home for {user_id}: {failed}',
      user_id: user.user_id,
      failed: (failed.reason as Error).message,
    });
  const me = record.service_user_id;
  const value = <T>(r: PromiseSettledResult<T>): T | undefined =>
    r.status === 'fulfilled' ? r.value : undefined;
  const preferredCurrency = value(profile)?.default_currency;
  const summaryOptions = preferredCurrency ? { preferredCurrency } : {};
  const groupList = (value(groups) ?? []).filter((g) => g.id !== 0);
  const friendList = value(friends);
  const activity = await readActivity(value(notifications) ?? [], {
    me,
    friends: friendList,
    groups: value(groups) === undefined ? undefined : groupList,
    readExpense: (id) => client.getExpense(id),
  });
  const sub = value(digest);
  return {
    kind: 'connected',
    name: value(profile)
      ? [value(profile)?.first_name, value(profile)?.last_name].filter(Boolean).join(' ')
      : record.name,
    serviceUserId: me,
    summary: friendList
      ? summarizeBalances(friendList.map(toFriendInput), summaryOptions)
      : undefined,
    groups: groupList.map((g) => ({
      id: g.id,
      name: g.name,
      balance: summarizeGroup(toGroupInput(g), me, summaryOptions).myBalance,
    })),
    activity: activityLines(activity, voice, ACTIVITY_ITEMS),
    digest: sub
      ? { enabled: sub.enabled, paused: sub.paused, hour: sub.hour, tz: sub.tz }
      : undefined,
    tz: voice.timeZone,
    defaultCurrency: preferredCurrency,
    currencies: (value(currencies) ?? []).map((c) => ({ code: c.currency_code, unit: c.unit })),
    defaultGroup: value(prefs)?.default_group ?? null,
    notice,
    problem: failed
      ? describeServiceFailure(voice, failed.reason, voice.t('home.partly_read')).text
      : undefined,
    kept: value(kept),
    remindersOff: value(prefs)?.reminders_off,
  };
}

/** The tab of a person with no link: Connect, and what the app keeps about them. */
async function notConnectedInput(
  deps: SlackDeps,
  user: SlackUserKey,
  logger: Logger,
  notice: string | undefined,
): Promise<HomeInput> {
  const [connectUrl, kept, prefs] = await Promise.all([
    deps.linking.connectUrl(user),
    keptAbout(deps, user, logger),
    deps.preferences.get(user).catch(() => undefined),
  ]);
  return {
    kind: 'not_connected',
    connectUrl,
    kept,
    notice,
    remindersOff: prefs?.reminders_off,
  };
}

/** A read the service refused because the person's link was revoked. */
function wasRevoked(r: PromiseSettledResult<unknown>): boolean {
  return (
    r.status === 'rejected' &&
    r.reason instanceof ServiceUnauthorizedException &&
    r.reason.http_status === 401
  );
}

/** The link the service no longer honours is removed, and the tab shows Connect again. */
async function unlinkRevoked(
  deps: SlackDeps,
  user: SlackUserKey,
  logger: Logger,
): Promise<HomeInput> {
  await deps.unlinking.unlink(user);
  logger.info({
    msg: 'removed the link of {team_id}:{user_id}: the service answered 401',
    team_id: user.team_id,
    user_id: user.user_id,
  });
  return {
    kind: 'not_connected',
    connectUrl: await deps.linking.connectUrl(user),
    revoked: true,
    kept: await keptAbout(deps, user, logger),
  };
}

/** Undefined when the store cannot say: the tab then leaves the section out rather than fail. */
async function keptAbout(
  deps: SlackDeps,
  user: SlackUserKey,
  logger: Logger,
): Promise<KeptAbout | undefined> {
  try {
    return await deps.forget.about(user);
  } catch (error) {
    logger.warn({
      msg: 'Home for {user_id}: what is kept could not be read: {error}',
      user_id: user.user_id,
      error: (error as Error).message,
    });
    return undefined;
  }
}

export async function publishHome(
  deps: SlackDeps,
  slack: webApi.WebClient,
  user: SlackUserKey,
  /** The person's voice: the request's, or the job's. */
  voice: Voice,
  logger: Logger,
  /** A line at the top, in the person's voice: mrkdwn already written. */
  notice?: string,
  /** The person's link when the caller has just read it, so that the store is read once. */
  known?: ServiceTokenRecord,
): Promise<void> {
  const input = await homeInput(deps, user, logger, voice, notice, known);
  await slack.views.publish({ user_id: user.user_id, view: homeView(input, voice) });
}
