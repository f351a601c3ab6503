/**
 * When Slack takes the app away: `app_uninstalled` removes everything kept for the workspace;
 * `tokens_revoked` removes the link of each person whose grant to the app was revoked (the
 * `oauth` list), and the installation when the `bot` list says the app's own token went.
 *
 * Bolt skips authorization for both events, so the listeners get the team from the envelope and
 * no token; they need none. Bolt acknowledges events before their listener runs, so a failure
 * (the store down) reaches only Bolt's error log: Slack does not send the event again.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { EVENTS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';

type EventArgs<E extends string> = SlackEventMiddlewareArgs<E> & AllMiddlewareArgs;

function teamOf(args: { context: { teamId?: string }; body: { team_id?: string } }) {
  return args.context.teamId ?? args.body.team_id;
}

export function uninstallListeners(table: ListenerTable, deps: SlackDeps): void {
  table.event(EVENTS.appUninstalled, async (args: EventArgs<'app_uninstalled'>) => {
    const team = teamOf(args);
    if (!team) {
      args.logger.warn('app_uninstalled without a team id: nothing removed');
      return;
    }
    const removed = await deps.forget.forgetWorkspace(team);
    // The workspace's own installation went with its records; an org-wide one is the org's.
    const { isEnterpriseInstall, enterpriseId } = args.context;
    await deps.slack.remove(
      isEnterpriseInstall && enterpriseId
        ? { team_id: team, enterprise_id: enterpriseId, org: true }
        : { team_id: team, org: false },
    );
    args.logger.info({
      msg: 'app_uninstalled: removed {removed} records kept for workspace {team}',
      removed,
      team,
    });
  });

  table.event(EVENTS.tokensRevoked, async (args: EventArgs<'tokens_revoked'>) => {
    const team = teamOf(args);
    const users = args.event.tokens.oauth ?? [];
    if (team && (args.event.tokens.bot ?? []).length > 0) {
      // The bot's token is gone: the installation can do nothing more until installed again.
      await deps.slack.remove({ team_id: team, org: false });
      args.logger.info({ msg: 'tokens_revoked: removed the installation in {team}', team });
    }
    if (!team || users.length === 0) return;
    for (const user_id of users) await deps.unlinking.unlink({ team_id: team, user_id });
    args.logger.info({
      msg: 'tokens_revoked: removed the links of {users_count} people in {team}',
      users_count: users.length,
      team,
    });
  });
}
