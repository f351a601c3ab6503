/**
 * No stale Connect prompt, end to end in the simulated workspace: the prompt `/split connect`
 * answers privately carries a button that opens the link; Slack still posts the click, with a
 * response_url of that ephemeral message, and once the person is linked the prompt is replaced by
 * one line naming the account, in their language. A click that reaches the app only after the
 * link was made replaces it at once. A Connect button on a message that says more than that (a
 * DM, App Home) is left alone.
 */
import { createUser, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../../src/slack/ids.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import {
  blocksText,
  connectButtonUrl,
  consentDance,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';

const CHANNEL = 'C0001';
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
});
afterAll(() => h?.close());

async function newcomer(slackId: string, first_name: string, locale?: string) {
  const email = `${first_name.toLowerCase()}.${Date.now().toString(36)}@example.com`;
  h.addSlackUser({ slackId, first_name, email, ...(locale ? { locale } : {}) });
  await createUser(h.emu.url, { email, first_name, last_name: 'Vale' });
  return { slackId, email, name: `${first_name} Vale` };
}

/** `/split connect` typed in the channel; the private prompt it answers with. */
async function promptFor(slackId: string): Promise<FakeMessage> {
  const before = h.slack.messages(CHANNEL).length;
  await h.slack.act.message({ as: slackId, channel: CHANNEL, text: '/split connect' });
  for (let i = 0; i < 200; i += 1) {
    const prompt = h.slack
      .messages(CHANNEL)
      .slice(before)
      .find(
        (m) => m.ephemeralFor === slackId && JSON.stringify(m.blocks).includes(ACTIONS.connect),
      );
    if (prompt) return prompt;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no Connect prompt');
}

/** The Connect button pressed as the workspace's page does: Slack opens the URL and posts the click. */
async function clickConnect(slackId: string, prompt: FakeMessage): Promise<void> {
  const actions = (prompt.blocks as Loose[]).find((b) => b.type === 'actions');
  const button = actions.elements.find((e: Loose) => e.action_id === ACTIONS.connect);
  await h.slack.act.action({
    as: slackId,
    container: { type: 'message', channel: CHANNEL, ts: prompt.ts },
    action: {
      type: 'button',
      action_id: button.action_id,
      block_id: actions.block_id,
      text: button.text,
      url: button.url,
      action_ts: `${Date.now() / 1000}`,
    },
  });
}

/** The prompt as the person sees it now. */
const now = (prompt: FakeMessage) => h.slack.messages(CHANNEL).find((m) => m.ts === prompt.ts)!;

async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe('a Connect prompt', () => {
  it('is replaced by the account it linked, once the person is linked', async () => {
    const pia = await newcomer('U0PIA', 'Pia');
    const prompt = await promptFor(pia.slackId);
    expect(prompt.ephemeralFor).toBe('U0PIA');
    const url = connectButtonUrl(prompt.blocks);
    await clickConnect(pia.slackId, prompt);
    // The click alone changes nothing: the person has not linked yet.
    expect(blocksText(now(prompt).blocks)).toContain('Connect your Splitwise account');

    const done = await consentDance(h, url, { email: pia.email, slackId: pia.slackId });
    expect(done.page.status).toBe(200);
    await eventually(() =>
      expect(now(prompt).text).toBe(':white_check_mark: Connected as *Pia Vale*.'),
    );
    expect(JSON.stringify(now(prompt).blocks)).not.toContain(ACTIONS.connect);
    expect(now(prompt).ephemeralFor).toBe('U0PIA');
  });

  it('is replaced at once when the click reaches the app after the link was made', async () => {
    const rex = await newcomer('U0REX', 'Rex');
    const prompt = await promptFor(rex.slackId);
    const url = connectButtonUrl(prompt.blocks);
    expect(
      (await consentDance(h, url, { email: rex.email, slackId: rex.slackId })).page.status,
    ).toBe(200);
    expect(JSON.stringify(now(prompt).blocks)).toContain(ACTIONS.connect);
    await clickConnect(rex.slackId, prompt);
    await eventually(() =>
      expect(now(prompt).text).toBe(':white_check_mark: Connected as *Rex Vale*.'),
    );
  });

  it('speaks the person’s language, on the pages and in the line that replaces it', async () => {
    const ute = await newcomer('U0UTE', 'Ute', 'de-DE');
    const prompt = await promptFor(ute.slackId);
    expect(blocksText(prompt.blocks)).toContain('Verbinde dein Splitwise-Konto mit Slack.');
    await clickConnect(ute.slackId, prompt);
    const url = connectButtonUrl(prompt.blocks);
    const done = await consentDance(h, url, { email: ute.email, slackId: ute.slackId });
    expect(done.page.body).toContain('<html lang="de">');
    expect(done.page.body).toContain('Verbunden als Ute Vale');
    expect(done.page.body).toContain(
      'Dein Slack-Konto ist jetzt mit deinem Splitwise-Konto verbunden.',
    );
    await eventually(() =>
      expect(now(prompt).text).toBe(':white_check_mark: Verbunden als *Ute Vale*.'),
    );
    // The link is used up: opened again, it says so in German.
    const again = await fetch(h.local(url));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Dieser Link wurde schon verwendet');
  });

  it('leaves a Connect button on a message that says more alone, and keeps no one else’s click', async () => {
    const zoe = await newcomer('U0ZOE', 'Zoe');
    const prompt = await promptFor(zoe.slackId);
    const url = connectButtonUrl(prompt.blocks);
    const state = new URL(url).searchParams.get('state')!;
    // The prompt is Zoe's alone: a click said to be someone else's is not kept.
    await h.app.deps.linking.promptClicked(
      state,
      { team_id: 'T0001', user_id: 'U0PIA' },
      h.slack.responseUrl({ id: 'not-zoe' }),
    );
    // A Connect button in a message about more than connecting (a reminder's, in a DM).
    const ack = await h.sender.blockActions({
      user_id: zoe.slackId,
      channel_id: CHANNEL,
      response_url: h.slack.responseUrl({ id: 'reminder' }),
      message: { ts: '1.000001', text: 'A reminder' },
      actions: { action_id: ACTIONS.connect, block_id: 'reminder_actions', url },
    });
    expect(ack.status).toBe(200);
    const done = await consentDance(h, url, { email: zoe.email, slackId: zoe.slackId });
    expect(done.page.status).toBe(200);
    await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === zoe.slackId);
    expect(h.slack.responses.filter((p) => p.id === 'not-zoe' || p.id === 'reminder')).toEqual([]);
    // Zoe's own prompt was never clicked by her: nothing tells where it is, so it stays.
    expect(JSON.stringify(now(prompt).blocks)).toContain(ACTIONS.connect);
  });
});
