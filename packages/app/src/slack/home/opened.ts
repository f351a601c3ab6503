import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { publishHome } from './publish.js';

/**
 * Opening the Home tab publishes it afresh (Bolt acks events before listeners run). The Messages
 * tab fires the same event and is left alone. A failure to publish is logged: there is nowhere
 * else to tell the person, and reopening the tab tries again.
 */
export function appHomeOpened(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
    logger,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    const user = { team_id: body.team_id, user_id: event.user };
    deps.work.push(async () => {
      try {
        await publishHome(deps, client, user, logger);
      } catch (error) {
        logger.error(`Home for ${event.user}: ${(error as Error).stack ?? String(error)}`);
      }
    });
  };
}
