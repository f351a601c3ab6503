/**
 * The Web API client of one workflow step's run. Slack gives each run of an app's step a bot token
 * of its own (`bot_access_token` in function_executed) and asks that every call made for that run
 * use it. The step's work reaches Slack through shared code (the booking's answer, the directory's
 * lookups of the people named), which asks the team's client: while a step runs, that question is
 * answered with the run's client, through the async context the run was started in, so that no
 * call made for the step carries the installation's token.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { webApi } from '@slack/bolt';
import type { TeamClients } from './team-clients.js';

interface StepScope {
  team_id: string;
  client: webApi.WebClient;
  /** False once the run's work is over: anything it left behind uses the team's client again. */
  active: boolean;
}

const scope = new AsyncLocalStorage<StepScope>();

/** Runs `work` with `client` standing for the team's bot in every call made for it. */
export function withStepClient<T>(
  team_id: string,
  client: webApi.WebClient,
  work: () => Promise<T>,
): Promise<T> {
  const current: StepScope = { team_id, client, active: true };
  return scope.run(current, work).finally(() => {
    current.active = false;
  });
}

/** The step's client when the caller runs inside a step of this team, else undefined. */
export function stepClientFor(team_id: string): webApi.WebClient | undefined {
  const current = scope.getStore();
  return current?.active && current.team_id === team_id ? current.client : undefined;
}

/** The team's clients, answered with the step's own while a step of that team runs. */
export function stepAware(clients: TeamClients): TeamClients {
  return {
    forTeam: async (team_id) => stepClientFor(team_id) ?? clients.forTeam(team_id),
    remove: (removed) => clients.remove(removed),
  };
}
