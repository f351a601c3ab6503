/**
 * The bot's Web API client for a workspace, for work not tied to a request (a queued command, the
 * daily DM, a message updated after an undo). With one configured bot token it is always the same
 * client; when the app is installed into many workspaces it carries the token of the team's own
 * installation (see slack/install/), so that one team's token never acts in another team.
 */
import type { Logger, webApi } from '@slack/bolt';

/** The team has no installation (never installed, or uninstalled since). */
export class NotInstalledError extends Error {
  override name = 'NotInstalledError';
  constructor(readonly team_id: string) {
    super(`the app is not installed in workspace ${team_id}`);
  }
}

export interface TeamClients {
  /** Throws NotInstalledError when the team has no installation. */
  forTeam(team_id: string): Promise<webApi.WebClient>;
  /**
   * Forgets an installation Slack took away: a workspace's (its bot token revoked), or an org's
   * (`org` true, the org uninstalled the app). Nothing to forget with one configured token.
   */
  remove(scope: {
    team_id: string;
    enterprise_id?: string | undefined;
    org: boolean;
  }): Promise<void>;
}

/** One workspace, one configured bot token: every team gets the same client. */
export function singleTeamClients(client: webApi.WebClient): TeamClients {
  return {
    forTeam: async () => client,
    remove: async () => undefined,
  };
}

/**
 * The team's client for a queued job; undefined when the app was uninstalled there since (the
 * job is then dropped: nothing may be said in a workspace the app has left).
 */
export async function clientOrNothing(
  deps: { slack: TeamClients },
  team_id: string,
  logger: Logger,
): Promise<webApi.WebClient | undefined> {
  try {
    return await deps.slack.forTeam(team_id);
  } catch (error) {
    if (!(error instanceof NotInstalledError)) throw error;
    logger.warn({
      msg: 'job for workspace {team_id} dropped: {error}',
      team_id,
      error: error.message,
    });
    return undefined;
  }
}
