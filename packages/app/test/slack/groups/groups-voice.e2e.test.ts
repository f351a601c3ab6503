/**
 * The group commands for someone whose Slack speaks German, end to end: created, listed, bound,
 * given a default split and deleted, each answer in German with German amounts; the group's name
 * as Ann typed it, markup and all, pings nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, button, click, current, textOf } from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
const FLAT = 'C0WG';

beforeAll(async () => {
  h = await startHarness();
  await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
    default_currency: 'EUR',
  });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  h.slack.addChannel({ id: FLAT, name: 'wg', botIsMember: true });
});
afterAll(() => h?.close());

describe('group commands in German', () => {
  it('creates, binds, lists and deletes a group, answering in German', async () => {
    const created = await ask(h, 'group create WG & Co <@U0BOB|bob>');
    expect(textOf(created)).toContain(
      '<@U0ANN> hat die Gruppe *WG &amp; Co* mit <@U0BOB> erstellt.',
    );
    expect(textOf(created)).toContain(
      '`/split 40 Mittagessen in WG &amp; Co` bucht eine Ausgabe in diese Gruppe',
    );

    const again = await ask(h, 'group create wg & co');
    expect(textOf(again)).toContain('Du hast schon eine Gruppe namens „WG &amp; Co“.');
    expect(textOf(again)).toContain('Zum Beispiel: `/split group add @ann WG &amp; Co`');

    expect(textOf(await ask(h, 'group use WG & Co', 'U0ANN', FLAT))).toContain(
      '<@U0ANN> hat eingestellt, dass die Ausgaben dieses Channels in *WG &amp; Co* gehen.',
    );
    const listed = await ask(h, 'groups', 'U0ANN', FLAT);
    expect(textOf(listed)).toContain('*WG &amp; Co* (2 Mitglieder)');
    expect(textOf(listed)).toContain('_die Ausgaben dieses Channels gehen hierher_');
    expect(blockKitErrors(listed.blocks, 'message')).toEqual([]);

    expect(textOf(await ask(h, 'group default', 'U0ANN', FLAT))).toContain(
      '*WG &amp; Co* hat keine Standardaufteilung',
    );
    expect(textOf(await ask(h, 'group default me 60% <@U0BOB|bob> 40%', 'U0ANN', FLAT))).toContain(
      '<@U0ANN> hat die Standardaufteilung von *WG &amp; Co* auf 60/40 gesetzt',
    );

    const confirm = await ask(h, 'group delete WG', 'U0ANN', FLAT);
    expect(textOf(confirm)).toContain('Die Gruppe *WG &amp; Co* löschen?');
    const remove = button(confirm.blocks, 'group_delete');
    expect(remove.text?.text).toBe('Gruppe löschen');
    await (await click(h, confirm, remove, 'U0ANN', FLAT)).answer();
    expect(textOf(current(h, confirm, FLAT))).toContain('Die Gruppe *WG &amp; Co* wurde gelöscht.');
  });
});
