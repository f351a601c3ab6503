import { describe, expect, it } from 'vitest';
import { LINKING_ACTIONS } from '../../../src/slack/ids.js';
import { linkedDm, parseUnlinkRef, unlinkedMessage } from '../../../src/slack/linking/views.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';

describe('the DM after linking', () => {
  it('names the linked account with its e-mail, and offers Unlink for that account', () => {
    const dm = linkedDm({ name: 'Ann Lee', email: 'ann@example.com', serviceUserId: 42 });
    expect(dm.text).toBe('Connected as Ann Lee');
    expect(dm.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: ':white_check_mark: Connected as *Ann Lee* (ann@example.com): your Slack account now books into this expense account. You can now use `/split` anywhere.',
      },
    });
    const actions = dm.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; value: string; style: string; confirm: unknown }[];
    };
    expect(actions.elements).toHaveLength(1);
    const unlink = actions.elements[0]!;
    expect(unlink.action_id).toBe(LINKING_ACTIONS.unlink);
    expect(unlink.style).toBe('danger');
    expect(unlink.confirm).toBeDefined();
    expect(parseUnlinkRef(unlink.value)).toEqual({ s: 42 });
    expect(blockKitErrors(dm.blocks, 'message')).toEqual([]);
  });

  it('escapes what the service named and says what comes next', () => {
    const dm = linkedDm({ name: '<b> & co', serviceUserId: 7, pendingText: '40 lunch' });
    expect(JSON.stringify(dm.blocks[0])).toContain('Connected as *&lt;b&gt; &amp; co*: your');
    expect(JSON.stringify(dm.blocks[1])).toContain('Now carrying out `/split 40 lunch`');
  });

  it('reads only the Unlink value it wrote', () => {
    expect(parseUnlinkRef('{"s":3}')).toEqual({ s: 3 });
    expect(parseUnlinkRef('{"s":"3"}')).toBeUndefined();
    expect(parseUnlinkRef('3')).toBeUndefined();
    expect(parseUnlinkRef(undefined)).toBeUndefined();
  });

  it('says what Unlink did', () => {
    expect(unlinkedMessage('Ann Lee').text).toBe('Unlinked Ann Lee');
    expect(blockKitErrors(unlinkedMessage('Ann Lee').blocks, 'message')).toEqual([]);
  });
});
