/**
 * The Home tab's controls: Disconnect and Remove my data, the daily DM (on/off, resume, its
 * hour), the default currency (kept on the service, through update_user), the default group and
 * payment reminders. Each change republishes the tab with a line saying what happened, or what
 * went wrong, in the person's voice: Home actions have no response_url, so the tab is where the
 * person hears back.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  BlockElementAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { lookupBudget } from '../../accounts/lookups.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import { DigestPreferenceError } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import type { SlackDeps } from '../deps.js';
import { mrkdwn } from '../kit/text.js';
import { clickerOf } from '../runtime/click.js';
import { describeServiceFailure, serviceMessage } from '../shared/service-failure.js';
import { voiceIn } from '../shared/voice.js';
import { publishHome } from './publish.js';
import { forgottenText, hourLabel } from './views.js';

type Args = SlackActionMiddlewareArgs<BlockAction<BlockElementAction>> & AllMiddlewareArgs;

/**
 * What a change did, in mrkdwn; undefined when the tab simply shows the new state. `link` reads
 * the person's link once for the change and the tab after it.
 */
type Change = (
  user: SlackUserKey,
  args: Args,
  link: () => Promise<ServiceTokenRecord | undefined>,
  voice: Voice,
) => Promise<string | undefined>;

function selected(args: Args): { value: string; text: string } | undefined {
  const action = args.action as { selected_option?: { value: string; text: { text: string } } };
  const option = action.selected_option;
  return option ? { value: option.value, text: option.text.text } : undefined;
}

function homeAction(deps: SlackDeps, change: Change) {
  return async (args: Args): Promise<void> => {
    await args.ack();
    const { body, client, logger } = args;
    const user = clickerOf(body);
    const voice = await voiceIn(args.context);
    let read: Promise<ServiceTokenRecord | undefined> | undefined;
    const link = () => {
      read ??= deps.tokens.get(user);
      return read;
    };
    let notice: string | undefined;
    try {
      notice = await change(user, args, link, voice);
    } catch (error) {
      // Whatever was read may be gone now (a 401 removes the link); the tab reads it afresh.
      read = undefined;
      if (error instanceof DigestPreferenceError) {
        notice = voice.t('home.not_saved', { reason: mrkdwn(error.message) });
      } else {
        const failure = describeServiceFailure(voice, error, voice.t('home.not_changed'));
        if (failure.relink) await deps.unlinking.unlink(user);
        logger.warn({
          msg: 'Home action {action_id}: {error}',
          action_id: args.action.action_id,
          error: (error as Error).message,
        });
        notice = failure.relink ? undefined : failure.text;
      }
    }
    try {
      await publishHome(deps, client, user, voice, logger, notice, read ? await read : undefined);
    } catch (error) {
      logger.error({
        msg: 'Home for {user_id}: {error}',
        user_id: user.user_id,
        error: (error as Error).stack ?? String(error),
      });
    }
  };
}

/** The clicker's own zone: one lookup at most, and none once their voice was read. */
async function slackZone(deps: SlackDeps, user: SlackUserKey): Promise<string> {
  const person = await deps.directory
    .slackUser(user.team_id, user.user_id, lookupBudget(1))
    .catch(() => undefined);
  return person?.tz ?? 'UTC';
}

/** Disconnect and "Remove my data" both remove everything, as `/split disconnect` does. */
export const forgetClicked = (deps: SlackDeps) =>
  homeAction(deps, async (user, _args, _link, voice) => {
    return forgottenText(await deps.unlinking.forgetPerson(user), voice);
  });

export const digestToggled = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, _link, voice) => {
    const on = (args.action as { value?: string }).value === 'on';
    if (!on) {
      await deps.digest.disable(user);
      return voice.t('home.digest_now_off');
    }
    const tz = await slackZone(deps, user);
    const current = await deps.digest.get(user);
    const sub = await deps.digest.enable(user, { tz, hour: current?.hour ?? 9 });
    return voice.t('home.digest_now_on', {
      time: hourLabel(voice, sub.hour),
      zone: mrkdwn(sub.tz),
    });
  });

export const digestResumed = (deps: SlackDeps) =>
  homeAction(deps, async (user, _args, _link, voice) => {
    await deps.digest.resume(user);
    return voice.t('home.digest_resumed');
  });

export const digestHourChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, _link, voice) => {
    const hour = Number(selected(args)?.value);
    const current = await deps.digest.get(user);
    const sub = await deps.digest.set(user, {
      hour,
      ...(current ? {} : { tz: await slackZone(deps, user) }),
    });
    const time = hourLabel(voice, sub.hour);
    return sub.enabled
      ? voice.t('home.digest_hour_now', { time, zone: mrkdwn(sub.tz) })
      : voice.t('home.digest_hour_set', { time });
  });

export const currencyChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, link, voice) => {
    const code = selected(args)?.value;
    const record = await link();
    if (!record || !code) return undefined;
    const result = await deps.service
      .forLink(record)
      .updateUser({ id: record.service_user_id, default_currency: code });
    if (!result.user) {
      const reason = serviceMessage(result.errors);
      return reason
        ? voice.t('home.currency_refused', { reason: mrkdwn(reason) })
        : voice.t('home.currency_refused_silently');
    }
    deps.directory.rememberProfile(user, result.user);
    return voice.t('home.currency_now_set', {
      currency: mrkdwn(result.user.default_currency ?? code),
    });
  });

export const defaultGroupChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, link, voice) => {
    const choice = selected(args);
    if (!choice) return undefined;
    const id = Number(choice.value);
    if (!Number.isInteger(id) || id <= 0) {
      await deps.preferences.setDefaultGroup(user, null);
      return voice.t('home.group_now_none');
    }
    const record = await link();
    if (!record) return undefined;
    const groups = await deps.directory.groups(user, deps.service.forLink(record), true);
    const group = groups.find((g) => g.id === id);
    if (!group) return voice.t('home.group_gone');
    await deps.preferences.setDefaultGroup(user, { id: group.id, name: group.name });
    return voice.t('home.group_now_set', { group: mrkdwn(group.name) });
  });

export const remindersToggled = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, _link, voice) => {
    const on = (args.action as { value?: string }).value === 'on';
    await deps.preferences.setRemindersOff(user, !on);
    return on ? voice.t('home.reminders_now_on') : voice.t('home.reminders_now_off');
  });

export const homeRefreshed = (deps: SlackDeps) => homeAction(deps, async () => undefined);
