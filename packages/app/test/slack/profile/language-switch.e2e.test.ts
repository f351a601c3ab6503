/**
 * A person who switches their Slack language is answered in it from their next message on: the
 * simulated workspace (started from manifest.yml, so subscribed to `user_change`) sends the
 * change as Slack does, and the app replaces the profile it held. Opening App Home reads the
 * profile again too, for a change the app did not hear of.
 */
import { readFileSync } from 'node:fs';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/balance-support.js';
import { blocksText, type Harness, SIGNING_SECRET, startHarness } from '../../support/harness.js';
import { voices } from '../../support/voice-support.js';

const DM = 'D0ANN';
const BOT = 'U0BOT0001';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', locale: 'en-US', tz: 'Europe/Berlin' });
}, 30_000);
afterAll(() => h?.close());

/** Writes `help` in the app's Messages tab and returns the text of the answer. */
async function helpAnswer(): Promise<string> {
  const before = h.slack.messages(DM).filter((m) => m.user === BOT).length;
  await h.slack.act.message({ as: 'U0ANN', channel: DM, text: 'help' });
  await expect
    .poll(() => h.slack.messages(DM).filter((m) => m.user === BOT).length, { timeout: 8_000 })
    .toBeGreaterThan(before);
  return blocksText(h.slack.messages(DM).filter((m) => m.user === BOT)[before]!.blocks);
}

describe('a language switch', () => {
  it('shows in the next answer, at once', async () => {
    expect(await helpAnswer()).toContain(voices.en.t('help.title'));
    const switched = Date.now();
    await h.slack.act.setLocale({ as: 'U0ANN', locale: 'de-DE' });
    expect(await helpAnswer()).toContain(voices.de.t('help.title'));
    await h.slack.act.setLocale({ as: 'U0ANN', locale: 'fr-FR' });
    expect(await helpAnswer()).toContain(voices.fr.t('help.title'));
    expect(Date.now() - switched).toBeLessThan(60_000);
    expect(h.slack.deliveries.filter((d) => d.kind === 'event' && d.status === 200)).not.toEqual(
      [],
    );
  });

  it('shows in App Home when the tab is opened, even unannounced', async () => {
    await h.slack.act.setLocale({ as: 'U0ANN', locale: 'en-US' });
    expect(await helpAnswer()).toContain(voices.en.t('help.title'));
    // Changed behind the app's back: no user_change.
    h.slack.user('U0ANN')!.locale = 'de-DE';
    const before = h.slack.callsTo('views.publish').length;
    await h.slack.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await eventually(() => expect(h.slack.callsTo('views.publish').length).toBeGreaterThan(before));
    const view = h.slack.callsTo('views.publish').at(-1)!.args.view as { blocks: unknown };
    expect(blocksText(view.blocks)).toContain(voices.de.t('home.activity'));
  });
});
