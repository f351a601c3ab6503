// A person's language, chosen beside "Acting as" in the page: users.info reports it with
// include_locale (and only then, as Slack), and the workspace keeps it across a restart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCALES, startWorkspace, type Workspace } from '../src/index.js';
import { BOT_EVENTS, type EventRig, manifestText, startEventRig } from './event-rig.js';

let rig: EventRig;
const extra: Workspace[] = [];
beforeEach(async () => {
  rig = await startEventRig();
});
afterEach(async () => {
  await rig.close();
  await Promise.all(extra.splice(0).map((ws) => ws.close()));
});

/** What the page sends when the language select changes. */
async function choose(as: string, locale: string) {
  const response = await fetch(`${rig.ws.url}/workspace-api/locale`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: rig.ws.url },
    body: JSON.stringify({ as, locale }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a person’s locale', () => {
  it('is chosen in the page and read with users.info include_locale=true only', async () => {
    expect(await choose('U0ANN', 'de-DE')).toEqual({ status: 200, body: { ok: true } });
    const withLocale = await rig.api('users.info', { user: 'U0ANN', include_locale: true });
    expect(withLocale.user).toMatchObject({ id: 'U0ANN', locale: 'de-DE' });
    const form = await fetch(`${rig.ws.apiUrl}users.info`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${rig.ws.team.botToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'user=U0ANN&include_locale=true',
    }).then((r) => r.json() as Promise<{ user: { locale?: string } }>);
    expect(form.user.locale).toBe('de-DE');
    const without = await rig.api('users.info', { user: 'U0ANN' });
    expect(without.user).not.toHaveProperty('locale');
    expect(rig.ws.pageState('U0ANN').people.find((p) => p.id === 'U0ANN')?.locale).toBe('de-DE');
  });

  it('offers Slack’s languages, refuses others, and survives a restart', async () => {
    const offered = rig.ws.pageState('U0ANN').locales.map((l) => l.locale);
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP'])
      expect(offered).toContain(locale);
    expect(offered).toEqual(LOCALES.map((l) => l.locale));
    expect(await choose('U0ANN', 'xx-XX')).toEqual({
      status: 400,
      body: { ok: false, error: 'Slack has no language "xx-XX".' },
    });
    expect(await choose('U0NOBODY', 'fr-FR')).toMatchObject({ status: 400 });

    await rig.ws.act.setLocale({ as: 'U0BOB', locale: 'ja-JP' });
    const next = await startWorkspace();
    extra.push(next);
    next.restore(JSON.parse(JSON.stringify(rig.ws.snapshot())));
    expect(next.user('U0BOB')?.locale).toBe('ja-JP');
  });
});

describe('a language chosen', () => {
  it('is sent to an app that subscribes to user_change, as Slack sends a profile change', async () => {
    const subscribed = await startEventRig(
      manifestText({ events: [...BOT_EVENTS, 'user_change'] }),
    );
    try {
      const response = await fetch(`${subscribed.ws.url}/workspace-api/locale`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: subscribed.ws.url },
        body: JSON.stringify({ as: 'U0ANN', locale: 'fr-FR' }),
      });
      expect(response.status).toBe(200);
      const [change] = await subscribed.waitForEvents((e) => e.type === 'user_change');
      expect(change).toMatchObject({
        type: 'user_change',
        user: { id: 'U0ANN', team_id: subscribed.ws.team.id, locale: 'fr-FR' },
      });
      expect(typeof (change!.user as { tz?: unknown }).tz).toBe('string');
      expect(subscribed.envelopes().at(-1)).toMatchObject({ team_id: subscribed.ws.team.id });
    } finally {
      await subscribed.close();
    }
  });

  it('is not sent to an app without the event, nor without users:read', async () => {
    await choose('U0ANN', 'de-DE');
    const noScope = await startEventRig(
      manifestText({
        events: ['app_home_opened', 'user_change'],
        scopes: ['commands', 'chat:write'],
      }),
    );
    try {
      await noScope.ws.act.setLocale({ as: 'U0ANN', locale: 'de-DE' });
      await noScope.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
      await noScope.waitForEvents((e) => e.type === 'app_home_opened');
      expect(noScope.events('user_change')).toEqual([]);
    } finally {
      await noScope.close();
    }
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await rig.waitForEvents((e) => e.type === 'app_home_opened');
    expect(rig.events('user_change')).toEqual([]);
  });
});
