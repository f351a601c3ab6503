/**
 * Linking in the sandbox, over plain HTTP as a browser does it: the workspace page's acting person
 * is who Slack's sign-in page says is signed in, so a Connect link completes for that person and
 * is refused in the browser of anyone else.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseForm, submitForm } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../src/index.js';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-sandbox-link-'));
  sandbox = await startSandbox({
    port: 0,
    dataDir: join(dir, 'data'),
    pageDir: join(dir, 'page'),
    manifestYaml: readFileSync('manifest.yml', 'utf8'),
    logLevel: 'error',
  });
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A browser showing the workspace page as `as`, which signs it in: its workspace cookie. */
async function browserActingAs(as: string): Promise<string> {
  const page = await fetch(`${sandbox.url}workspace-api/sign-in`, {
    method: 'POST',
    headers: { origin: new URL(sandbox.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ as }),
  });
  return page.headers.get('set-cookie')!.split(';')[0]!;
}

async function connectLink(as: string): Promise<string> {
  await fetch(`${sandbox.url}workspace-api/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ as, channel: 'C0LUNCH', text: '/split connect' }),
  });
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    const prompt = sandbox.workspace
      .messages('C0LUNCH')
      .find((m) => m.ephemeralFor === as && JSON.stringify(m.blocks).includes('/oauth/start'));
    if (prompt) return /"url":"([^"]+)"/.exec(JSON.stringify(prompt.blocks))![1]!;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`no Connect button for ${as}`);
}

/** Opens the link in the browser with this workspace cookie and presses Continue on Slack's page. */
async function openAndContinue(link: string, workspaceCookie: string) {
  const start = await fetch(link, { redirect: 'manual' });
  const appCookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const signInUrl = start.headers.get('location')!;
  const page = await (await fetch(signInUrl, { headers: { cookie: workspaceCookie } })).text();
  const form = page
    .split('<form')
    .slice(1)
    .find((f) => f.includes('value="allow"'))!;
  const fields = new URLSearchParams(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')] as [string, string],
    ),
  );
  fields.set('decision', 'allow');
  const pressed = await fetch(new URL('/openid/connect/authorize', signInUrl), {
    method: 'POST',
    headers: { cookie: workspaceCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  const back = await fetch(pressed.headers.get('location')!, {
    headers: { cookie: appCookie },
    redirect: 'manual',
  });
  return { signInUrl, page, back };
}

describe('Connect in the sandbox', () => {
  it("refuses Ada's link in Grace's browser, then links Ada in hers", async () => {
    const link = await connectLink('U0ADA');

    const inGraces = await openAndContinue(link, await browserActingAs('U0GRACE'));
    expect(inGraces.signInUrl.startsWith(`${sandbox.url}openid/connect/authorize?`)).toBe(true);
    expect(inGraces.page).toContain('Signed in as <strong>Grace Hopper</strong>');
    expect(inGraces.back.status).toBe(403);
    expect(await inGraces.back.text()).toContain('This link is for someone else');

    const inAdas = await openAndContinue(link, await browserActingAs('U0ADA'));
    expect(inAdas.page).toContain('Signed in as <strong>Ada Lovelace</strong> (ada@example.com)');
    expect(inAdas.back.status).toBe(302);
    const consent = new URL(inAdas.back.headers.get('location')!);
    expect(consent.origin).toBe(sandbox.emulatorUrl);
    expect(consent.searchParams.get('login_hint')).toBe('ada@example.com');
    const appCookie = inAdas.back.headers.get('set-cookie')!.split(';')[0]!;

    // The emulator's sign-in (pre-filled) and Allow, then back to the app.
    const signIn = parseForm(await (await fetch(consent)).text());
    const allowPage = await submitForm(sandbox.emulatorUrl, signIn, { email: 'ada@example.com' });
    const allowed = await submitForm(sandbox.emulatorUrl, parseForm(allowPage.body), {
      decision: 'allow',
    });
    const done = await fetch(allowed.headers.get('location')!, { headers: { cookie: appCookie } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Connected as Ada Lovelace');
    const dm = await sandbox.workspace.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === 'U0ADA',
    );
    expect(JSON.stringify(dm.args.blocks)).toContain('*Ada Lovelace* (ada@example.com)');
  });
});
