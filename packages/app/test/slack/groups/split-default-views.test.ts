import { describe, expect, it } from 'vitest';
import {
  defaultAsSplit,
  defaultParts,
  defaultShort,
  leftTheGroup,
  leftTheGroupText,
  withDefaultNote,
} from '../../../src/slack/booking/split-default.js';
import { BLOCKS } from '../../../src/slack/ids.js';
import type { SplitDefault } from '../../../src/store/index.js';
import { voices } from '../../support/voice-support.js';

const { en, de } = voices;

const rent: SplitDefault = {
  group_id: 7,
  group_name: 'Roommates',
  kind: 'percent',
  parts: [
    { slack_id: 'U0ANN', service_user_id: 1, value: 6000 },
    { slack_id: 'U0BOB', service_user_id: 2, value: 4000 },
  ],
  set_by: 'U0ANN',
  set_at: '2026-11-21T09:00:00.000Z',
};
const trip: SplitDefault = {
  ...rent,
  kind: 'shares',
  parts: [
    { slack_id: 'U0ANN', service_user_id: 1, value: 2 },
    { slack_id: 'U0BOB', service_user_id: 2, value: 1 },
  ],
};

describe('a default split in messages', () => {
  it('is quoted short and in full', () => {
    expect(defaultShort(en, rent)).toBe('60/40');
    expect(defaultShort(en, { ...rent, parts: [{ ...rent.parts[0]!, value: 3333 }] })).toBe(
      '33.33',
    );
    expect(defaultShort(en, trip)).toBe('2:1 shares');
    expect(defaultShort(de, trip)).toBe('2:1 Anteile');
    expect(defaultShort(de, { ...rent, parts: [{ ...rent.parts[0]!, value: 3333 }] })).toBe(
      '33,33',
    );
    expect(defaultParts(en, rent)).toBe('<@U0ANN> 60%, <@U0BOB> 40%');
    expect(defaultParts(de, rent)).toBe('<@U0ANN> 60\u00a0%, <@U0BOB> 40\u00a0%');
    expect(defaultParts(en, { ...rent, parts: [{ ...rent.parts[0]!, value: 3333 }] })).toBe(
      '<@U0ANN> 33.33%',
    );
    expect(defaultParts(en, trip)).toBe('<@U0ANN> 2x, <@U0BOB> 1x');
  });

  it('becomes participants and a split in its own order', () => {
    expect(defaultAsSplit(rent)).toEqual({
      participants: ['U0ANN', 'U0BOB'],
      split: {
        kind: 'percent',
        percents: [
          { id: 'U0ANN', basisPoints: 6000 },
          { id: 'U0BOB', basisPoints: 4000 },
        ],
      },
    });
    expect(defaultAsSplit(trip).split).toEqual({
      kind: 'shares',
      shares: [
        { id: 'U0ANN', shares: 2 },
        { id: 'U0BOB', shares: 1 },
      ],
    });
  });

  it('names who has left the group', () => {
    expect(leftTheGroup(rent, [{ id: 1 }, { id: 3 }]).map((p) => p.slack_id)).toEqual(['U0BOB']);
    expect(leftTheGroup(rent, [{ id: 1 }, { id: 2 }])).toEqual([]);
  });

  it('adds its note above the buttons of a booked expense', () => {
    const actions = { type: 'actions' as const, block_id: BLOCKS.expenseActions, elements: [] };
    const header = { type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'rent' } };
    const message = { text: 'rent', blocks: [header, actions] };
    expect(withDefaultNote(en, message, rent, 'Roommates')).toEqual({
      text: 'rent Split by the default of *Roommates* (60/40).',
      blocks: [
        header,
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: 'Split by the default of *Roommates* (60/40).' }],
        },
        actions,
      ],
    });
    expect(withDefaultNote(de, message, trip, 'WG *&* Co').text).toBe(
      'rent Nach der Standardaufteilung von *WG \u200b*\u200b&amp;\u200b*\u200b Co* geteilt (2:1 Anteile).',
    );
  });

  it('tells who left the group, in the reader’s words, with the group as written', () => {
    const gone = rent.parts.slice(1);
    expect(leftTheGroupText(en, { ...rent, group_name: '<!here>' }, gone)).toBe(
      '<@U0BOB> is in the default split of *&lt;!here&gt;* but no longer in the group, so nothing was booked. Mention the people, and set the default split again or clear it: `/split group default &lt;!here&gt; clear`.',
    );
    expect(leftTheGroupText(de, rent, rent.parts)).toContain(
      '<@U0ANN> und <@U0BOB> stehen in der Standardaufteilung von *Roommates*, sind aber',
    );
  });
});
