/**
 * The voice a Slack user is answered in: their Slack locale and time zone (users.info with
 * include_locale, through the directory's cache), read once per request. When Slack cannot say
 * (or the lookup is not made: the request's budget spent, the method rate-limited), the person
 * still gets an answer, in English with amounts en-US style and instants in UTC.
 */
import type { Logger } from '@slack/bolt';
import type { Directory } from '../../accounts/directory.js';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import type { SlackUserKey } from '../../store/index.js';
import { type Voice, voiceFor } from '../../voice/index.js';

export type { Voice };

/**
 * `lookups` is the request's budget, when the request looks up anyone else; without one, this
 * person's profile is the only lookup made.
 */
export async function voiceOf(
  deps: { directory: Pick<Directory, 'slackUser'> },
  user: SlackUserKey,
  logger?: Pick<Logger, 'warn'>,
  lookups: LookupBudget = lookupBudget(1),
): Promise<Voice> {
  const person = await deps.directory
    .slackUser(user.team_id, user.user_id, lookups)
    .catch((error: Error) => {
      logger?.warn({
        msg: 'users.info for {user_id} failed, answering in English: {error}',
        user_id: user.user_id,
        error: error.message,
      });
      return undefined;
    });
  return voiceFor({ locale: person?.locale, tz: person?.tz });
}
