/**
 * With token rotation on, the app refreshes a workspace's expiring bot token before using it,
 * for a request (App Home) as for work outside requests (the daily DM).
 */

import type { Team } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { install, startWorld, type World } from './world.js';

const HOURS = 60 * 60_000;

describe('installing with token rotation', () => {
  let w: World;
  let globex: Team;

  beforeAll(async () => {
    w = await startWorld({ tokenRotation: true });
    globex = w.ws.addTeam({ id: 'T0002', name: 'Globex', domain: 'globex' });
    w.ws.addUser({ id: 'U2ANN', team_id: 'T0002', name: 'ann2', real_name: 'Ann', tz: 'UTC' });
  }, 30_000);

  afterAll(async () => {
    await w?.close();
  });

  it('installs with an expiring token and refreshes it before it expires', async () => {
    expect((await install(w, 'U2ANN')).done.status).toBe(200);
    const first = globex.botToken;
    expect(first).toMatch(/^xoxe\.xoxb-/);
    expect(w.ws.tokenExpiry(first)).toBeGreaterThan(w.ws.now() + 11 * HOURS);

    await w.ws.act.homeOpened({ as: 'U2ANN', tab: 'home' });
    const fresh = await w.ws.waitForCall('views.publish', (c) => c.args.user_id === 'U2ANN');
    expect(fresh.token).toBe(first);

    w.advance(11 * HOURS);
    w.ws.clearCalls();
    await w.ws.act.homeOpened({ as: 'U2ANN', tab: 'home' });
    const publish = await w.ws.waitForCall('views.publish', (c) => c.args.user_id === 'U2ANN');
    const refresh = w.ws.callsTo('oauth.v2.access');
    expect(refresh.map((c) => c.args.grant_type)).toEqual(['refresh_token']);
    expect(publish.token).not.toBe(first);
    expect(publish.token).toBe(globex.botToken);
    expect(publish.response.ok).toBe(true);
  });

  it('refreshes for the daily DM too, outside any request', async () => {
    await w.app.deps.digest.enable(
      { team_id: 'T0002', user_id: 'U2ANN' },
      { tz: 'UTC', hour: 8, always: true },
    );
    const before = globex.botToken;
    w.advance(11 * HOURS);
    w.ws.clearCalls();
    const now = new Date(Date.now() + 22 * HOURS);
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8, 1));
    // Linked, so that the DM has balances to show.
    await w.link('T0002', 'U2ANN', 'Ann');
    const report = await w.app.digest.runner.runDue(at);
    expect(report.outcomes.sent).toBe(1);
    expect(w.ws.callsTo('oauth.v2.access').map((c) => c.args.grant_type)).toEqual([
      'refresh_token',
    ]);
    const dm = w.ws.callsTo('chat.postMessage').at(-1);
    expect(dm?.token).not.toBe(before);
    expect(dm?.token).toBe(globex.botToken);
    expect(dm?.response.ok).toBe(true);
  });
});
