/**
 * TeamClients when the app is installed into many workspaces: each team's client carries the bot
 * token of the installation serving it, looked up (and refreshed when rotating) per call, and is
 * made again only when that token changed.
 */
import { webApi } from '@slack/bolt';
import { NotInstalledError, type TeamClients } from '../runtime/team-clients.js';
import type { InstalledTeams } from './installation-store.js';

export function installedTeamClients(
  teams: InstalledTeams,
  clientOptions: webApi.WebClientOptions,
): TeamClients {
  const clients = new Map<string, webApi.WebClient>();
  return {
    async forTeam(team_id) {
      const token = (await teams.forTeam(team_id)).bot?.token;
      if (!token) throw new NotInstalledError(team_id);
      const known = clients.get(team_id);
      if (known?.token === token) return known;
      const client = new webApi.WebClient(token, { ...clientOptions, teamId: team_id });
      clients.set(team_id, client);
      return client;
    },
    async remove({ team_id, enterprise_id, org }) {
      clients.delete(team_id);
      await teams.remove(
        org
          ? { enterpriseId: enterprise_id, isEnterpriseInstall: true }
          : { teamId: team_id, isEnterpriseInstall: false },
      );
    },
  };
}
