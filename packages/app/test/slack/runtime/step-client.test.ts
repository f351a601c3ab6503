import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  stepAware,
  stepClientFor,
  withStepClient,
} from '../../../src/slack/runtime/step-client.js';
import { singleTeamClients } from '../../../src/slack/runtime/team-clients.js';

const client = (token: string) =>
  new webApi.WebClient(token, { slackApiUrl: 'http://127.0.0.1:1/api/' });

describe("a workflow step's client", () => {
  it("stands for the team's bot inside the step's run, in that team only, and not after it", async () => {
    const team = client('xoxb-team');
    const step = client('xwfp-run');
    const clients = stepAware(singleTeamClients(team));
    let leftBehind: Promise<webApi.WebClient> | undefined;
    await withStepClient('T1', step, async () => {
      expect(await clients.forTeam('T1')).toBe(step);
      expect(await clients.forTeam('T2')).toBe(team);
      await Promise.resolve();
      expect(stepClientFor('T1')).toBe(step);
      // Work the run leaves behind (a timer started in its context) that runs after it ended.
      leftBehind = new Promise((resolve) => {
        setTimeout(() => resolve(clients.forTeam('T1')), 20);
      });
    });
    expect(await clients.forTeam('T1')).toBe(team);
    expect(await leftBehind).toBe(team);
  });
});
