/**
 * Sign in with Slack before the service's consent: a Connect link completes only in a browser
 * signed in to Slack as the person it was made for. Everything else ends on a page that says
 * what happened, stores nothing and leaves the link usable by its person.
 */

import { createUser, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appCookie,
  connectButtonUrl,
  consentDance,
  type Harness,
  PUBLIC_URL,
  slackSignIn,
  startHarness,
  throughSlack,
} from '../support/harness.js';

let h: Harness;
let offsetMs = 0;

beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + offsetMs) });
});
afterAll(() => h?.close());

const key = (user_id: string) => ({ team_id: 'T0001', user_id });

async function person(slackId: string, first_name: string) {
  const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  h.addSlackUser({ slackId, first_name, email });
  const created = await createUser(h.emu.url, { email, first_name, last_name: 'Lind' });
  return { slackId, email, serviceId: created.user.id };
}

async function connectUrlFor(slackId: string): Promise<string> {
  const out = await h.split('connect', { user_id: slackId });
  return connectButtonUrl((out.answer.body as Loose).blocks);
}

describe('Sign in with Slack before linking', () => {
  it('asks Slack who is in the browser, for the openid, email and profile scopes', async () => {
    await person('U0UNA', 'Una');
    const url = await connectUrlFor('U0UNA');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(
      `${h.slack.origin}/openid/connect/authorize`,
    );
    const q = authorize.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('redirect_uri')).toBe(`${PUBLIC_URL}/oauth/slack/callback`);
    expect(q.get('team')).toBe('T0001');
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The link's own state never leaves for Slack: Slack gets a value derived from it.
    const linkState = new URL(url).searchParams.get('state')!;
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.toString()).not.toContain(linkState);
  });

  it("refuses Eve's link completed in Bob's browser (Bob signed in to Slack), storing nothing", async () => {
    const eve = await person('U0EVE', 'Eve');
    const bob = await person('U0BOBB', 'Bob');
    const eveLink = await connectUrlFor('U0EVE');

    // Eve sends her link to Bob (or tricks him into opening it): his browser, his Slack session.
    const inBobsBrowser = await throughSlack(h, eveLink, bob.slackId);
    expect(inBobsBrowser.back.status).toBe(403);
    const page = await inBobsBrowser.back.text();
    expect(page).toContain('This link is for someone else');
    expect(page).toContain('nothing was connected');
    expect(inBobsBrowser.back.headers.get('location')).toBeNull();
    expect(await h.app.deps.tokens.get(key('U0EVE'))).toBeUndefined();
    expect(await h.app.deps.tokens.get(key('U0BOBB'))).toBeUndefined();
    // Nothing was used up, so Eve can still link her own account with her own link.
    const done = await consentDance(h, eveLink, { email: eve.email });
    expect(done.page.status).toBe(200);
    expect((await h.app.deps.tokens.get(key('U0EVE')))?.service_user_id).toBe(eve.serviceId);
  });

  it('refuses the consent callback in a browser that did not sign in with Slack, using nothing up', async () => {
    const vic = await person('U0VIC', 'Vic');
    const url = await connectUrlFor('U0VIC');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    const state = new URL(url).searchParams.get('state')!;
    const skipped = await fetch(`${h.app.url}/oauth/callback?state=${state}&code=anything`, {
      headers: { cookie: appCookie(start) },
    });
    expect(skipped.status).toBe(400);
    expect(await skipped.text()).toContain('Sign in with Slack first');
    // A proof made up by the browser is no proof either.
    const forged = await fetch(`${h.app.url}/oauth/callback?state=${state}&code=anything`, {
      headers: { cookie: `${appCookie(start)}.${'A'.repeat(43)}` },
    });
    expect(await forged.text()).toContain('Sign in with Slack first');
    expect(await h.app.deps.tokens.get(key('U0VIC'))).toBeUndefined();
    expect((await consentDance(h, url, { email: vic.email })).page.status).toBe(200);
  });

  it('refuses a sign-in that comes back with a wrong OIDC state', async () => {
    await person('U0WES', 'Wes');
    const url = await connectUrlFor('U0WES');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    const returned = new URL(await slackSignIn(h, start.headers.get('location')!, 'U0WES'));
    returned.searchParams.set('state', 'B'.repeat(43));
    const back = await fetch(h.local(returned.toString()), {
      headers: { cookie: appCookie(start) },
      redirect: 'manual',
    });
    expect(back.status).toBe(400);
    expect(await back.text()).toContain('This Slack sign-in is not for this link');
    expect(await h.app.deps.tokens.get(key('U0WES'))).toBeUndefined();
  });

  it('refuses a sign-in that comes back after the link expired', async () => {
    await person('U0XAN', 'Xan');
    const url = await connectUrlFor('U0XAN');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    const returned = await slackSignIn(h, start.headers.get('location')!, 'U0XAN');
    offsetMs = 11 * 60_000;
    try {
      const back = await fetch(h.local(returned), {
        headers: { cookie: appCookie(start) },
        redirect: 'manual',
      });
      expect(back.status).toBe(400);
      expect(await back.text()).toContain('This link has expired');
    } finally {
      offsetMs = 0;
    }
    expect(await h.app.deps.tokens.get(key('U0XAN'))).toBeUndefined();
  });

  it("refuses a code Slack issued to another app, on Slack's word", async () => {
    await person('U0YUL', 'Yul');
    const other = h.slack.addOidcClient({ redirectUris: ['http://other.test/cb'] });
    const url = await connectUrlFor('U0YUL');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    const ours = new URL(start.headers.get('location')!);
    // The same sign-in, asked for by another app: its code comes back to our callback.
    const theirs = new URL(ours);
    theirs.searchParams.set('client_id', other.clientId);
    theirs.searchParams.set('redirect_uri', 'http://other.test/cb');
    const code = new URL(await slackSignIn(h, theirs.toString(), 'U0YUL')).searchParams.get(
      'code',
    )!;
    const back = await fetch(
      `${h.app.url}/oauth/slack/callback?code=${code}&state=${ours.searchParams.get('state')}`,
      { headers: { cookie: appCookie(start) }, redirect: 'manual' },
    );
    expect(back.status).toBe(502);
    const page = await back.text();
    expect(page).toContain('Slack did not confirm who you are');
    expect(page).toContain('invalid_code');
    expect(page).not.toContain(h.slack.callsTo('openid.connect.token')[0]!.args.client_secret);
    expect(await h.app.deps.tokens.get(key('U0YUL'))).toBeUndefined();
  });

  it('ends on a page when the token exchange fails, and the link still works after', async () => {
    const zed = await person('U0ZED', 'Zed');
    const url = await connectUrlFor('U0ZED');
    h.slack.fail('openid.connect.token', 'invalid_grant');
    const refused = await throughSlack(h, url, 'U0ZED');
    expect(refused.back.status).toBe(502);
    expect(await refused.back.text()).toContain('It said: invalid_grant. Nothing was connected.');
    h.slack.httpError('openid.connect.token', 503);
    const down = await throughSlack(h, url, 'U0ZED');
    expect(down.back.status).toBe(502);
    expect(await down.back.text()).toContain('Slack did not confirm who you are');
    expect(await h.app.deps.tokens.get(key('U0ZED'))).toBeUndefined();
    expect((await consentDance(h, url, { email: zed.email })).page.status).toBe(200);
  });

  it("shows Slack's error code when Slack sends one back, and nothing else of the URL", async () => {
    await person('U0BEA', 'Bea');
    const url = await connectUrlFor('U0BEA');
    const start = await fetch(h.local(url), { redirect: 'manual' });
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const back = (error: string) =>
      fetch(`${h.app.url}/oauth/slack/callback?state=${state}&error=${encodeURIComponent(error)}`, {
        headers: { cookie: appCookie(start) },
      });
    const coded = await back('invalid_scope');
    expect(coded.status).toBe(502);
    expect(await coded.text()).toContain('It said: invalid_scope. Nothing was connected.');
    const written = await (await back('Call 555-0100 to fix your account')).text();
    expect(written).toContain('It said: an error.');
    expect(written).not.toContain('555-0100');
    expect(await h.app.deps.tokens.get(key('U0BEA'))).toBeUndefined();
  });

  it('says nothing was connected when the person cancels on Slack', async () => {
    await person('U0ABE', 'Abe');
    const url = await connectUrlFor('U0ABE');
    const cancelled = await throughSlack(h, url, 'U0ABE', 'deny');
    expect(cancelled.back.status).toBe(200);
    expect(await cancelled.back.text()).toContain('You did not sign in with Slack');
    expect(await h.app.deps.tokens.get(key('U0ABE'))).toBeUndefined();
  });
});
