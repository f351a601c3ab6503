/**
 * The DM after linking names the expense account and carries Unlink; pressed in the workspace,
 * Unlink removes the link and replaces the DM, and on an older DM (another account linked since)
 * it changes nothing.
 */

import { createUser, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKING_ACTIONS } from '../../../src/slack/ids.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import {
  connectButtonUrl,
  consentDance,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // Buttons are pressed in the workspace, which delivers them to the app as Slack would.
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
});
afterAll(() => h?.close());

const key = (user_id: string) => ({ team_id: 'T0001', user_id });
/** DMs already taken by a test, so that a person's second link waits for its own DM. */
const seen = new Set<unknown>();

async function serviceAccount(first_name: string) {
  const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  const created = await createUser(h.emu.url, { email, first_name, last_name: 'Moss' });
  return { email, id: created.user.id };
}

async function linkThrough(slackId: string, account: { email: string }): Promise<FakeMessage> {
  const out = await h.split('connect', { user_id: slackId });
  const url = connectButtonUrl((out.answer.body as Loose).blocks);
  const done = await consentDance(h, url, { email: account.email, slackId });
  expect(done.page.status).toBe(200);
  const dm = await h.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === slackId && !seen.has(c),
  );
  seen.add(dm);
  return h.slack.messages(slackId).at(-1)!;
}

function unlinkButton(message: FakeMessage): Record<string, unknown> {
  const actions = (message.blocks as Loose[]).find((b) => b.type === 'actions');
  const button = actions?.elements.find((e: Loose) => e.action_id === LINKING_ACTIONS.unlink);
  if (!button) throw new Error('no Unlink button in the DM');
  return button;
}

async function press(slackId: string, message: FakeMessage) {
  await h.slack.act.action({
    as: slackId,
    container: { type: 'message', channel: message.channel, ts: message.ts },
    action: unlinkButton(message),
  });
}

describe('the DM after linking', () => {
  it('names the account with its e-mail, and Unlink removes the link and says so in its place', async () => {
    h.addSlackUser({ slackId: 'U0MAE', first_name: 'Mae', email: 'mae.slack@example.com' });
    const account = await serviceAccount('Mae');
    const dm = await linkThrough('U0MAE', account);
    expect(JSON.stringify(dm.blocks)).toContain(
      `Connected as *Mae Moss* (${account.email}): expenses you book from Slack now go to this Splitwise account`,
    );
    expect((await h.app.deps.tokens.get(key('U0MAE')))?.service_user_id).toBe(account.id);

    await press('U0MAE', dm);
    await h.slack.waitForResponse((p) => p.body.text === 'Unlinked Mae Moss');
    // App Home, published as connected once the link was made, offers Connect again.
    await h.slack.waitForCall(
      'views.publish',
      (c) => c.args.user_id === 'U0MAE' && JSON.stringify(c.args).includes('Connect account'),
    );
    expect(await h.app.deps.tokens.get(key('U0MAE'))).toBeUndefined();
    const replaced = h.slack.messages('U0MAE').find((m) => m.ts === dm.ts)!;
    expect(replaced.text).toBe('Unlinked Mae Moss');
    expect(JSON.stringify(replaced.blocks)).not.toContain(LINKING_ACTIONS.unlink);
  });

  it('leaves a newer link alone when Unlink is pressed on an older DM', async () => {
    h.addSlackUser({ slackId: 'U0NED', first_name: 'Ned', email: 'ned.slack@example.com' });
    const first = await serviceAccount('Ned');
    const oldDm = await linkThrough('U0NED', first);
    await h.split('disconnect', { user_id: 'U0NED' });
    const second = await serviceAccount('Neddy');
    await linkThrough('U0NED', second);

    await press('U0NED', oldDm);
    const told = await h.slack.waitForResponse((p) =>
      String(p.body.text).includes('That account is no longer linked'),
    );
    expect(told.body.text).toContain("you're connected as Neddy Moss now");
    // The old DM's Unlink can do nothing more: the DM says so in its place.
    const replaced = h.slack.messages('U0NED').find((m) => m.ts === oldDm.ts)!;
    expect(replaced.text).toContain('That account is no longer linked');
    expect(JSON.stringify(replaced.blocks)).not.toContain(LINKING_ACTIONS.unlink);
    expect((await h.app.deps.tokens.get(key('U0NED')))?.service_user_id).toBe(second.id);
  });
});
