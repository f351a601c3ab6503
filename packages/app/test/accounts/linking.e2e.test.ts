/**
 * Linking through the emulator's real consent screens: the Connect button, the app's start route
 * and its cookie, Sign in with Slack on the workspace, sign-in and Allow on the emulator, the callback, the stored token, the DM, and
 * the command that was waiting. Then every way a state can be wrong, each storing nothing.
 */

import { call, createUser, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../support/block-kit-limits.js';
import {
  blocksText,
  connectButtonUrl,
  consentDance,
  type Harness,
  startHarness,
  throughSlack,
} from '../support/harness.js';
import { breakJobQueue } from '../support/store-faults.js';

let h: Harness;
let offsetMs = 0;

beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + offsetMs) });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

const key = (user_id: string) => ({ team_id: 'T0001', user_id });

async function newcomer(slackId: string, first_name: string) {
  const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  h.addSlackUser({ slackId, first_name, email });
  const created = await createUser(h.emu.url, {
    email,
    first_name,
    last_name: 'Vale',
    default_currency: 'GBP',
  });
  return { email, serviceId: created.user.id, apiKey: created.api_key };
}

async function connectUrlFor(
  slackId: string,
  text = 'connect',
): Promise<{ url: string; answer: Loose }> {
  const out = await h.split(text, { user_id: slackId });
  const answer = out.answer.body as Loose;
  return { url: connectButtonUrl(answer.blocks), answer };
}

describe('linking an account', () => {
  it('offers Connect privately to someone not connected, and books nothing', async () => {
    await newcomer('U0NEW1', 'Nia');
    const before = await h.serviceCounts();
    const { answer, url } = await connectUrlFor('U0NEW1', '40 lunch <@U0BOB>');
    expect(answer.response_type).toBe('ephemeral');
    expect(blocksText(answer.blocks)).toContain('connect your Splitwise account first');
    expect(blocksText(answer.blocks)).toContain("I'll carry out `/split 40 lunch @bob`");
    expect(blockKitErrors(answer.blocks, 'message')).toEqual([]);
    expect(url).toMatch(/^http:\/\/split\.test\/oauth\/start\?state=[A-Za-z0-9_-]{65}$/);
    expect((await h.serviceCounts())['POST /api/v3.0/create_expense'] ?? 0).toBe(
      before['POST /api/v3.0/create_expense'] ?? 0,
    );
  });

  it('links through the consent page, DMs "Connected as", and carries out the waiting command', async () => {
    const nia = await newcomer('U0NIA', 'Nia');
    const id = 'pending-nia';
    const responseUrl = h.slack.responseUrl({ id });
    const ack = await h.sender.command({
      user_id: 'U0NIA',
      text: '40 lunch <@U0BOB>',
      response_url: responseUrl,
    });
    expect(ack.status).toBe(200);
    const prompt = await h.slack.waitForResponse((p) => p.id === id);
    const url = connectButtonUrl((prompt.body as Loose).blocks);

    const done = await consentDance(h, url, { email: nia.email });
    expect(done.page.status).toBe(200);
    expect(done.page.body).toContain('Connected as Nia Vale');

    const record = await h.app.deps.tokens.get(key('U0NIA'));
    expect(record).toMatchObject({
      service_user_id: nia.serviceId,
      name: 'Nia Vale',
      token_type: 'bearer',
    });
    const me = await call(h.emu.url, record!.access_token, 'GET', 'get_current_user');
    expect(me.body.user.id).toBe(nia.serviceId);

    const dm = await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === 'U0NIA');
    expect(dm.args.text).toBe('Connected as Nia Vale');

    const booked = await h.slack.waitForResponse(
      (p) => p.id === id && p.body.response_type === 'in_channel',
    );
    expect(booked.body.text).toContain('<@U0BOB> owes £20.00');
    const expenses = await call(h.emu.url, nia.apiKey, 'GET', 'get_expenses');
    expect(expenses.body.expenses).toHaveLength(1);
    expect(expenses.body.expenses[0]).toMatchObject({ description: 'lunch', currency_code: 'GBP' });
  });

  it('says so on the page and in the DM when the waiting command cannot be kept, and books nothing', async () => {
    const ria = await newcomer('U0RIA', 'Ria');
    const { url } = await connectUrlFor('U0RIA', '30 kept taxi <@U0BOB>');
    const restore = await breakJobQueue(h.config.storeUrl);
    let done: Awaited<ReturnType<typeof consentDance>>;
    try {
      done = await consentDance(h, url, { email: ria.email });
    } finally {
      await restore();
    }
    expect(done.page.status).toBe(200);
    expect(done.page.body).toContain('Connected as Ria Vale');
    expect(done.page.body).toContain('nothing was booked. Go back to Slack and type it again.');
    expect(await h.app.deps.tokens.get(key('U0RIA'))).toMatchObject({ name: 'Ria Vale' });
    const dm = await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === 'U0RIA');
    expect(blocksText(dm.args.blocks)).toContain(
      "I couldn't carry out `/split 30 kept taxi @bob` just now: please type it again.",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const expenses = await call(h.emu.url, ria.apiKey, 'GET', 'get_expenses');
    expect(expenses.body.expenses).toEqual([]);
  });

  it('supports connect, whoami and disconnect', async () => {
    const olu = await newcomer('U0OLU', 'Olu');
    const { url } = await connectUrlFor('U0OLU');
    expect((await consentDance(h, url, { email: olu.email })).page.status).toBe(200);
    const whoami = (await h.split('whoami', { user_id: 'U0OLU' })).answer.body as Loose;
    expect(whoami.text).toBe("You're connected as Olu Vale.");
    const again = (await h.split('connect', { user_id: 'U0OLU' })).answer.body as Loose;
    expect(again.text).toContain("You're already connected as Olu Vale");

    const gone = (await h.split('disconnect', { user_id: 'U0OLU' })).answer.body as Loose;
    expect(gone.text).toContain('Disconnected');
    expect(await h.app.deps.tokens.get(key('U0OLU'))).toBeUndefined();
    const after = (await h.split('whoami', { user_id: 'U0OLU' })).answer.body as Loose;
    expect(connectButtonUrl(after.blocks)).toContain('/oauth/start?state=');
  });

  it('refuses a forged state with a page, storing nothing', async () => {
    const forged = 'A'.repeat(43);
    const reply = await fetch(`${h.app.url}/oauth/callback?state=${forged}&code=abc`, {
      headers: { cookie: `split_link_state=${forged}` },
    });
    expect(reply.status).toBe(400);
    const page = await reply.text();
    expect(page).toContain('This link is not valid');
    expect(page).toContain('/split connect');
  });

  it('refuses a replayed callback, keeping the first link as it was', async () => {
    const pia = await newcomer('U0PIA', 'Pia');
    const { url } = await connectUrlFor('U0PIA');
    const first = await consentDance(h, url, { email: pia.email });
    expect(first.page.status).toBe(200);
    const stored = await h.app.deps.tokens.get(key('U0PIA'));
    const replay = await fetch(h.local(first.callbackUrl), { headers: { cookie: first.cookie } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('This link was already used');
    // Opening the used Connect link again is refused at once, not after another consent.
    const reopened = await fetch(h.local(url), { redirect: 'manual' });
    expect(reopened.status).toBe(400);
    expect(await reopened.text()).toContain('This link was already used');
    expect(await h.app.deps.tokens.get(key('U0PIA'))).toEqual(stored);
  });

  it('sends the person to consent with a PKCE challenge, and only the app holds its verifier', async () => {
    await newcomer('U0PKC', 'Pia');
    const { url } = await connectUrlFor('U0PKC');
    const { back: start } = await throughSlack(h, url, 'U0PKC');
    expect(start.status).toBe(302);
    const consent = new URL(start.headers.get('location')!).searchParams;
    expect(consent.get('code_challenge_method')).toBe('S256');
    expect(consent.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The exchange succeeding in the other tests proves the verifier went with it: the emulator
    // refuses a code whose challenge was not answered.
    expect(start.headers.get('set-cookie')).not.toContain(consent.get('code_challenge')!);
  });

  it("names the person's Slack e-mail as the login hint, so the service pre-fills its sign-in", async () => {
    const { email } = await newcomer('U0HIN', 'Hina');
    const { url } = await connectUrlFor('U0HIN');
    const { back: start } = await throughSlack(h, url, 'U0HIN');
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('login_hint')).toBe(email);
    const page = await fetch(authorize);
    expect(await page.text()).toContain(`value="${email}"`);
  });

  it('refuses an expired state (older than 10 minutes), storing nothing', async () => {
    const quinn = await newcomer('U0QUI', 'Quinn');
    const { url } = await connectUrlFor('U0QUI');
    offsetMs = 11 * 60_000;
    try {
      const start = await fetch(h.local(url), { redirect: 'manual' });
      expect(start.status).toBe(400);
      expect(await start.text()).toContain('This link has expired');
    } finally {
      offsetMs = 0;
    }
    // A browser that began in time but comes back late is refused too.
    const { url: fresh } = await connectUrlFor('U0QUI');
    const begun = await fetch(h.local(fresh), { redirect: 'manual' });
    expect(begun.status).toBe(302);
    const cookie = begun.headers.get('set-cookie')!.split(';')[0]!;
    const state = new URL(fresh).searchParams.get('state')!;
    offsetMs = 11 * 60_000;
    try {
      const late = await fetch(`${h.app.url}/oauth/callback?state=${state}&code=anything`, {
        headers: { cookie },
      });
      expect(late.status).toBe(400);
      expect(await late.text()).toContain('This link has expired');
    } finally {
      offsetMs = 0;
    }
    expect(await h.app.deps.tokens.get(key('U0QUI'))).toBeUndefined();
    void quinn;
  });

  it('refuses a state swapped in from another person, and leaves theirs usable', async () => {
    const rae = await newcomer('U0RAE', 'Rae');
    const sam = await newcomer('U0SAM', 'Sam');
    const raeLink = (await connectUrlFor('U0RAE')).url;
    const samLink = (await connectUrlFor('U0SAM')).url;
    // Rae's browser started Rae's flow; the callback arrives carrying Sam's state.
    const raeStart = await fetch(h.local(raeLink), { redirect: 'manual' });
    const raeCookie = raeStart.headers.get('set-cookie')!.split(';')[0]!;
    const samState = new URL(samLink).searchParams.get('state')!;
    const swapped = await fetch(`${h.app.url}/oauth/callback?state=${samState}&code=whatever`, {
      headers: { cookie: raeCookie },
    });
    expect(swapped.status).toBe(400);
    expect(await swapped.text()).toContain('This sign-in began somewhere else');
    expect(await h.app.deps.tokens.get(key('U0RAE'))).toBeUndefined();
    expect(await h.app.deps.tokens.get(key('U0SAM'))).toBeUndefined();
    const done = await consentDance(h, samLink, { email: sam.email });
    expect(done.page.status).toBe(200);
    expect((await h.app.deps.tokens.get(key('U0SAM')))?.service_user_id).toBe(sam.serviceId);
    void rae;
  });

  it('says nothing was connected when the person presses Deny', async () => {
    const tam = await newcomer('U0TAM', 'Tam');
    const { url } = await connectUrlFor('U0TAM');
    const done = await consentDance(h, url, { email: tam.email }, 'deny');
    expect(done.page.body).toContain('You chose not to allow access');
    expect(await h.app.deps.tokens.get(key('U0TAM'))).toBeUndefined();
  });

  it('refuses a callback without any state', async () => {
    const reply = await fetch(`${h.app.url}/oauth/callback?code=abc`);
    expect(reply.status).toBe(400);
    expect(await reply.text()).toContain('This link is incomplete');
  });

  it('answers /healthz', async () => {
    const reply = await fetch(`${h.app.url}/healthz`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ ok: true });
  });
});
