import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { lookupBudget } from '../../accounts/lookups.js';
import type { SlackDeps } from '../deps.js';
import { voiceIn } from '../shared/voice.js';
import { publishHome } from './publish.js';

/**
 * Opening the Home tab publishes it afresh (Bolt acks events before listeners run), in the
 * person's language as Slack says it now: their profile is read again first, so a language
 * switched a moment ago shows here. The Messages tab fires the same event and is left alone. A
 * failure to publish is logged: there is nowhere else to tell the person, and reopening the tab
 * tries again.
 */
export function appHomeOpened(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
    logger,
    context,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    const user = { team_id: body.team_id, user_id: event.user };
    deps.work.push(async () => {
      try {
        await deps.directory
          .refreshSlackUser(user.team_id, user.user_id, lookupBudget(1))
          .catch((error: Error) =>
            logger.warn({
              msg: 'users.info for {user}: {error}',
              user: event.user,
              error: error.message,
            }),
          );
        await publishHome(deps, client, user, await voiceIn(context), logger);
      } catch (error) {
        logger.error({
          msg: 'Home for {user}: {error}',
          user: event.user,
          error: (error as Error).stack ?? String(error),
        });
      }
    });
  };
}
