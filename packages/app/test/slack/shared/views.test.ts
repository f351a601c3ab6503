import { describe, expect, it } from 'vitest';
import { HELP_DETAILS, HELP_OVERVIEW, HELP_TOPICS } from '../../../src/core/command/index.js';
import {
  type BookedExpense,
  encodeExpenseRef,
  expenseMessage,
  parseExpenseRef,
  undoneMessage,
} from '../../../src/slack/booking/expense-message.js';
import { clip, LIMITS } from '../../../src/slack/kit/limits.js';
import { connectPrompt, errorNotice, helpMessage } from '../../../src/slack/shared/notices.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';

const en = await voiceFor({ locale: 'en-US' });

const lunch: BookedExpense = {
  id: 42,
  description: 'Lunch',
  cost: 4000,
  currency: 'EUR',
  date: '2026-11-20',
  payer: { slack: 'U001' },
  lines: [
    { who: { slack: 'U001' }, paid: 4000, owed: 2000 },
    { who: { slack: 'U002' }, paid: 0, owed: 2000 },
  ],
  group: null,
  split: 'equal',
  bookedBy: 'U001',
};

describe('expense message', () => {
  it('renders description, cost, date, payer, shares and Undo', () => {
    const m = expenseMessage(lunch, en);
    expect(m.text).toBe('<@U001> paid €40.00 for Lunch: <@U002> owes €20.00');
    expect(m.blocks).toEqual([
      {
        type: 'header',
        block_id: 'expense_header',
        text: { type: 'plain_text', text: 'Lunch · €40.00', emoji: true },
      },
      {
        type: 'section',
        block_id: 'expense_facts',
        fields: [
          { type: 'mrkdwn', text: '*Cost*\n€40.00' },
          { type: 'mrkdwn', text: '*Date*\nFri, Nov 20, 2026' },
          { type: 'mrkdwn', text: '*Paid by*\n<@U001>' },
          { type: 'mrkdwn', text: '*Split*\nsplit equally' },
        ],
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: "• <@U002> owes <@U001> *€20.00*\n• <@U001>'s own share: €20.00",
        },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: 'Booked by <@U001> · expense #42' }],
      },
      {
        type: 'actions',
        block_id: 'expense_actions',
        elements: [
          expect.objectContaining({
            type: 'button',
            action_id: 'expense_undo',
            value: '{"v":1,"e":42}',
          }),
          ...[
            'expense_edit',
            'expense_delete',
            'expense_comment',
            'expense_details',
            'expense_duplicate',
          ].map((action_id) =>
            expect.objectContaining({ type: 'button', action_id, value: '{"v":1,"e":42}' }),
          ),
        ],
      },
    ]);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('escapes markup in descriptions and names, and shows the group', () => {
    const m = expenseMessage(
      {
        ...lunch,
        description: 'Fish & <chips>',
        group: 'Flat <3',
        lines: [...lunch.lines, { who: { name: 'Zoë <Z>' }, paid: 0, owed: 0 }],
      },
      en,
    );
    expect(m.text).toBe(
      '<@U001> paid €40.00 for Fish &amp; &lt;chips&gt;: <@U002> owes €20.00 (in Flat &lt;3)',
    );
    expect(JSON.stringify(m.blocks)).toContain('*Group*\\nFlat &lt;3');
  });

  it('stays within Slack limits with hundreds of people and a huge description', () => {
    const lines = Array.from({ length: 400 }, (_, i) => ({
      who: { name: `Person number ${i} with a rather long name`.repeat(3) },
      paid: 0,
      owed: 10,
    }));
    const m = expenseMessage({ ...lunch, description: 'x'.repeat(5000), lines, cost: 4000 }, en);
    expect(m.blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
    expect(m.text.length).toBeLessThanOrEqual(LIMITS.fallbackText);
  });

  it('formats zero-decimal currencies and dates without shifting the day', () => {
    const m = expenseMessage({ ...lunch, currency: 'JPY', cost: 1200, lines: [] }, en);
    expect(m.blocks[0]).toMatchObject({ text: { text: 'Lunch · ¥1,200' } });
    expect(en.date('2026-01-01')).toBe('Thu, Jan 1, 2026');
  });

  it('replaces the message once undone, with only Restore, which takes the Undo back', () => {
    const m = undoneMessage({ expenseId: 42, undoneBy: 'U002', what: 'Lunch · €40.00' }, en);
    expect(m.text).toBe('Undone by <@U002>: Lunch · €40.00');
    const actions = m.blocks.filter((b) => b.type === 'actions');
    expect(actions).toEqual([
      expect.objectContaining({
        elements: [
          expect.objectContaining({ action_id: 'expense_restore', value: '{"v":1,"e":42}' }),
        ],
      }),
    ]);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('promises nobody in the channel a delete that would be refused', () => {
    const m = expenseMessage(lunch, en);
    const buttons = m.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
    const of = (id: string) => buttons.find((e) => 'action_id' in e && e.action_id === id);
    // Only the booker may Undo: no dialog shown to everyone says it deletes; others hear why not.
    expect(of('expense_undo')).not.toHaveProperty('confirm');
    // Only people on the expense may Delete: the dialog everyone sees says so.
    expect(of('expense_delete')).toMatchObject({
      confirm: {
        text: {
          text: 'If you\'re on this expense, this deletes "Lunch" (€40.00) for everyone on it, and Restore brings it back. If you\'re not, nothing changes.',
        },
      },
    });
  });
});

describe('Undo button value', () => {
  it('round-trips and refuses anything else', () => {
    expect(parseExpenseRef(encodeExpenseRef(7))).toEqual({ v: 1, e: 7 });
    for (const bad of [
      '7',
      '12-34',
      '{"v":2,"e":7}',
      '{"v":1,"e":-1}',
      '{"v":1,"e":1.5}',
      '',
      undefined,
    ]) {
      expect(parseExpenseRef(bad)).toBeUndefined();
    }
  });
});

describe('notices', () => {
  it('carries a Connect link button and says what will happen next', async () => {
    const m = connectPrompt(await voiceFor({}), {
      url: 'http://x/oauth/start?state=s',
      reason: 'first_time',
      pendingText: '40 lunch',
    });
    expect(JSON.stringify(m.blocks)).toContain('"url":"http://x/oauth/start?state=s"');
    expect(JSON.stringify(m.blocks)).toContain("I'll carry out `/split 40 lunch`");
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('gives an error with an example that works', () => {
    const m = errorNotice(en, 'Who shared it?', '/split 40 lunch @ann');
    expect(m.text).toBe('Who shared it? For example: /split 40 lunch @someone');
  });

  it('lists every help example within the limits', () => {
    for (const topic of [null, ...HELP_TOPICS]) {
      const m = helpMessage(en, { topic });
      const text = JSON.stringify(m.blocks);
      const lines = topic === null ? HELP_OVERVIEW : HELP_DETAILS[topic];
      for (const l of lines) {
        // With nobody to name, the stand-ins become placeholders, in order of appearance.
        const seen: string[] = [];
        const named = l.example.replace(/@(?:ann|bob|cho)\b/g, (standIn) => {
          if (!seen.includes(standIn)) seen.push(standIn);
          return ['@someone', '@someone-else', '@a-third-person'][seen.indexOf(standIn)]!;
        });
        expect(text).toContain(named.replace(/"/g, '\\"'));
      }
      expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
    }
  });

  it('clips with an ellipsis', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
  });

  it('never leaves half of an entity, a fence or a character at the cut', () => {
    expect(clip('fish &amp; chips', 9)).toBe('fish …');
    expect(clip('a &lt;b&gt;', 5)).toBe('a …');
    expect(clip('x\u200b*\u200by', 4)).toBe('x…');
    expect(clip('x\u200b*\u200by', 3)).toBe('x…');
    expect(clip('ab🍕cd', 4)).toBe('ab…');
    expect(clip('fish &amp; chips', 12)).toBe('fish &amp; …');
  });
});
