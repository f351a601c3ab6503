/**
 * A second workspace installs the app through /slack/install (Slack's OAuth v2, walked as a
 * browser would) and uses it with its own bot token: /split, App Home and the daily DM; an
 * Enterprise Grid org installs it org-wide; uninstalling removes the installation, and later
 * requests from that workspace are refused.
 */

import type { Team } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { install, PUBLIC_URL, startWorld, type World } from './world.js';

describe('installing into many workspaces', () => {
  let w: World;
  let acme: Team;
  let globex: Team;

  beforeAll(async () => {
    w = await startWorld();
    acme = w.ws.team;
    w.ws.addUser({ id: 'U0ANN', name: 'ann', real_name: 'Ann Acme', email: 'ann@acme.test' });
    globex = w.ws.addTeam({ id: 'T0002', name: 'Globex', domain: 'globex' });
    w.ws.addUser({
      id: 'U2ANN',
      team_id: 'T0002',
      name: 'ann2',
      real_name: 'Ann Globex',
      email: 'ann@globex.test',
      tz: 'UTC',
    });
    w.ws.addUser({
      id: 'U2BOB',
      team_id: 'T0002',
      name: 'bob2',
      real_name: 'Bob Globex',
      email: 'bob@globex.test',
    });
    w.ws.addChannel({ id: 'C2001', name: 'general', team_id: 'T0002' });
  }, 30_000);

  afterAll(async () => {
    await w?.close();
  });

  it('installs into the first workspace, then a second, each getting its own bot token', async () => {
    const fixedToken = acme.botToken;
    const first = await install(w, 'U0ANN');
    expect(first.done.status).toBe(200);
    expect(acme.botToken).not.toBe(fixedToken);

    const walk = await install(w, 'U2ANN');
    expect(walk.installPage.status).toBe(200);
    expect(walk.authorizeUrl.origin).toBe(w.ws.origin);
    expect(walk.authorizeUrl.pathname).toBe('/oauth/v2/authorize');
    expect(walk.authorizeUrl.searchParams.get('redirect_uri')).toBe(
      `${PUBLIC_URL}/slack/oauth_redirect`,
    );
    expect(walk.authorizeUrl.searchParams.get('scope')?.split(',')).toContain('commands');
    expect(walk.consentPage).toContain('Globex');
    expect(walk.returned.searchParams.get('code')).toBeTruthy();
    expect(walk.returned.searchParams.get('state')).toBe(
      walk.authorizeUrl.searchParams.get('state'),
    );
    expect(walk.done.status).toBe(200);
    expect(globex.botToken).toMatch(/^xoxb-T0002-/);
    expect(globex.botToken).not.toBe(acme.botToken);
    const exchange = w.ws.callsTo('oauth.v2.access').at(-1);
    expect(exchange?.response).toMatchObject({ ok: true, team: { id: 'T0002' } });
  });

  it('ends on a page in the browser’s language, installed or cancelled', async () => {
    const again = await install(w, 'U0ANN', { language: 'de-DE,de;q=0.9,en;q=0.5' });
    expect(again.done.status).toBe(200);
    expect(again.done.body).toContain('<html lang="de">');
    expect(again.done.body).toContain('Split ist installiert');
    expect(again.done.body).toContain('href="slack://app?team=T0001&amp;id=');
    const cancelled = await install(w, 'U0ANN', { decision: 'deny', language: 'fr' });
    expect(cancelled.done.body).toContain(
      'Tu as annulé l’installation\u202F: rien n’a été installé.',
    );
    expect(cancelled.done.body).toContain('href="/slack/install"');
    const english = await install(w, 'U0ANN', { decision: 'deny' });
    expect(english.done.body).toContain(
      'You cancelled the installation, so nothing was installed.',
    );
  });

  it('refuses to finish an install without the browser that started it (state cookie)', async () => {
    const start = await fetch(`${w.app.url}/slack/install`);
    const href = /href="([^"]+)"/.exec(await start.text())?.[1]?.replace(/&amp;/g, '&');
    const state = new URL(href ?? '').searchParams.get('state');
    const back = await fetch(`${w.app.url}/slack/oauth_redirect?code=made-up&state=${state}`, {
      headers: { 'accept-language': 'ja' },
    });
    expect(back.status).toBeGreaterThanOrEqual(400);
    expect(await back.text()).toContain('Split はインストールされていません');
    expect(w.ws.callsTo('oauth.v2.access').some((c) => c.args.code === 'made-up')).toBe(false);
  });

  it('books a /split in the second workspace with its own token only', async () => {
    await w.link('T0002', 'U2ANN', 'Ann');
    w.ws.clearCalls();
    await w.ws.act.message({ as: 'U2ANN', channel: 'C2001', text: '/split 40 lunch <@U2BOB>' });
    const answer = await w.ws.waitForResponse(
      (p) => JSON.stringify(p.body).includes('lunch'),
      10_000,
    );
    expect(JSON.stringify(answer.body)).toContain('40');
    const lookup = await w.ws.waitForCall('users.info', (c) => c.args.user === 'U2BOB');
    expect(lookup.token).toBe(globex.botToken);
    expect(lookup.response.ok).toBe(true);
    expect(w.ws.calls.filter((c) => c.token === acme.botToken)).toEqual([]);
  });

  it("publishes the second workspace's App Home with its token", async () => {
    w.ws.clearCalls();
    await w.ws.act.homeOpened({ as: 'U2ANN', tab: 'home' });
    const publish = await w.ws.waitForCall(
      'views.publish',
      (c) => c.args.user_id === 'U2ANN',
      5_000,
    );
    expect(publish.token).toBe(globex.botToken);
    expect(publish.response.ok).toBe(true);
    expect(w.ws.homeView('U2ANN')).toBeDefined();
    expect(w.ws.calls.filter((c) => c.token === acme.botToken)).toEqual([]);
  });

  it('sends the daily DM in the second workspace with its token', async () => {
    await w.app.deps.digest.enable(
      { team_id: 'T0002', user_id: 'U2ANN' },
      { tz: 'UTC', hour: 8, always: true },
    );
    w.ws.clearCalls();
    const today = new Date();
    const at = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 8, 1),
    );
    const report = await w.app.digest.runner.runDue(at);
    expect(report.outcomes.sent).toBe(1);
    const dm = w.ws.callsTo('chat.postMessage').at(-1);
    expect(dm?.token).toBe(globex.botToken);
    expect(w.ws.messages('U2ANN').length).toBeGreaterThan(0);
    expect(w.ws.calls.filter((c) => c.token === acme.botToken)).toEqual([]);
  });

  it('keeps serving the first workspace with its own token', async () => {
    w.ws.clearCalls();
    await w.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    const publish = await w.ws.waitForCall(
      'views.publish',
      (c) => c.args.user_id === 'U0ANN',
      5_000,
    );
    expect(publish.token).toBe(acme.botToken);
    expect(w.ws.calls.filter((c) => c.token === globex.botToken)).toEqual([]);
  });

  it('accepts an org-wide install on Enterprise Grid and serves its workspaces with the org token', async () => {
    w.ws.addEnterprise('E0001', 'Initech');
    w.ws.addTeam({
      id: 'T0003',
      name: 'Initech Paris',
      domain: 'initech-paris',
      enterprise_id: 'E0001',
    });
    w.ws.addUser({ id: 'U3CAT', team_id: 'T0003', name: 'cat', real_name: 'Cat Initech' });
    const walk = await install(w, 'U3CAT', { org: true });
    expect(walk.done.status).toBe(200);
    const org = w.ws.orgInstall('E0001');
    expect(org).toBeDefined();
    expect(w.ws.callsTo('oauth.v2.access').at(-1)?.response).toMatchObject({
      ok: true,
      is_enterprise_install: true,
      team: null,
      enterprise: { id: 'E0001' },
    });
    w.ws.clearCalls();
    await w.ws.act.homeOpened({ as: 'U3CAT', tab: 'home' });
    const publish = await w.ws.waitForCall(
      'views.publish',
      (c) => c.args.user_id === 'U3CAT',
      5_000,
    );
    expect(publish.token).toBe(org?.botToken);
    expect(publish.response.ok).toBe(true);
    // Work outside requests finds the org's installation from the workspace alone.
    expect((await w.app.deps.slack.forTeam('T0003')).token).toBe(org?.botToken);
  });

  it("runs a workflow's step in an org's workspace with the run's own token, for the person of that workspace", async () => {
    w.ws.addChannel({ id: 'C3001', name: 'general', team_id: 'T0003' });
    const workflow = w.ws.workflows.create({
      name: 'My balances',
      team_id: 'T0003',
      channel: 'C3001',
      createdBy: 'U3CAT',
      trigger: { kind: 'link' },
      steps: [
        {
          callback_id: 'post_balances',
          inputs: { user: { from: 'runner' }, channel: { from: 'value', value: 'C3001' } },
        },
      ],
    });
    w.ws.clearCalls();
    const run = w.ws.workflows.start(workflow.id, { user: 'U3CAT' });
    const execution = run.steps[0]!;
    expect(execution.request.payload).toMatchObject({
      team_id: 'T0003',
      enterprise_id: 'E0001',
      authorizations: [expect.objectContaining({ is_enterprise_install: true })],
    });
    const done = await w.ws.workflows.waitForRun(run.id, 10_000);
    // Cat has no Splitwise link in T0003: the org's installation served the event, and the step
    // answered for Cat's own workspace, with the run's token alone.
    expect(done.steps[0]?.error).toMatch(/has not connected Splitwise yet/);
    const dm = w.ws.messages('U3CAT').at(-1);
    expect(JSON.stringify(dm?.blocks)).toContain('"url"');
    const made = w.ws.calls.filter((c) => c.token !== undefined);
    expect(made.length).toBeGreaterThan(0);
    for (const c of made) expect(c.token).toBe(execution.token);
  });

  it("forgets an org's installation when the org uninstalls the app", async () => {
    await w.ws.uninstallApp('E0001');
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      gone = await w.app.deps.slack.forTeam('T0003').then(
        () => false,
        () => true,
      );
    }
    expect(gone).toBe(true);
    await w.ws.act.homeOpened({ as: 'U3CAT', tab: 'home' });
    expect(w.ws.deliveries.at(-1)?.status).toBe(401);
  });

  it('forgets a workspace that uninstalls the app and refuses its later requests', async () => {
    await w.ws.uninstallApp('T0002');
    // The event is acknowledged before its listener runs: wait until the app refuses the team.
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await w.ws.act.homeOpened({ as: 'U2ANN', tab: 'home' });
      status = w.ws.deliveries.at(-1)?.status ?? 0;
    }
    expect(status).toBe(401);
    expect(await w.app.deps.tokens.get({ team_id: 'T0002', user_id: 'U2ANN' })).toBeUndefined();
    await expect(w.app.deps.slack.forTeam('T0002')).rejects.toThrow(/not installed/);
    // A command there is refused too, and the person sees Slack's notice.
    await w.ws.act.message({ as: 'U2ANN', channel: 'C2001', text: '/split balance' });
    expect(w.ws.deliveries.at(-1)?.status).toBe(401);
    expect(w.ws.notices('U2ANN').at(-1)?.tone).toBe('error');
    // The first workspace is untouched.
    await expect(w.app.deps.slack.forTeam('T0001')).resolves.toBeDefined();
  });
});
