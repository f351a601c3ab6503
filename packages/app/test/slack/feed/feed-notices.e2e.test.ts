/**
 * What `/split feed` says in the channel names the person as a mention and the group as it is
 * called, escaped once: a group called "Tom & Jerry" reads "Tom & Jerry" in Slack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../support/balance-support.js';
import { blocksText, type Harness, startHarness } from '../../support/harness.js';

const CHANNEL = 'C0TOMJERRY';
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ feed: { scheduler: false } });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', last_name: 'Lee' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  h.slack.addChannel({ id: CHANNEL, name: 'tom-and-jerry', botIsMember: true });
  await ask(h, 'group create Tom & Jerry <@U0BOB|bob>');
  await ask(h, 'group use Tom & Jerry', 'U0ANN', CHANNEL);
});
afterAll(async () => {
  await h?.close();
});

describe('the feed notices', () => {
  it('mention who turned it on and escape the group name once', async () => {
    const on = blocksText((await ask(h, 'feed on', 'U0ANN', CHANNEL)).blocks);
    expect(on).toContain('<@U0ANN> turned on the activity feed of *Tom &amp; Jerry*');
    expect(on).not.toContain('&amp;amp;');
    expect(on).not.toContain('&lt;@');
    const again = blocksText((await ask(h, 'feed on', 'U0ANN', CHANNEL)).blocks);
    expect(again).toContain('The activity feed of *Tom &amp; Jerry* is on already.');
    const status = blocksText((await ask(h, 'feed', 'U0ANN', CHANNEL)).blocks);
    expect(status).toContain("*Tom &amp; Jerry*, read through <@U0ANN>'s account");
    const off = blocksText((await ask(h, 'feed off', 'U0ANN', CHANNEL)).blocks);
    expect(off).toContain('<@U0ANN> stopped the activity feed of *Tom &amp; Jerry* here.');
  });
});
