/**
 * The app's own logger at LOG_LEVEL=debug, through a /split booked end to end and an account
 * linked through Sign in with Slack and the service's consent: every line is one JSON object,
 * every service call is a line naming its operation, status, duration and the Slack request it
 * was made for, and no line carries a token or a secret.
 */

import { createUser } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectButtonUrl,
  consentDance,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
  TEAM,
} from '../support/harness.js';

type Line = Record<string, unknown>;

let h: Harness;
const raw: string[] = [];
const lines = (): Line[] => raw.map((line) => JSON.parse(line) as Line);
let ann: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness({
    env: { LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
    logDestination: { write: (line: string) => raw.push(line) },
  });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

/** The e-mail address in a recorded users.info answer, if it carried one. */
const emailOf = (call: { response?: unknown }): string[] => {
  const email = (call.response as { user?: { profile?: { email?: unknown } } } | undefined)?.user
    ?.profile?.email;
  return typeof email === 'string' && email !== '' ? [email] : [];
};

/** The lines of service calls for `operation`, in order. */
const serviceLines = (operation: string) =>
  lines().filter((line) => line.operation === operation && typeof line.durationMs === 'number');

describe('logs while handling Slack requests', () => {
  it('writes only JSON lines with level, time and msg', async () => {
    await h.split(`12 coffee <@${bob.slackId}>`);
    // App Home for someone not connected: the Web API client logs the views.publish body, whose
    // Connect button's link (state masked) sits inside the JSON of the line.
    h.addSlackUser({ slackId: 'U0HOM', first_name: 'Hom' });
    await h.sender.appHomeOpened({ user: 'U0HOM' });
    await h.slack.waitForCall('views.publish', (call) => JSON.stringify(call).includes('U0HOM'));
    expect(raw.length).toBeGreaterThan(10);
    expect(raw.some((line) => line.includes('oauth/start?state=[redacted]'))).toBe(true);
    for (const line of raw) {
      expect(line.endsWith('\n')).toBe(true);
      const record = JSON.parse(line) as Line;
      expect(typeof record.level).toBe('string');
      expect(typeof record.time).toBe('string');
      expect(typeof record.msg).toBe('string');
    }
  });

  it("names each /split's request in its service calls and in Bolt's own lines", async () => {
    const before = serviceLines('create_expense').length;
    await h.split(`40 lunch <@${bob.slackId}>`);
    await h.split(`18 taxi <@${bob.slackId}>`);
    await h.app.deps.work.idle();
    const creates = serviceLines('create_expense').slice(before);
    expect(creates).toHaveLength(2);
    for (const line of creates) {
      expect(line).toMatchObject({ level: 'debug', status: 200, outcome: 'ok', kind: 'command' });
      expect(line.requestId).toMatch(/^[0-9a-f]{16}$/);
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    }
    const [lunch, taxi] = creates.map((line) => line.requestId);
    expect(lunch).not.toBe(taxi);
    // The Web API client's lines for the same request (its answer on the response_url is not
    // a Web API call; the parse of the command and the ack are Bolt's).
    const ofLunch = lines().filter((line) => line.requestId === lunch);
    expect(ofLunch.length).toBeGreaterThan(creates.length);
    expect(ofLunch.some((line) => line.operation === undefined)).toBe(true);
  });

  it('keeps every token and secret out of the lines, a linked account included', async () => {
    // A person linked the real way: Sign in with Slack, then the service's consent.
    const email = `cy.${Date.now().toString(36)}@example.com`;
    h.addSlackUser({ slackId: 'U0CY', first_name: 'Cy', email });
    await createUser(h.emu.url, { email, first_name: 'Cy' });
    const prompt = await h.split('connect', { user_id: 'U0CY' });
    const url = connectButtonUrl((prompt.answer.body as { blocks: unknown }).blocks);
    expect((await consentDance(h, url, { email })).page.status).toBe(200);
    const cy = await h.app.deps.tokens.get({ team_id: TEAM, user_id: 'U0CY' });
    expect(cy?.access_token).toBeTruthy();
    await h.split(`30 books <@${ann.slackId}>`, { user_id: 'U0CY' });
    await h.app.deps.work.idle();

    const text = raw.join('');
    // Service calls for the linked person were logged (so their token was in play).
    expect(serviceLines('create_expense').length).toBeGreaterThanOrEqual(4);
    const secrets = {
      'bot token': h.slack.team.botToken,
      'signing secret': SIGNING_SECRET,
      'service client secret': h.oauthApp.client_secret,
      'Slack client secret': h.config.slack.clientSecret,
      'encryption key': h.config.encryptionKey!,
      "Cy's access token": cy!.access_token,
      "Ann's access token": ann.accessToken,
      "Bob's access token": bob.accessToken,
      "Ann's API key": ann.apiKey,
    };
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret.length, what).toBeGreaterThan(8);
      expect(text.includes(secret), `${what} in the logs`).toBe(false);
    }
  });

  it("keeps Sign in with Slack's one-time code and people's e-mail addresses out of the lines", async () => {
    // The test above linked Cy through Sign in with Slack: its code was exchanged then.
    const codes = h.slack.callsTo('openid.connect.token').map((c) => String(c.args.code));
    expect(codes.length).toBeGreaterThan(0);
    // users.info answered with these addresses while /split looked the people up.
    const emails = [ann.email, bob.email, ...h.slack.callsTo('users.info').flatMap(emailOf)];
    expect(emails.length).toBeGreaterThan(2);
    const text = raw.join('');
    for (const code of codes) expect(text.includes(code), 'a sign-in code').toBe(false);
    for (const email of emails) expect(text.includes(email), email).toBe(false);
  });
});
