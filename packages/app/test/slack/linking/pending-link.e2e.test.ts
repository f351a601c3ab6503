/**
 * One pending link per person, end to end: a person not connected yet who keeps writing to the
 * app leaves one link-state row in the app's SQLite file, however much they send; the newest
 * command is the one carried out once they link, an older prompt's link says it was replaced (in
 * their language), and a prompt without a command hands out the link of the command waiting.
 */
import { readFileSync } from 'node:fs';
import { call, createUser } from '@split/service-emulator/testing';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../../src/store/index.js';
import {
  blocksText,
  connectButtonUrl,
  consentDance,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

const BOT = 'U0BOT0001';
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
}, 30_000);
afterAll(() => h?.close());

async function newcomer(slackId: string, first_name: string, locale?: string) {
  const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  h.addSlackUser({ slackId, first_name, email, ...(locale ? { locale } : {}) });
  const created = await createUser(h.emu.url, { email, first_name, default_currency: 'EUR' });
  return { email, apiKey: created.api_key };
}

/** The link-state rows in the app's SQLite file: how many, and their bytes. */
async function linkStateRows(): Promise<{ rows: number; bytes: number }> {
  const { default: sqlite3 } = await import('sqlite3');
  const db = new sqlite3.Database(sqliteFile(h.config.storeUrl));
  try {
    return await new Promise((resolve, reject) =>
      db.get(
        "SELECT count(*) AS rows, coalesce(sum(length(value)), 0) AS bytes FROM keyv WHERE key LIKE 'link-states:%'",
        (error, row: { rows: number; bytes: number }) => (error ? reject(error) : resolve(row)),
      ),
    );
  } finally {
    db.close();
  }
}

describe('a person not connected yet', () => {
  it('leaves one link-state row after 200 DMs, and the latest command is the one carried out', async () => {
    const dee = await newcomer('U0DEE', 'Dee');
    const dm = 'D0DEE';
    const before = await linkStateRows();
    for (let n = 1; n <= 200; n++) {
      await h.slack.act.message({ as: 'U0DEE', channel: dm, text: `${n} lunch <@U0BOB>` });
    }
    const prompts = () =>
      h.slack
        .messages(dm)
        .filter((m) => m.user === BOT && JSON.stringify(m.blocks).includes('/oauth/start'));
    await expect.poll(() => prompts().length, { timeout: 60_000, interval: 100 }).toBe(200);
    await h.app.deps.work.idle();

    const after = await linkStateRows();
    expect(after.rows - before.rows).toBeLessThanOrEqual(1);
    expect(after.bytes - before.bytes).toBeLessThan(8_000);

    const latest = prompts().find((m) => blocksText(m.blocks).includes('`/split 200 lunch @bob`'))!;
    const first = prompts().find((m) => blocksText(m.blocks).includes('`/split 1 lunch @bob`'))!;
    const old = await fetch(h.local(connectButtonUrl(first.blocks)), { redirect: 'manual' });
    expect(old.status).toBe(400);
    expect(await old.text()).toContain('A newer link replaced this one');

    const done = await consentDance(h, connectButtonUrl(latest.blocks), { email: dee.email });
    expect(done.page.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await call(h.emu.url, dee.apiKey, 'GET', 'get_expenses')).body.expenses as {
            cost: string;
          }[],
        { timeout: 20_000 },
      )
      .toHaveLength(1);
    await h.app.deps.work.idle();
    const { expenses } = (await call(h.emu.url, dee.apiKey, 'GET', 'get_expenses')).body;
    expect(expenses).toMatchObject([{ cost: '200.0', description: 'lunch' }]);
  }, 120_000);

  it('is told in their language that an older prompt’s link was replaced by the newer one', async () => {
    await newcomer('U0GRE', 'Greta', 'de-DE');
    const first = await h.split('30 taxi <@U0BOB>', { user_id: 'U0GRE' });
    const second = await h.split('40 lunch <@U0BOB>', { user_id: 'U0GRE' });
    const older = connectButtonUrl((first.answer.body as { blocks: unknown }).blocks);
    const newer = connectButtonUrl((second.answer.body as { blocks: unknown }).blocks);
    expect(newer).not.toBe(older);
    const page = await fetch(h.local(older), { redirect: 'manual' });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Ein neuerer Link hat diesen ersetzt');
    expect((await fetch(h.local(newer), { redirect: 'manual' })).status).toBe(302);
  });

  it('gets the link of the command waiting from /split connect, and the command runs once linked', async () => {
    const ivo = await newcomer('U0IVO', 'Ivo');
    const typed = await h.split('30 taxi <@U0BOB>', { user_id: 'U0IVO' });
    const asked = await h.split('connect', { user_id: 'U0IVO' });
    const url = connectButtonUrl((asked.answer.body as { blocks: unknown }).blocks);
    expect(url).toBe(connectButtonUrl((typed.answer.body as { blocks: unknown }).blocks));
    const done = await consentDance(h, url, { email: ivo.email });
    expect(done.page.status).toBe(200);
    await expect
      .poll(() => typed.answers().some((p) => p.body.response_type === 'in_channel'), {
        timeout: 20_000,
      })
      .toBe(true);
    const { expenses } = (await call(h.emu.url, ivo.apiKey, 'GET', 'get_expenses')).body;
    expect(expenses).toMatchObject([{ description: 'taxi' }]);
  });
});
