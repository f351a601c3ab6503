/**
 * The workspace's sign-in cookie (who Sign in with Slack says this browser is) is set only by a
 * POST from the workspace's own page: reading the page's state never signs anyone in, even as a
 * top-level navigation a page elsewhere can start, and a cross-site POST is refused.
 */
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORIZE_PATH, startWorkspace, type Workspace } from '../src/index.js';
import { PEOPLE } from './support.js';

let ws: Workspace;
let port: number;

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
  port = Number(new URL(ws.url).port);
});
afterEach(() => ws.close());

interface Reply {
  status: number;
  cookie: string | undefined;
  body: { ok?: boolean; error?: string; signed_in?: unknown };
}

/** A request with exactly these headers, as a browser would send them (fetch sets its own). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: own(), ...headers },
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookie: res.headers['set-cookie']?.[0]?.split(';')[0],
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const own = () => `127.0.0.1:${port}`;
const json = () => ({ 'content-type': 'application/json' });
const ann = JSON.stringify({ as: 'U0ANN' });

/** Who the sign-in page says this cookie's browser is. */
async function signedInAs(cookie: string | undefined): Promise<string> {
  const client = ws.addOidcClient({ redirectUris: ['http://app.test/cb'], name: 'Split' });
  const query = new URLSearchParams({
    response_type: 'code',
    scope: 'openid',
    client_id: client.clientId,
    redirect_uri: 'http://app.test/cb',
  });
  const page = await fetch(`${ws.url}${AUTHORIZE_PATH}?${query}`, {
    headers: cookie ? { cookie } : {},
  });
  const html = await page.text();
  return /Signed in as <strong>([^<]+)<\/strong>/.exec(html)?.[1] ?? 'nobody';
}

describe('the workspace sign-in cookie', () => {
  it('is never set by reading the page state, even as a top-level navigation from elsewhere', async () => {
    const navigation = await send('GET', '/workspace-api/state?as=U0ANN', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(navigation.status).toBe(200);
    expect(navigation.cookie).toBeUndefined();
    const ownPage = await send('GET', '/workspace-api/state?as=U0ANN', {
      'sec-fetch-site': 'same-origin',
    });
    expect(ownPage.cookie).toBeUndefined();
    expect(ownPage.body.signed_in).toBe(false);
    expect(await signedInAs(undefined)).toBe('nobody');
  });

  it('is set by a POST from the workspace’s own page, which the state then shows', async () => {
    const byOrigin = await send(
      'POST',
      '/workspace-api/sign-in',
      { ...json(), origin: `http://${own()}` },
      ann,
    );
    expect(byOrigin.status).toBe(200);
    expect(byOrigin.cookie).toMatch(/^ws_session=[A-Za-z0-9_-]+$/);
    expect(await signedInAs(byOrigin.cookie)).toBe('Ann Example');
    const state = await send('GET', '/workspace-api/state?as=U0ANN', {
      cookie: byOrigin.cookie!,
    });
    expect(state.body.signed_in).toBe(true);
    const bySite = await send(
      'POST',
      '/workspace-api/sign-in',
      { ...json(), 'sec-fetch-site': 'same-origin' },
      JSON.stringify({ as: 'U0BOB' }),
    );
    expect(bySite.status).toBe(200);
    expect(await signedInAs(bySite.cookie)).toBe('Bob Example');
  });

  it('is refused to a cross-site POST, a POST with no mark of its origin, and a GET', async () => {
    const attempts: [string, Record<string, string>][] = [
      ['another origin', { origin: 'http://evil.example' }],
      ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
      ['a same-site one', { 'sec-fetch-site': 'same-site' }],
      ['a mismatch', { origin: `http://${own()}`, 'sec-fetch-site': 'cross-site' }],
      ['no mark', {}],
    ];
    for (const [what, headers] of attempts) {
      const reply = await send('POST', '/workspace-api/sign-in', { ...json(), ...headers }, ann);
      expect(reply.status, what).toBe(403);
      expect(reply.cookie, what).toBeUndefined();
      expect(reply.body.ok, what).toBe(false);
    }
    const form = await send(
      'POST',
      '/workspace-api/sign-in',
      { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${own()}` },
      'as=U0ANN',
    );
    expect(form.status).toBe(415);
    const get = await send('GET', '/workspace-api/sign-in?as=U0ANN', {
      'sec-fetch-site': 'same-origin',
    });
    expect(get.status).toBe(403);
    expect(get.cookie).toBeUndefined();
  });
});
