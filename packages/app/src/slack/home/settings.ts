/**
 * The Home tab's controls: Disconnect and Remove my data, the daily DM (on/off, resume, its hour), the default
 * currency (kept on the service, through update_user) and the default group. Each change
 * republishes the tab with a line saying what happened, or what went wrong: Home actions have no
 * response_url, so the tab is where the person hears back.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  BlockElementAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import { DigestPreferenceError } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { clickerOf } from '../shared/button.js';
import { forgottenText } from '../shared/kept.js';
import { describeServiceFailure, serviceMessage } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';
import { publishHome } from './publish.js';
import { hourLabel } from './views.js';

type Args = SlackActionMiddlewareArgs<BlockAction<BlockElementAction>> & AllMiddlewareArgs;

/**
 * What a change did; undefined when the tab simply shows the new state. `link` reads the person's
 * link once for the change and the tab after it.
 */
type Change = (
  user: SlackUserKey,
  args: Args,
  link: () => Promise<ServiceTokenRecord | undefined>,
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
    let read: Promise<ServiceTokenRecord | undefined> | undefined;
    const link = () => {
      read ??= deps.tokens.get(user);
      return read;
    };
    let notice: string | undefined;
    try {
      notice = await change(user, args, link);
    } catch (error) {
      // Whatever was read may be gone now (a 401 removes the link); the tab reads it afresh.
      read = undefined;
      if (error instanceof DigestPreferenceError) {
        notice = `That setting wasn't saved: ${error.message}.`;
      } else {
        const voice = await voiceOf(deps, user, logger);
        const failure = describeServiceFailure(voice, error, "The setting wasn't changed.");
        if (failure.relink) await deps.unlinking.unlink(user);
        logger.warn(`Home action ${args.action.action_id}: ${(error as Error).message}`);
        notice = failure.relink ? undefined : failure.text;
      }
    }
    try {
      await publishHome(deps, client, user, logger, notice, read ? await read : undefined);
    } catch (error) {
      logger.error(`Home for ${user.user_id}: ${(error as Error).stack ?? String(error)}`);
    }
  };
}

async function slackZone(deps: SlackDeps, user: SlackUserKey): Promise<string> {
  const person = await deps.directory.slackUser(user.team_id, user.user_id).catch(() => undefined);
  return person?.tz ?? 'UTC';
}

/** Disconnect and "Remove my data" both remove everything, as `/split disconnect` does. */
export const forgetClicked = (deps: SlackDeps) =>
  homeAction(deps, async (user) => {
    return forgottenText(await deps.unlinking.forgetPerson(user));
  });

export const digestToggled = (deps: SlackDeps) =>
  homeAction(deps, async (user, args) => {
    const on = (args.action as { value?: string }).value === 'on';
    if (!on) {
      await deps.digest.disable(user);
      return 'The daily balance DM is off.';
    }
    const tz = await slackZone(deps, user);
    const current = await deps.digest.get(user);
    const sub = await deps.digest.enable(user, { tz, hour: current?.hour ?? 9 });
    return `The daily balance DM is on: every day at ${hourLabel(sub.hour)} (${sub.tz}), when something is owed or changed.`;
  });

export const digestResumed = (deps: SlackDeps) =>
  homeAction(deps, async (user) => {
    await deps.digest.resume(user);
    return 'The daily balance DM is back on.';
  });

export const digestHourChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args) => {
    const hour = Number(selected(args)?.value);
    const current = await deps.digest.get(user);
    const sub = await deps.digest.set(user, {
      hour,
      ...(current ? {} : { tz: await slackZone(deps, user) }),
    });
    return sub.enabled
      ? `The daily balance DM now comes at ${hourLabel(sub.hour)} (${sub.tz}).`
      : `Hour set to ${hourLabel(sub.hour)}; turn the daily DM on to get it.`;
  });

export const currencyChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, link) => {
    const code = selected(args)?.value;
    const record = await link();
    if (!record || !code) return undefined;
    const result = await deps.service
      .forLink(record)
      .updateUser({ id: record.service_user_id, default_currency: code });
    if (!result.user) {
      return `The expense service refused: ${serviceMessage(result.errors) ?? 'it gave no reason'}. The default currency wasn't changed.`;
    }
    deps.directory.rememberProfile(user, result.user);
    return `Your default currency is now ${result.user.default_currency ?? code}.`;
  });

export const defaultGroupChosen = (deps: SlackDeps) =>
  homeAction(deps, async (user, args, link) => {
    const choice = selected(args);
    if (!choice) return undefined;
    const id = Number(choice.value);
    if (!Number.isInteger(id) || id <= 0) {
      await deps.preferences.setDefaultGroup(user, null);
      return 'No default group: `/split` books outside groups unless the channel has one.';
    }
    const record = await link();
    if (!record) return undefined;
    const groups = await deps.directory.groups(user, deps.service.forLink(record), true);
    const group = groups.find((g) => g.id === id);
    if (!group) return "That group no longer exists, so the default group wasn't changed.";
    await deps.preferences.setDefaultGroup(user, { id: group.id, name: group.name });
    return `Your default group is now ${group.name}.`;
  });

export const remindersToggled = (deps: SlackDeps) =>
  homeAction(deps, async (user, args) => {
    const on = (args.action as { value?: string }).value === 'on';
    await deps.preferences.setRemindersOff(user, !on);
    return on
      ? 'Payment reminders are on: someone you owe can remind you, at most once a day.'
      : 'Payment reminders are off: nobody can send you one.';
  });

export const homeRefreshed = (deps: SlackDeps) => homeAction(deps, async () => undefined);
