/**
 * A person's balances as `/split balance` shows them, for a surface other than the command (a
 * workflow's Post balances step, through the hook slack/app.ts makes of it): the same message,
 * with its Settle up buttons, in that person's voice.
 */
import type { Logger } from '@slack/bolt';
import { ServiceBaseException } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { BalancesAnswer, SlackDeps } from '../deps.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';
import { allFrom } from './render.js';

export async function balancesOf(
  deps: SlackDeps,
  user: SlackUserKey,
  logger: Logger,
): Promise<BalancesAnswer> {
  const record = await deps.tokens.get(user);
  if (!record) return { kind: 'not_linked' };
  const voice = await voiceOf(deps, user, logger);
  const client = deps.service.forLink(record);
  try {
    const profile = await deps.directory.profile(user, client).catch(() => undefined);
    const [friends, groups] = await Promise.all([client.getFriends(), client.getGroups()]);
    const options = { preferredCurrency: profile?.default_currency };
    return {
      kind: 'shown',
      message: allFrom(friends, groups, record.service_user_id, options, voice),
    };
  } catch (error) {
    const failure = describeServiceFailure(voice, error, voice.t('balances.nothing_shown'));
    if (failure.relink) {
      await deps.unlinking.unlink(user);
      return { kind: 'not_linked' };
    }
    if (!(error instanceof ServiceBaseException)) throw error;
    logger.warn({
      msg: 'balances for a step: service call failed: {name}: {error}',
      name: error.name,
      error: error.message,
    });
    return { kind: 'failed', text: failure.text };
  }
}
