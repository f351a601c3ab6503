/**
 * The daily balance DM: one run walks the subscriptions a page at a time, picks those whose local
 * hour has come today, and sends each its DM through a small pool of workers.
 *
 * Once per person per day across replicas and restarts: before anything else a worker claims
 * `digest:<team>:<user>:<local day>` in the shared store (set-if-absent), so of several replicas
 * one sends and the others move on. The claim is released only when the work failed in a way that
 * is known not to have delivered the DM (the service or Slack unreachable, rate limits that outlast
 * the retries), so that a later tick tries again. A process that dies between the claim and the
 * send leaves the claim standing: that person misses one day's DM rather than risking two.
 */

import type { FriendInput, GroupInput } from '../../core/balances.js';
import { summarizeBalances, summarizeGroup } from '../../core/balances.js';
import type { Friend, Group } from '../../service/index.js';
import { ServiceUnauthorizedException } from '../../service/index.js';
import type { DigestPreferences, DigestSubscription } from '../../store/digest.js';
import type { Claims, ServiceTokenRecord, SlackUserKey, TokenStore } from '../../store/index.js';
import { voiceFor } from '../../voice/index.js';
import type { SlackMessage } from '../kit/message.js';
import { toFriendInput, toGroupInput } from '../shared/ledger.js';
import { type CodedError, describe, isTransient, platformError } from './failures.js';
import { changesBetween, isEmptySnapshot, snapshotOf } from './snapshot.js';
import { isDue, isValidTimeZone } from './time.js';
import { digestMessage, digestRevokedMessage } from './views.js';

/** The part of @slack/web-api's WebClient the runner uses; a WebClient fits as it is. */
export interface DigestSlackClient {
  users: {
    info(args: {
      user: string;
      include_locale: boolean;
    }): Promise<{ user?: { tz?: string; locale?: string } }>;
  };
  conversations: { open(args: { users: string }): Promise<{ channel?: { id?: string } }> };
  chat: {
    postMessage(args: {
      channel: string;
      text: string;
      // biome-ignore lint/suspicious/noExplicitAny: the WebClient's own Block union
      blocks: any[];
    }): Promise<{ ts?: string }>;
  };
}

/** The two reads a DM needs; a ServiceClient fits as it is. */
interface DigestServiceClient {
  getFriends(): Promise<Friend[]>;
  getGroups(): Promise<Group[]>;
}

export interface DigestLogger {
  debug(...message: unknown[]): void;
  info(...message: unknown[]): void;
  warn(...message: unknown[]): void;
  error(...message: unknown[]): void;
}

export interface DigestRunnerOptions {
  preferences: DigestPreferences;
  tokens: Pick<TokenStore, 'get'>;
  claims: Pick<Claims, 'claim' | 'release'>;
  /** The bot's client of a team (its own installation's when installed into many workspaces). */
  slackFor(team_id: string): Promise<DigestSlackClient>;
  serviceClientFor(record: ServiceTokenRecord): DigestServiceClient;
  clock: () => Date;
  /** People handled at once; default 8. */
  concurrency?: number;
  logger: DigestLogger;
  /**
   * How long a day's claim lives. It only has to outlast the local day it names (the day is in
   * the key), so the default is 48 hours.
   */
  claimTtlMs?: number;
  /** Waits after a 429 that the WebClient passed on (rejectRateLimitedCalls); real time by default. */
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per Slack call after 429s the WebClient passed on; default 3. */
  rateLimitRetries?: number;
  /**
   * How many hours after the chosen hour a missed DM is still sent (a restart, an outage, a
   * subscription made later in the day); default 4. Past that, the day is left out.
   */
  lateWindowHours?: number;
  /** Told of each person's outcome, whether from a run or from `runOne` (metrics). */
  onOutcome?: (outcome: DigestOutcome) => void;
}

type DigestOutcome =
  /** The DM went out. */
  | 'sent'
  /** Nothing owed and nothing changed, and the person did not ask for a DM anyway. */
  | 'nothing_new'
  /** The token was found revoked and the person was told. */
  | 'revoked_notified'
  /** Already told that the token is revoked: skipped. */
  | 'revoked_skipped'
  /** No service account linked: skipped. */
  | 'not_connected'
  /** Another replica or an earlier run holds today's claim. */
  | 'claimed_elsewhere'
  /** The person's Slack time zone changed and it is not yet their hour there. */
  | 'moved'
  /** Paused, turned off or removed between the walk over the store and their turn. */
  | 'not_due'
  /** A transient failure: the claim was released and a later tick retries. */
  | 'retry_later'
  /** A failure that retrying today would not fix: logged, tried again tomorrow. */
  | 'failed';

export interface DigestRunReport {
  /** Subscriptions read from the store. */
  scanned: number;
  /** Enabled, not paused, and their hour had come today. */
  due: number;
  outcomes: Record<DigestOutcome, number>;
}

export interface DigestRunner {
  /** One pass over every subscription at `now` (the injected clock by default). */
  runDue(now?: Date): Promise<DigestRunReport>;
  /**
   * One person now, whatever their hour: still at most once a day (today's claim) and only while
   * enabled and not paused, as read from the store at that moment.
   */
  runOne(subscription: DigestSubscription, now?: Date): Promise<DigestOutcome>;
}

const DEFAULT_CLAIM_TTL_MS = 48 * 3_600_000;

function digestClaimKey(user: SlackUserKey, day: string): string {
  return `digest:${user.team_id}:${user.user_id}:${day}`;
}

/** A report with every count at zero, which a run fills in. */
export function emptyRunReport(): DigestRunReport {
  return {
    scanned: 0,
    due: 0,
    outcomes: {
      sent: 0,
      nothing_new: 0,
      revoked_notified: 0,
      revoked_skipped: 0,
      not_connected: 0,
      claimed_elsewhere: 0,
      moved: 0,
      not_due: 0,
      retry_later: 0,
      failed: 0,
    },
  };
}

export function createDigestRunner(options: DigestRunnerOptions): DigestRunner {
  const { preferences, tokens, claims, slackFor, logger, clock } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const claimTtlMs = options.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const rateLimitRetries = options.rateLimitRetries ?? 3;
  const windowHours = options.lateWindowHours ?? 4;

  /**
   * A Slack call, retried after a 429 that the WebClient handed back instead of waiting itself
   * (rejectRateLimitedCalls). A 429 means Slack did not act on the call, so repeating it cannot
   * post twice.
   */
  async function slackCall<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const e = error as CodedError;
        if (e?.code !== 'slack_webapi_rate_limited_error' || attempt >= rateLimitRetries)
          throw error;
        await sleep(Math.max(0, e.retryAfter ?? 1) * 1000);
      }
    }
  }

  async function send(sub: DigestSubscription, message: SlackMessage): Promise<string> {
    const slack = await slackFor(sub.team_id);
    const open = async () => {
      const opened = await slackCall(() => slack.conversations.open({ users: sub.user_id }));
      const id = opened.channel?.id;
      if (!id) throw new Error('conversations.open answered without a channel id');
      return id;
    };
    let channel = sub.dm_channel ?? (await open());
    const post = (to: string) =>
      slackCall(() =>
        slack.chat.postMessage({ channel: to, text: message.text, blocks: message.blocks }),
      );
    try {
      await post(channel);
    } catch (error) {
      // A kept DM id can go stale (the person left and came back); a fresh one is one call away.
      if (sub.dm_channel === null || platformError(error) !== 'channel_not_found') throw error;
      channel = await open();
      await post(channel);
    }
    return channel;
  }

  /**
   * The person's current Slack zone (the kept one when Slack does not say) and locale (undefined
   * when Slack does not say: the DM's own defaults then).
   */
  async function currentSlackSettings(
    sub: DigestSubscription,
  ): Promise<{ tz: string; locale: string | undefined }> {
    try {
      const slack = await slackFor(sub.team_id);
      const info = await slackCall(() =>
        slack.users.info({ user: sub.user_id, include_locale: true }),
      );
      const tz = info.user?.tz;
      return { tz: tz && isValidTimeZone(tz) ? tz : sub.tz, locale: info.user?.locale };
    } catch (error) {
      logger.warn({
        msg: 'digest {team_id}/{user_id}: users.info failed, keeping {tz}: {error}',
        team_id: sub.team_id,
        user_id: sub.user_id,
        tz: sub.tz,
        error: describe(error),
      });
    }
    return { tz: sub.tz, locale: undefined };
  }

  async function runOne(start: DigestSubscription, now: Date = clock()): Promise<DigestOutcome> {
    // A throw here is a retry_later to runDue too.
    let outcome: DigestOutcome = 'retry_later';
    try {
      outcome = await carryOut(start, now);
      return outcome;
    } finally {
      options.onOutcome?.(outcome);
    }
  }

  /** One person's digest as it is carried out: whom, for which day, under which claim. */
  interface Run {
    who: string;
    sub: DigestSubscription;
    day: string;
    key: string;
    delivered: boolean;
  }

  async function carryOut(start: DigestSubscription, now: Date): Promise<DigestOutcome> {
    const day = isDue(now, start.tz, start.hour, null).day;
    const who = `${start.team_id}/${start.user_id}`;
    const run: Run = { who, sub: start, day, key: digestClaimKey(start, day), delivered: false };
    if (!(await claims.claim(run.key, claimTtlMs))) return 'claimed_elsewhere';
    try {
      // The page of the walk may be minutes old by now: a Pause click since then must count.
      const current = await preferences.get(run.sub);
      if (!current?.enabled || current.paused) {
        await claims.release(run.key);
        return 'not_due';
      }
      run.sub = current;
      const token = await tokens.get(run.sub);
      if (!token) return await finish(run, 'not_connected');
      if (run.sub.revoked_notified !== null && run.sub.revoked_notified === token.linked_at) {
        return await finish(run, 'revoked_skipped');
      }

      const { tz, locale } = await currentSlackSettings(run.sub);
      // The DM is written for its reader: their language, amounts and days written their way.
      const voice = await voiceFor({ locale, tz });
      if (tz !== run.sub.tz) {
        const moved = await followMove(run, tz, now);
        if (moved) return moved;
      }
      const ledger = await readLedger(run, token, voice);
      if (typeof ledger === 'string') return ledger;
      return await sendIfNew(run, token, ledger, voice, now);
    } catch (error) {
      return await afterFailure(run, error);
    }
  }

  /** Records that today is handled, so that later ticks pass over this person cheaply. */
  async function finish(
    run: Run,
    outcome: DigestOutcome,
    change: Partial<DigestSubscription> = {},
  ): Promise<DigestOutcome> {
    await preferences.update(run.sub, () => ({ last_day: run.day, ...change }));
    return outcome;
  }

  /**
   * The person moved: follow their new zone, which may put their hour later or on another local
   * day. An outcome when the digest stops here; null when it goes on, claimed for its day.
   */
  async function followMove(run: Run, tz: string, now: Date): Promise<DigestOutcome | null> {
    const moved = isDue(now, tz, run.sub.hour, run.sub.last_day, windowHours);
    run.sub = (await preferences.update(run.sub, () => ({ tz }))) ?? { ...run.sub, tz };
    if (!moved.due) {
      await claims.release(run.key);
      return 'moved';
    }
    if (moved.day !== run.day) {
      await claims.release(run.key);
      run.day = moved.day;
      run.key = digestClaimKey(run.sub, run.day);
      if (!(await claims.claim(run.key, claimTtlMs))) return 'claimed_elsewhere';
    }
    return null;
  }

  /** Friends and groups at the service; when the link was revoked, the person is told once. */
  async function readLedger(
    run: Run,
    token: ServiceTokenRecord,
    voice: Awaited<ReturnType<typeof voiceFor>>,
  ): Promise<{ friends: FriendInput[]; groups: GroupInput[] } | DigestOutcome> {
    const service = options.serviceClientFor(token);
    try {
      const [rawFriends, rawGroups] = await Promise.all([
        service.getFriends(),
        service.getGroups(),
      ]);
      return { friends: rawFriends.map(toFriendInput), groups: rawGroups.map(toGroupInput) };
    } catch (error) {
      if (!(error instanceof ServiceUnauthorizedException)) throw error;
      const channel = await send(run.sub, digestRevokedMessage(voice));
      run.delivered = true;
      logger.info({
        msg: 'digest {who}: service token revoked; told the person once',
        who: run.who,
      });
      return await finish(run, 'revoked_notified', {
        revoked_notified: token.linked_at,
        dm_channel: channel,
      });
    }
  }

  /** The digest, sent when something changed or the person wants it every day. */
  async function sendIfNew(
    run: Run,
    token: ServiceTokenRecord,
    { friends, groups }: { friends: FriendInput[]; groups: GroupInput[] },
    voice: Awaited<ReturnType<typeof voiceFor>>,
    now: Date,
  ): Promise<DigestOutcome> {
    const { sub, day } = run;
    const snapshot = snapshotOf(friends);
    const changes = changesBetween(sub.snapshot, snapshot);
    const summary = summarizeBalances(friends);
    const somethingNew =
      !summary.settled ||
      changes.length > 0 ||
      (sub.snapshot === null && !isEmptySnapshot(snapshot));
    if (!somethingNew && !sub.always) {
      return await finish(run, 'nothing_new', { snapshot, revoked_notified: null });
    }

    const me = token.service_user_id;
    const message = digestMessage(
      {
        day,
        summary,
        changes,
        first: sub.snapshot === null,
        groups: groups
          .filter((g) => g.id !== 0)
          .map((g) => ({ name: g.name, balance: summarizeGroup(g, me).myBalance })),
      },
      voice,
    );
    const channel = await send(sub, message);
    run.delivered = true;
    logger.debug({ msg: 'digest {who}: sent for {day}', who: run.who, day });
    return await finish(run, 'sent', {
      snapshot,
      dm_channel: channel,
      last_sent_at: now.toISOString(),
      revoked_notified: null,
    });
  }

  /** What a failure means: sent but unrecorded, retried on a later tick, or given up for today. */
  async function afterFailure(run: Run, error: unknown): Promise<DigestOutcome> {
    const { who, key } = run;
    if (run.delivered) {
      // The DM went out but its record did not: the claim must stand, or a later tick would
      // send it again. The next DM compares with an older snapshot, which is the lesser harm.
      logger.error({
        msg: 'digest {who}: sent, but not recorded: {error}',
        who,
        error: describe(error),
      });
      return 'sent';
    }
    if (isTransient(error)) {
      logger.warn({ msg: 'digest {who}: will retry, {error}', who, error: describe(error) });
      await claims.release(key).catch((releaseError: unknown) => {
        logger.error({
          msg: 'digest {who}: could not release {key}: {releaseError}',
          who,
          key,
          releaseError: describe(releaseError),
        });
      });
      return 'retry_later';
    }
    logger.error({ msg: 'digest {who}: not sent today, {error}', who, error: describe(error) });
    await finish(run, 'failed').catch(() => undefined);
    return 'failed';
  }

  async function runDue(now: Date = clock()): Promise<DigestRunReport> {
    const report = emptyRunReport();
    const running = new Set<Promise<void>>();
    try {
      for await (const sub of preferences.iterate()) {
        report.scanned += 1;
        if (!sub.enabled || sub.paused) continue;
        let due: boolean;
        try {
          due = isDue(now, sub.tz, sub.hour, sub.last_day, windowHours).due;
        } catch (error) {
          logger.error({
            msg: 'digest {team_id}/{user_id}: bad subscription, {error}',
            team_id: sub.team_id,
            user_id: sub.user_id,
            error: describe(error),
          });
          continue;
        }
        if (!due) continue;
        report.due += 1;
        const task: Promise<void> = runOne(sub, now)
          .catch((error: unknown) => {
            logger.error({
              msg: 'digest {team_id}/{user_id}: {error}',
              team_id: sub.team_id,
              user_id: sub.user_id,
              error: describe(error),
            });
            return 'retry_later' as const;
          })
          .then((outcome) => {
            report.outcomes[outcome] += 1;
          })
          .finally(() => running.delete(task));
        running.add(task);
        // Backpressure: the walk over the store waits while every worker is busy, so only
        // `concurrency` people are in memory at once.
        if (running.size >= concurrency) await Promise.race(running);
      }
    } finally {
      await Promise.all(running);
    }
    return report;
  }

  return { runDue, runOne };
}
