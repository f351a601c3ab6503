/**
 * Token rotation across replicas: two replicas sharing one store find the same expiring bot token
 * at once; exactly one spends the single-use refresh token and both get the new token. On SQLite,
 * Redis and PostgreSQL, against the simulated Slack's oauth.v2.access.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Installation, webApi } from '@slack/bolt';
import { startWorkspace, type Workspace } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInstalledTeams,
  REFRESH_WINDOW_S,
} from '../../../src/slack/install/installation-store.js';
import { createKeyv, NAMESPACES, openStore, type Store } from '../../../src/store/index.js';
import { type ScratchStore, scratchPostgres, scratchRedis } from '../../replicas/stores.js';
import { quietLogger } from '../../support/harness.js';
import { POSTGRES_URL, REDIS_URL } from '../../support/stores.js';

const REDIRECT = 'http://split.test/slack/oauth_redirect';
const HOURS = 60 * 60_000;

/** A code from Slack's install page, as the person's browser gets it. */
async function installCode(ws: Workspace, clientId: string, as: string): Promise<string> {
  const params = { client_id: clientId, scope: 'commands,chat:write', redirect_uri: REDIRECT };
  const url = `${ws.origin}/oauth/v2/authorize`;
  const cookie = ws.signInBrowser(as);
  const page = await (
    await fetch(`${url}?${new URLSearchParams(params)}`, { headers: { cookie } })
  ).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const back = await fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, form_token: formToken, decision: 'allow' }).toString(),
    redirect: 'manual',
  });
  return new URL(back.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

/** Each store: its name, a store of its own on it, and whether its server is missing. */
const backends: [string, () => Promise<ScratchStore>, boolean][] = [
  [
    'SQLite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'split-rotation-'));
      return {
        url: `sqlite://${join(dir, 'app.sqlite')}`,
        drop: () => rm(dir, { recursive: true, force: true }),
      };
    },
    false,
  ],
  ['Redis', scratchRedis, !REDIS_URL],
  ['PostgreSQL', scratchPostgres, !POSTGRES_URL],
];

for (const [name, scratch, missing] of backends)
  describe.skipIf(missing)(`token rotation on ${name}`, () => {
    let ws: Workspace;
    let scratchStore: ScratchStore;
    let store: Store;
    let dataDir: string;
    const logger = quietLogger();

    beforeAll(async () => {
      ws = await startWorkspace();
      ws.addTeam({ id: 'T0002', name: 'Globex' });
      ws.addUser({ id: 'U2ANN', team_id: 'T0002', name: 'ann' });
      scratchStore = await scratch();
      dataDir = await mkdtemp(join(tmpdir(), 'split-rotation-key-'));
      store = await openStore(scratchStore.url, {
        encryptionKey: 'ab'.repeat(32),
        dataDir,
        logger,
      });
    }, 30_000);

    afterAll(async () => {
      await store?.close();
      await scratchStore?.drop();
      await ws?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('refreshes an expiring token once for two replicas, both getting the new token', async () => {
      const client = ws.addOidcClient({ redirectUris: [REDIRECT], tokenRotation: true });
      const slack = new webApi.WebClient(undefined, {
        slackApiUrl: ws.apiUrl,
        retryConfig: { retries: 0 },
      });
      const granted = await slack.oauth.v2.access({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code: await installCode(ws, client.clientId, 'U2ANN'),
        redirect_uri: REDIRECT,
      });
      expect(granted.refresh_token).toMatch(/^xoxe-1-/);
      expect(granted.expires_in).toBe(12 * 60 * 60);
      let offset = 0;
      const replica = () =>
        createInstalledTeams({
          installations: store.installations,
          claims: store.claims,
          refresh: (refresh_token) =>
            slack.oauth.v2.access({
              client_id: client.clientId,
              client_secret: client.clientSecret,
              grant_type: 'refresh_token',
              refresh_token,
            }),
          now: () => Date.now() + offset,
          logger,
        });
      const [a, b] = [replica(), replica()];
      const installation: Installation = {
        team: { id: 'T0002', name: 'Globex' },
        enterprise: undefined,
        user: { id: 'U2ANN', token: undefined, scopes: undefined },
        bot: {
          token: granted.access_token ?? '',
          refreshToken: granted.refresh_token ?? '',
          expiresAt: Math.floor(Date.now() / 1000) + (granted.expires_in ?? 0),
          scopes: ['commands', 'chat:write'],
          id: 'B1',
          userId: granted.bot_user_id ?? '',
        },
        isEnterpriseInstall: false,
        authVersion: 'v2',
      };
      await a.storeInstallation(installation);
      // At rest the record is sealed: neither token appears in the backend.
      const raw = await createKeyv(scratchStore.url, { namespace: NAMESPACES.installations });
      const sealed = JSON.stringify(await raw.get('T:T0002'));
      await raw.disconnect();
      expect(sealed).not.toContain(granted.access_token);
      expect(sealed).not.toContain(granted.refresh_token);

      // Far from expiry: nothing is refreshed.
      expect((await a.forTeam('T0002')).bot?.token).toBe(granted.access_token);
      expect(ws.callsTo('oauth.v2.access')).toHaveLength(1);

      // Inside Bolt's window before expiry, both replicas at once.
      offset = 12 * HOURS - (REFRESH_WINDOW_S * 1000) / 2;
      ws.advance(offset);
      const [fromA, fromB] = await Promise.all([a.forTeam('T0002'), b.forTeam('T0002')]);
      const refreshes = ws
        .callsTo('oauth.v2.access')
        .filter((c) => c.args.grant_type === 'refresh_token');
      expect(refreshes).toHaveLength(1);
      expect(refreshes[0]?.response.ok).toBe(true);
      expect(fromA.bot?.token).toBe(fromB.bot?.token);
      expect(fromA.bot?.token).not.toBe(granted.access_token);
      expect(fromA.bot?.refreshToken).not.toBe(granted.refresh_token);
      // The new token works where the old one has expired.
      ws.advance(REFRESH_WINDOW_S * 1000);
      const oldOne = new webApi.WebClient(granted.access_token, {
        slackApiUrl: ws.apiUrl,
        retryConfig: { retries: 0 },
      });
      await expect(oldOne.auth.test()).rejects.toThrow(/token_expired/);
      const newOne = new webApi.WebClient(fromA.bot?.token, {
        slackApiUrl: ws.apiUrl,
        retryConfig: { retries: 0 },
      });
      await expect(newOne.auth.test()).resolves.toMatchObject({ ok: true, team_id: 'T0002' });
    });
  });
