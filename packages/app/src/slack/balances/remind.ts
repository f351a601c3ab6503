/**
 * Payment reminders: `/split remind @ann` and the Remind buttons under a balance send Ann a DM
 * with what she owes the sender and a way to settle it. At most one reminder per pair of people
 * per day (the sender's local day), decided by a claim in the shared store so that two replicas,
 * a double click or a command and a click at once send one. The person reminded can turn
 * reminders off (a preference kept under her own Slack id, so it works before she ever links);
 * the sender then hears only that she has, nothing more.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  Logger,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import { resolvePeople } from '../../accounts/people.js';
import { REMIND_EXAMPLE } from '../../core/command/index.js';
import type { Friend, ServiceClient } from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { problemText } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { clickerOf } from '../runtime/click.js';
import { notice, problem } from '../shared/balance-blocks.js';
import { todayIn } from '../shared/dates.js';
import { connectPrompt, errorNotice } from '../shared/notices.js';
import { parseRemindRef } from '../shared/remind-buttons.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { linked, type SplitContext, tellFailure } from '../shared/split-context.js';
import { told } from '../shared/told.js';
import { otherPersonVoice, voiceIn } from '../shared/voice.js';
import { friendOrNone } from './friend.js';
import { friendOf, slackName } from './paid-command.js';
import { owedIn } from './partial.js';
import {
  alreadyRemindedText,
  nothingOwedText,
  notInWorkspaceText,
  reminderMessage,
  reminderSentText,
  remindersOffMessage,
  remindersOffText,
} from './remind-views.js';

/** Longer than a day in any time zone, so the claim for one local day outlives that day. */
const REMIND_CLAIM_TTL_MS = 48 * 60 * 60_000;

function remindClaimKey(team: string, from: string, to: string, day: string): string {
  return `remind:${team}:${from}:${to}:${day}`;
}

const nameOf = (f: Friend) => [f.first_name, f.last_name].filter(Boolean).join(' ');

/**
 * Sends one reminder from `sender` to the friend `friendId` (Slack id `slackId` when known), in
 * the voice of the person reminded; returns what the sender is told, in the sender's (mrkdwn).
 */
async function sendReminder(input: {
  deps: SlackDeps;
  sender: SlackUserKey;
  record: ServiceTokenRecord;
  client: ServiceClient;
  friendId: number;
  slackId: string | null;
  /** The sender's local day, yyyy-MM-dd. */
  today: string;
  /** Used until the friend's own name is read; undefined when Slack does not know them. */
  name: string | undefined;
  /** The sender's. */
  voice: Voice;
  /** The request's Slack lookups. */
  lookups: LookupBudget;
  logger: Logger;
}): Promise<string> {
  const { deps, sender, client, logger, voice } = input;
  const friend = await friendOrNone(client, input.friendId);
  if (!friend) return nothingOwedText(input.name, voice);
  const name = nameOf(friend) || input.name || friend.email || `#${friend.id}`;
  const owed = [...owedIn(friend.balance, 'from')].map(([currency, amount]) => ({
    currency,
    amount,
  }));
  if (owed.length === 0) return nothingOwedText(name, voice);
  const slackId =
    input.slackId ??
    (friend.email
      ? await deps.directory.slackIdByEmail(sender.team_id, friend.email, input.lookups)
      : null);
  if (!slackId || slackId === sender.user_id) return notInWorkspaceText(name, voice);
  const target = { team_id: sender.team_id, user_id: slackId };
  const prefs = await deps.preferences.get(target);
  if (prefs.reminders_off) return remindersOffText(name, voice);
  const key = remindClaimKey(sender.team_id, sender.user_id, slackId, input.today);
  if (!(await deps.claims.claim(key, REMIND_CLAIM_TTL_MS))) {
    return alreadyRemindedText(name, voice);
  }
  try {
    const [theirLink, me, theirVoice] = await Promise.all([
      deps.tokens.get(target),
      deps.directory
        .slackUser(sender.team_id, sender.user_id, input.lookups)
        .catch(() => undefined),
      // The DM is read by the person who owes: in their language, amounts written their way.
      otherPersonVoice(deps, target, logger, input.lookups),
    ]);
    const message = reminderMessage(
      {
        sender: sender.user_id,
        senderName: (me?.name ?? input.record.name ?? '').slice(0, 60),
        owed,
        ...(theirLink
          ? { settle: { friendId: input.record.service_user_id } }
          : { connectUrl: await deps.linking.connectUrl(target) }),
      },
      theirVoice,
    );
    const slack = await deps.slack.forTeam(sender.team_id);
    await slack.chat.postMessage({ channel: slackId, ...message });
  } catch (error) {
    // Not sent: the sender may try again today.
    await deps.claims
      .release(key)
      .catch((again: Error) =>
        logger.warn({ msg: 'remind: release failed: {again}', again: again.message }),
      );
    throw error;
  }
  logger.info('remind: reminder sent');
  return reminderSentText(name, owed, voice);
}

/** `/split remind @ann`. */
export async function remindCommand(c: SplitContext<'remind'>): Promise<void> {
  const target = c.parsed.mention;
  const voice = c.voice;
  if (target === c.user.user_id) {
    await c.reply.ephemeral(problem(voice, voice.t('remind.self'), REMIND_EXAMPLE));
    return;
  }
  const link = await linked(c);
  if (told(link)) return;
  try {
    const people = await resolvePeople({
      caller: { ...c.user, service_user_id: link.record.service_user_id },
      ids: [target],
      tokens: c.deps.tokens,
      directory: c.deps.directory,
      lookups: c.lookups,
      client: link.client,
    });
    if ('problem' in people) {
      await c.reply.ephemeral(
        errorNotice(c.voice, problemText(c.voice, people.problem), REMIND_EXAMPLE),
      );
      return;
    }
    const person = people.people.get(target);
    const name = person ? slackName(person) : undefined;
    const friend = person ? await friendOf(link.client, person) : undefined;
    if (!friend) {
      await c.reply.ephemeral(notice(nothingOwedText(name, voice)));
      return;
    }
    const text = await sendReminder({
      deps: c.deps,
      sender: c.user,
      record: link.record,
      client: link.client,
      friendId: friend.id,
      slackId: target,
      today: c.ctx.today,
      name,
      voice,
      lookups: c.lookups,
      logger: c.logger,
    });
    await c.reply.ephemeral(notice(text));
  } catch (error) {
    await tellFailure(c, error, voice.t('remind.nothing_sent'));
  }
}

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/** Remind under a balance (a message or App Home). */
export function remindClicked(deps: SlackDeps) {
  return async (args: ActionArgs): Promise<void> => {
    await args.ack();
    const { body, logger, client } = args;
    const user = clickerOf(body);
    const home = body.view?.type === 'home';
    const lookups = lookupBudget();
    const voice = await voiceIn(args.context, { lookups });
    /** Tells the sender a line of mrkdwn: at the top of Home, or by the message. */
    const tell = async (text: string) => {
      if (home) await deps.hooks.publishHome(client, user, voice, logger, text);
      else
        await args.respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...notice(text),
        });
    };
    try {
      // A button carries the person in its value; the menu (several people) in the option chosen.
      const action = args.action as { value?: string; selected_option?: { value?: string } };
      const ref = parseRemindRef(action.value ?? action.selected_option?.value);
      if (!ref) {
        await tell(voice.t('remind.damaged'));
        return;
      }
      const record = await deps.tokens.get(user);
      if (!record) {
        const url = await deps.linking.connectUrl(user);
        if (home) await tell(voice.t('settle.connect_first'));
        else
          await args.respond({
            response_type: 'ephemeral',
            replace_original: false,
            ...connectPrompt(voice, { url, reason: 'first_time' }),
          });
        return;
      }
      const text = await sendReminder({
        deps,
        sender: user,
        record,
        client: deps.service.forLink(record),
        friendId: ref.id,
        slackId: null,
        today: todayIn(voice.timeZone, deps.now()),
        name: ref.n,
        voice,
        lookups,
        logger,
      });
      await tell(text);
    } catch (error) {
      const failure = describeServiceFailure(voice, error, voice.t('remind.nothing_sent'));
      if (failure.relink) await deps.unlinking.unlink(user);
      logger.warn({ msg: 'remind failed: {error}', error: (error as Error).message });
      await tell(failure.text).catch((again: Error) =>
        logger.error({ msg: 'remind: could not tell: {again}', again: again.message }),
      );
    }
  };
}

/** "No more reminders" on a reminder DM. */
export function reminderOffClicked(deps: SlackDeps) {
  return async (args: ActionArgs): Promise<void> => {
    await args.ack();
    const user = clickerOf(args.body);
    const voice = await voiceIn(args.context);
    try {
      await deps.preferences.setRemindersOff(user, true);
      await args.respond({ replace_original: true, ...remindersOffMessage(voice) });
    } catch (error) {
      args.logger.warn({ msg: 'reminders off failed: {error}', error: (error as Error).message });
      await args.respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...notice(voice.t('remind.off_failed')),
      });
    }
  };
}
