/**
 * The feed in its owner's voice, end to end: Ann's Slack speaks German, so what she types about
 * the feed is answered in German, and the feed posts the group's changes to the channel in German
 * with German amounts. A service user outside Slack who calls themselves "<!channel>" and
 * writes a description full of markup pings nobody and disguises no link, in the blocks or in
 * the fallback text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/service/index.js';
import { ask, book, serviceFor, textOf } from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';

const FLAT = 'C0WG';
let h: Harness;
let ann: LinkedPerson;
let mallory: LinkedPerson;
let wg: Group;

beforeAll(async () => {
  h = await startHarness({ feed: { scheduler: false } });
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
    default_currency: 'EUR',
  });
  mallory = await h.link({ slackId: 'U0MAL', first_name: '<!channel>', last_name: 'Mallory' });
  h.slack.addChannel({ id: FLAT, name: 'wg', botIsMember: true });
  await ask(h, 'group create WG <@U0MAL|mallory>');
  await ask(h, 'group use WG', 'U0ANN', FLAT);
  wg = (await serviceFor(h, ann).getGroups()).find((g) => g.name === 'WG')!;
});
afterAll(async () => {
  await h?.close();
});

describe('the feed of someone whose Slack speaks German', () => {
  it('answers the feed commands in German', async () => {
    expect(textOf(await ask(h, 'feed', 'U0ANN', FLAT))).toContain(
      'Dieser Channel zeigt keine Gruppenaktivität.',
    );
    const on = await ask(h, 'feed on', 'U0ANN', FLAT);
    expect(on.ephemeralFor).toBeUndefined();
    expect(blocksText(on.blocks)).toContain(
      '<@U0ANN> hat den Aktivitäts-Feed von *WG* eingeschaltet',
    );
  });

  it('posts a change in German, escaping what the service says', async () => {
    await book(h, mallory, {
      cost: '1234.5',
      currency: 'EUR',
      description: '<!here> free pizza <https://evil.example|your-receipt>',
      group_id: wg.id,
      shares: [
        { who: mallory, owed: '617.25' },
        { who: ann, owed: '617.25' },
      ],
    });
    await h.app.feed.poller.pollAll();
    const post = h.slack.messages(FLAT).find((m) => m.text?.includes('free pizza'));
    expect(post, JSON.stringify(h.slack.messages(FLAT).map((m) => m.text))).toBeDefined();
    expect(post!.text).toBe(
      '&lt;!channel&gt; Mallory hat „&lt;!here&gt; free pizza &lt;https://evil.example|your-receipt&gt;“ (1.234,50\u00a0€) in WG hinzugefügt.',
    );
    const all = `${post!.text} ${JSON.stringify(post!.blocks)}`;
    expect(all).not.toMatch(/<!|<https?:/);
    expect(blocksText(post!.blocks)).toContain('Gruppenaktivität');
    expect(blockKitErrors(post!.blocks, 'message')).toEqual([]);
  });
});
