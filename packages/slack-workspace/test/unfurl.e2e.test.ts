// Link unfurling as Slack does it for apps: a person's link to one of the manifest's unfurl
// domains sends link_shared; chat.unfurl attaches Block Kit previews to those links only; a
// button in a preview sends block_actions naming the unfurl.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unfurlId } from '../src/index.js';
import { BOT_EVENTS, BOT_SCOPES, type EventRig, manifestText, startEventRig } from './event-rig.js';

let rig: EventRig;
beforeEach(async () => {
  rig = await startEventRig();
});
afterEach(() => rig.close());

const GROUP = 'https://secure.splitwise.com/#/groups/7';
const EXPENSE = 'https://splitwise.com/expenses/42?x=1&y=2';
const preview = (text: string) => ({
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
});

async function share(text: string, as = 'U0ANN') {
  await rig.ws.act.message({ as, channel: 'C0001', text });
  return rig.ws.messages('C0001').at(-1)!;
}

describe('link_shared', () => {
  it('is sent for links to the unfurl domains (subdomains too), once each, in order', async () => {
    const posted = await share(
      `See <${GROUP}> and ${EXPENSE.replace(/&/g, '&amp;')}, not <https://example.com/x|this> or <${GROUP}>`,
    );
    expect(rig.events('link_shared')).toEqual([
      {
        type: 'link_shared',
        channel: 'C0001',
        is_bot_user_member: true,
        user: 'U0ANN',
        message_ts: posted.ts,
        unfurl_id: unfurlId('C0001', posted.ts),
        source: 'conversations_history',
        links: [
          { domain: 'splitwise.com', url: GROUP },
          { domain: 'splitwise.com', url: EXPENSE },
        ],
        event_ts: expect.stringMatching(/^\d+\.\d{6}$/),
      },
    ]);
  });

  it('names the thread, and is not sent without a matching link, subscription or links:read', async () => {
    const parent = await share('plans');
    await rig.ws.act.message({
      as: 'U0BOB',
      channel: 'C0001',
      text: `<${GROUP}>`,
      thread_ts: parent.ts,
    });
    expect(rig.events('link_shared')).toMatchObject([{ thread_ts: parent.ts }]);
    await share('<https://notsplitwise.com/x> and <https://splitwise.com.evil.test/y>');
    expect(rig.events('link_shared')).toHaveLength(1);
    await rig.close();

    rig = await startEventRig(
      manifestText({ events: BOT_EVENTS.filter((e) => e !== 'link_shared') }),
    );
    await share(`<${GROUP}>`);
    expect(rig.events('link_shared')).toEqual([]);
    await rig.close();
    rig = await startEventRig(
      manifestText({ scopes: BOT_SCOPES.filter((s) => s !== 'links:read') }),
    );
    await share(`<${GROUP}>`);
    expect(rig.events('link_shared')).toEqual([]);
  });

  it('is not sent for the app’s own messages', async () => {
    await rig.api('chat.postMessage', { channel: 'C0001', text: `<${GROUP}>` });
    await rig.waitForEvents((e) => e.type === 'message');
    expect(rig.events('link_shared')).toEqual([]);
  });
});

describe('chat.unfurl', () => {
  it('attaches previews by channel and ts, or by unfurl_id and source; the page shows them', async () => {
    const posted = await share(`<${GROUP}> <${EXPENSE.replace(/&/g, '&amp;')}>`);
    expect(
      await rig.api('chat.unfurl', {
        channel: 'C0001',
        ts: posted.ts,
        unfurls: JSON.stringify({ [EXPENSE]: preview('*Dinner* 60.00 EUR') }),
      }),
    ).toEqual({ ok: true });
    expect(
      await rig.api('chat.unfurl', {
        unfurl_id: unfurlId('C0001', posted.ts),
        source: 'conversations_history',
        unfurls: { [GROUP]: { title: 'Lisbon trip', text: 'You owe 20.00 EUR' } },
      }),
    ).toEqual({ ok: true });
    expect(rig.ws.pageState('U0BOB').messages.C0001!.at(-1)!.unfurls).toEqual([
      { url: GROUP, title: 'Lisbon trip', text: 'You owe 20.00 EUR' },
      { url: EXPENSE, blocks: preview('*Dinner* 60.00 EUR').blocks },
    ]);
    // A second call for a link replaces its preview.
    await rig.api('chat.unfurl', {
      channel: 'C0001',
      ts: posted.ts,
      unfurls: { [EXPENSE]: preview('*Dinner* 66.00 EUR') },
    });
    const replies = await rig.api('conversations.replies', { channel: 'C0001', ts: posted.ts });
    expect((replies.messages as { attachments: unknown[] }[])[0]!.attachments).toEqual([
      {
        title: 'Lisbon trip',
        text: 'You owe 20.00 EUR',
        id: 1,
        app_unfurl_url: GROUP,
        is_app_unfurl: true,
      },
      {
        id: 2,
        blocks: preview('*Dinner* 66.00 EUR').blocks,
        app_unfurl_url: EXPENSE,
        is_app_unfurl: true,
      },
    ]);
  });

  it('refuses what Slack refuses', async () => {
    const posted = await share(`<${GROUP}> <https://example.com/a>`);
    const at = { channel: 'C0001', ts: posted.ts };
    const unfurl = (args: Record<string, unknown>) => rig.api('chat.unfurl', args);
    const error = async (args: Record<string, unknown>) => (await unfurl(args)).error;
    expect(await error({ ...at, unfurls: { 'https://splitwise.com/other': preview('x') } })).toBe(
      'cannot_unfurl_message',
    );
    expect(await error({ ...at, unfurls: { 'https://example.com/a': preview('x') } })).toBe(
      'cannot_unfurl_url',
    );
    expect(await error({ ...at, unfurls: '{not json' })).toBe('invalid_unfurls_format');
    expect(await error({ ...at, unfurls: '[1]' })).toBe('invalid_unfurls_format');
    expect(await error({ ...at })).toBe('missing_unfurls');
    expect(await error({ ...at, unfurls: { [GROUP]: 'text' } })).toBe('cannot_parse_attachment');
    expect(await error({ channel: 'C0001', unfurls: {} })).toBe('missing_ts');
    expect(await error({ ts: posted.ts, unfurls: {} })).toBe('missing_channel');
    expect(await error({ channel: 'C0001', ts: '1.000001', unfurls: {} })).toBe(
      'cannot_find_message',
    );
    expect(await error({ channel: 'C0NOPE', ts: posted.ts, unfurls: {} })).toBe(
      'cannot_find_channel',
    );
    expect(
      await error({ unfurl_id: 'C0001.1.2.abc', source: 'conversations_history', unfurls: {} }),
    ).toBe('cannot_find_message');
    expect(await error({ unfurl_id: unfurlId('C0001', posted.ts), unfurls: {} })).toBe(
      'invalid_arguments',
    );
    const bad = await unfurl({
      ...at,
      unfurls: { [GROUP]: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '' } }] } },
    });
    expect(bad).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(rig.ws.messages('C0001').at(-1)!.unfurls).toBeUndefined();
    await rig.close();

    rig = await startEventRig(
      manifestText({ scopes: BOT_SCOPES.filter((s) => s !== 'links:write') }),
    );
    const again = await share(`<${GROUP}>`);
    expect(
      await rig.api('chat.unfurl', {
        channel: 'C0001',
        ts: again.ts,
        unfurls: { [GROUP]: preview('x') },
      }),
    ).toMatchObject({ ok: false, error: 'missing_scope', needed: 'links:write' });
  });

  it('asks the link’s author alone to connect (user_auth_*), once per message', async () => {
    const parent = await share('plans');
    await rig.ws.act.message({
      as: 'U0ANN',
      channel: 'C0001',
      text: `<${GROUP}>`,
      thread_ts: parent.ts,
    });
    const posted = rig.ws.messages('C0001').at(-1)!;
    const connect = 'https://app.test/connect?state=s1';
    expect(
      await rig.api('chat.unfurl', {
        channel: 'C0001',
        ts: posted.ts,
        unfurls: {},
        user_auth_required: true,
        user_auth_url: connect,
        user_auth_message: `Connect first: <${connect}|connect>`,
      }),
    ).toEqual({ ok: true });
    const prompt = (user: string) =>
      rig.ws.pageState(user).messages.C0001!.filter((m) => m.ephemeral);
    expect(prompt('U0ANN')).toMatchObject([
      {
        thread_ts: parent.ts,
        sender: { is_bot: true },
        text: `Connect first: <${connect}|connect>`,
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: `Connect first: <${connect}|connect>` },
          },
        ],
      },
    ]);
    expect(prompt('U0BOB')).toEqual([]);
    expect(rig.ws.pageState('U0BOB').messages.C0001!.at(-1)).not.toHaveProperty('unfurls');
    // The app's own messages list nothing of it either.
    const history = await rig.api('conversations.replies', { channel: 'C0001', ts: parent.ts });
    expect(JSON.stringify(history)).not.toContain('Connect first');

    // Asked again for the same message (a form's `1`, the URL alone): the prompt is replaced.
    await rig.api('chat.unfurl', {
      unfurl_id: unfurlId('C0001', posted.ts),
      source: 'conversations_history',
      unfurls: '{}',
      user_auth_required: '1',
      user_auth_url: connect,
    });
    expect(prompt('U0ANN')).toMatchObject([
      { text: `Split can show previews of these links once you connect: <${connect}|connect>.` },
    ]);
  });

  it('refuses a prompt Slack refuses, and shows none unless asked', async () => {
    const posted = await share(`<${GROUP}>`);
    const at = { channel: 'C0001', ts: posted.ts, unfurls: {} };
    expect(
      await rig.api('chat.unfurl', { ...at, user_auth_url: 'javascript:alert(1)' }),
    ).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(
      await rig.api('chat.unfurl', {
        ...at,
        user_auth_blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '' } }],
      }),
    ).toMatchObject({ ok: false, error: 'invalid_blocks' });
    await rig.api('chat.unfurl', { ...at, user_auth_required: false });
    expect(rig.ws.messages('C0001').filter((m) => m.ephemeralFor)).toEqual([]);
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'Connect, please' } }];
    await rig.api('chat.unfurl', { ...at, user_auth_blocks: JSON.stringify(blocks) });
    expect(rig.ws.messages('C0001').filter((m) => m.ephemeralFor)).toMatchObject([
      { ephemeralFor: 'U0ANN', blocks },
    ]);
  });

  it('sends a button in a preview as block_actions naming the unfurl', async () => {
    const posted = await share(`<${GROUP}>`);
    const blocks = [
      {
        type: 'actions',
        block_id: 'group',
        elements: [
          { type: 'button', action_id: 'open_group', text: { type: 'plain_text', text: 'Open' } },
        ],
      },
    ];
    await rig.api('chat.unfurl', {
      channel: 'C0001',
      ts: posted.ts,
      unfurls: { [GROUP]: { blocks } },
    });
    await rig.ws.act.action({
      as: 'U0BOB',
      container: { type: 'message', channel: 'C0001', ts: posted.ts, unfurl_url: GROUP },
      action: { type: 'button', action_id: 'open_group', block_id: 'group' },
    });
    const payload = rig.app.received.at(-1)!.payload;
    expect(payload).toMatchObject({
      type: 'block_actions',
      user: { id: 'U0BOB' },
      channel: { id: 'C0001' },
      container: {
        type: 'message_attachment',
        message_ts: posted.ts,
        attachment_id: 1,
        channel_id: 'C0001',
        is_ephemeral: false,
        is_app_unfurl: true,
        app_unfurl_url: GROUP,
      },
      app_unfurl: { id: 1, blocks, app_unfurl_url: GROUP, is_app_unfurl: true },
      actions: [{ action_id: 'open_group', block_id: 'group' }],
    });
    expect(payload).not.toHaveProperty('message');
    await expect(
      rig.ws.act.action({
        as: 'U0BOB',
        container: {
          type: 'message',
          channel: 'C0001',
          ts: posted.ts,
          unfurl_url: 'https://x.test/',
        },
        action: { type: 'button', action_id: 'open_group', block_id: 'group' },
      }),
    ).rejects.toThrow('That link preview is gone.');
  });
});
