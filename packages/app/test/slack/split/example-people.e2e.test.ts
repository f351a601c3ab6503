/**
 * The forms in `/split help` and in the Messages tab's greeting name the reader's friends who are
 * in the workspace (found by their e-mail, within the request's lookups), in the reader's own
 * words; a friend who is not in the workspace is never named, and a form with more people than
 * were found names nobody in their place.
 */
import { readFileSync } from 'node:fs';
import { createUser } from '@split/service-emulator/testing';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, eventually } from '../../support/balance-support.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

const DM = 'D0ANN';
const BOT = 'U0BOT0001';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  h.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', locale: 'de-DE' });
  const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  // Zed is Ann's friend at the service only: nobody in this workspace has his e-mail.
  const zed = await createUser(h.emu.url, { email: 'zed@elsewhere.example', first_name: 'Zed' });
  const zedPerson = { ...bob, email: 'zed@elsewhere.example', name: 'Zed', serviceId: zed.user.id };
  await book(h, ann, {
    cost: '30',
    currency: 'EUR',
    shares: [
      { who: ann, owed: '10' },
      { who: bob, owed: '10' },
      { who: zedPerson, owed: '10' },
    ],
  });
}, 30_000);
afterAll(() => h?.close());

describe('the forms shown as examples', () => {
  it('in /split help name the friend in the workspace, in the reader’s words, and nobody else', async () => {
    const { answer } = await h.split('hilfe', { user_id: 'U0ANN' });
    const text = blocksText(answer.body.blocks);
    expect(text).toContain('/split 40 Mittagessen <@U0BOB>');
    expect(text).toContain('/split 12,50 € Taxi <@U0BOB> @jemand-anderes gestern');
    expect(text).not.toMatch(/@(?:ann|bob|cho)\b|Zed|lunch/);
  });

  it('in the greeting name the friend in the workspace, in the reader’s words', async () => {
    await h.slack.act.homeOpened({ as: 'U0ANN', tab: 'messages' });
    await eventually(() =>
      expect(h.slack.messages(DM).filter((m) => m.user === BOT)).toHaveLength(1),
    );
    const text = blocksText(h.slack.messages(DM).find((m) => m.user === BOT)!.blocks);
    expect(text).toContain(`<@${BOT}> 40 Mittagessen <@U0BOB>`);
    expect(text).toContain('• 40 Mittagessen <@U0BOB> —');
    expect(text).not.toMatch(/@(?:ann|bob|cho)\b|Zed|lunch/);
  });
});
