/**
 * App Home's latest activity in the reader's words: every type the app knows, written from its
 * expense, group or person, by value in English and German (and the payment forms in French and
 * Japanese); a type it does not know keeps the service's text. And the reading behind it: at
 * most MAX_READS expenses per publish, each read once, names from what the tab already read.
 */
import { describe, expect, it } from 'vitest';
import type { Expense, Friend, Group, Notification } from '../../../src/service/index.js';
import {
  type ActivityEntry,
  MAX_READS,
  readActivity,
  type Someone,
} from '../../../src/slack/home/activity.js';
import { entryText } from '../../../src/slack/home/activity-view.js';
import { HOSTILE, rawIn, spaced, voices } from '../../support/voice-support.js';

const at = '2026-11-20T10:00:00Z';
const ann = { me: false as const, name: 'Ann Lee' };
const me = { me: true as const };
const lunch = { description: 'Lunch', cost: 4000, currency: 'EUR', mine: 2000 };
const owing = { description: 'Taxi', cost: 3000, currency: 'USD', mine: -1500 };

/** Each entry's line in English and in German, spaces as plain spaces. */
function lines(entries: ActivityEntry[]) {
  return {
    en: entries.map((e) => spaced(entryText(e, voices.en))),
    de: entries.map((e) => spaced(entryText(e, voices.de))),
  };
}

describe('an expense in the latest activity', () => {
  it('says who did what to it, what it cost and what the reader gets or owes', () => {
    const { en, de } = lines([
      { kind: 'expense', what: 'added', who: ann, expense: lunch, at },
      { kind: 'expense', what: 'added', who: me, expense: owing, at },
      { kind: 'expense', what: 'updated', who: ann, expense: lunch, at },
      { kind: 'expense', what: 'deleted', who: ann, expense: { ...lunch, mine: 0 }, at },
      { kind: 'expense', what: 'restored', who: me, expense: lunch, at },
      { kind: 'expense', what: 'commented', who: ann, expense: lunch, at },
      { kind: 'expense', what: 'added', who: ann, expense: undefined, at },
      { kind: 'expense', what: 'added', who: { me: false, name: undefined }, expense: lunch, at },
    ]);
    expect(en).toEqual([
      '*Ann Lee* added *Lunch* (€40.00) — you are owed €20.00',
      'You added *Taxi* ($30.00) — you owe $15.00',
      '*Ann Lee* updated *Lunch* (€40.00) — you are owed €20.00',
      '*Ann Lee* deleted *Lunch* (€40.00)',
      'You restored *Lunch* (€40.00) — you are owed €20.00',
      '*Ann Lee* commented on *Lunch* (€40.00)',
      '*Ann Lee* added an expense',
      'Someone added *Lunch* (€40.00) — you are owed €20.00',
    ]);
    expect(de).toEqual([
      '*Ann Lee* hat *Lunch* (40,00 €) hinzugefügt — du bekommst 20,00 €',
      'Du hast *Taxi* (30,00 $) hinzugefügt — du schuldest 15,00 $',
      '*Ann Lee* hat *Lunch* (40,00 €) geändert — du bekommst 20,00 €',
      '*Ann Lee* hat *Lunch* (40,00 €) gelöscht',
      'Du hast *Lunch* (40,00 €) wiederhergestellt — du bekommst 20,00 €',
      '*Ann Lee* hat *Lunch* (40,00 €) kommentiert',
      '*Ann Lee* hat eine Ausgabe hinzugefügt',
      'Jemand hat *Lunch* (40,00 €) hinzugefügt — du bekommst 20,00 €',
    ]);
  });

  it('reads a payment as who paid whom', () => {
    const ben = { me: false as const, name: 'Ben Ray' };
    const payment = (from: typeof me | typeof ben, to: typeof me | typeof ben) => ({
      description: 'Payment',
      cost: 600,
      currency: 'EUR',
      mine: 0,
      payment: { from, to },
    });
    const entries: ActivityEntry[] = [
      { kind: 'expense', what: 'added', who: me, expense: payment(me, ben), at },
      { kind: 'expense', what: 'added', who: ann, expense: payment(ben, me), at },
      { kind: 'expense', what: 'added', who: ann, expense: payment(ben, ann), at },
      { kind: 'expense', what: 'deleted', who: ann, expense: payment(me, ben), at },
    ];
    const { en, de } = lines(entries);
    expect(en).toEqual([
      'You paid *Ben Ray* €6.00',
      '*Ben Ray* paid you €6.00',
      '*Ben Ray* paid *Ann Lee* €6.00',
      '*Ann Lee* deleted a payment (You paid *Ben Ray* €6.00)',
    ]);
    expect(de).toEqual([
      'Du hast *Ben Ray* 6,00 € gezahlt',
      '*Ben Ray* hat dir 6,00 € gezahlt',
      '*Ben Ray* hat *Ann Lee* 6,00 € gezahlt',
      '*Ann Lee* hat eine Zahlung (Du hast *Ben Ray* 6,00 € gezahlt) gelöscht',
    ]);
    expect(spaced(entryText(entries[1]!, voices.fr))).toBe('*Ben Ray* t’a payé 6,00 €');
    expect(entryText(entries[0]!, voices.ja)).toBe('あなたが *Ben Ray* に €6.00 を支払いました');
  });
});

describe('a group or a friend in the latest activity', () => {
  it('says who did what to which group, and about friends', () => {
    const group = (what: Extract<ActivityEntry, { kind: 'group' }>['what'], who: Someone = ann) =>
      ({ kind: 'group', what, who, group: 'Trip', at }) as const;
    const { en, de } = lines([
      group('created', me),
      group('added'),
      group('removed'),
      { kind: 'group', what: 'left', who: ann, group: undefined, at },
      { kind: 'group', what: 'left', who: me, group: undefined, at },
      { kind: 'group', what: 'deleted', who: ann, group: undefined, at },
      group('restored'),
      group('settings'),
      { kind: 'friend', what: 'added', who: ann, at },
      { kind: 'friend', what: 'removed', who: me, at },
    ]);
    expect(en).toEqual([
      'You created the group *Trip*',
      '*Ann Lee* added people to the group *Trip*',
      '*Ann Lee* removed someone from the group *Trip*',
      '*Ann Lee* removed you from a group',
      'You left a group',
      '*Ann Lee* deleted a group',
      '*Ann Lee* restored the group *Trip*',
      '*Ann Lee* changed the settings of the group *Trip*',
      '*Ann Lee* added you as a friend',
      'You removed a friend',
    ]);
    expect(de).toEqual([
      'Du hast die Gruppe *Trip* erstellt',
      '*Ann Lee* hat Leute zu der Gruppe *Trip* hinzugefügt',
      '*Ann Lee* hat jemanden aus der Gruppe *Trip* entfernt',
      '*Ann Lee* hat dich aus einer Gruppe entfernt',
      'Du hast eine Gruppe verlassen',
      '*Ann Lee* hat eine Gruppe gelöscht',
      '*Ann Lee* hat die Gruppe *Trip* wiederhergestellt',
      '*Ann Lee* hat die Einstellungen der Gruppe *Trip* geändert',
      '*Ann Lee* hat dich als Freund hinzugefügt',
      'Du hast jemanden als Freund entfernt',
    ]);
  });

  it('keeps the service’s text only for a type the app does not know', () => {
    const news: ActivityEntry = {
      kind: 'service',
      html: '<strong>Splitwise</strong> has news',
      at,
    };
    expect(entryText(news, voices.de)).toBe('*Splitwise* has news');
  });

  it('escapes every name and description, in every language', () => {
    const hostile = { me: false as const, name: HOSTILE };
    for (const voice of Object.values(voices)) {
      const texts = [
        {
          kind: 'expense',
          what: 'added',
          who: hostile,
          expense: { ...lunch, description: HOSTILE },
          at,
        },
        { kind: 'group', what: 'created', who: hostile, group: HOSTILE, at },
        {
          kind: 'expense',
          what: 'added',
          who: hostile,
          expense: { ...lunch, payment: { from: hostile, to: me } },
          at,
        },
      ].map((e) => entryText(e as ActivityEntry, voice));
      expect(rawIn(texts)).toEqual([]);
    }
  });
});

/** A notification of `type` by `by`, about an expense or a group. */
function notification(
  type: number,
  by: number,
  source: { type: string; id: number },
  created_at = at,
): Notification {
  return { id: type * 1000 + source.id, type, created_at, created_by: by, source, content: '' };
}

function expense(id: number, users: Array<[number, string, string, string]>): Expense {
  return {
    id,
    group_id: null,
    description: `Expense ${id}`,
    payment: false,
    cost: '30.00',
    currency_code: 'EUR',
    repayments: [],
    date: at,
    created_at: at,
    updated_at: at,
    users: users.map(([user_id, first_name, paid_share, owed_share]) => ({
      user_id,
      user: { id: user_id, first_name },
      paid_share,
      owed_share,
      net_balance: '0',
    })),
  };
}

describe('reading the latest activity', () => {
  const friends = [
    { id: 2, first_name: 'Ann', last_name: 'Lee', balance: [], groups: [] },
  ] as Friend[];
  const groups = [
    {
      id: 7,
      name: 'Trip',
      created_at: '2026-11-20T09:59:30Z',
      members: [{ id: 3, first_name: 'Cho', last_name: null, balance: [] }],
      original_debts: [],
      simplified_debts: [],
    },
  ] as Group[];

  it('reads each expense once, at most MAX_READS, and names people from what it has', async () => {
    const reads: number[] = [];
    const notifications = [
      notification(0, 2, { type: 'Expense', id: 11 }),
      notification(3, 4, { type: 'Expense', id: 11 }),
      ...Array.from({ length: 8 }, (_, i) => notification(1, 1, { type: 'Expense', id: 20 + i })),
    ];
    const entries = await readActivity(notifications, {
      me: 1,
      friends,
      groups,
      readExpense: async (id) => {
        reads.push(id);
        return expense(id, [
          [1, 'Me', '30.00', '10.00'],
          [4, 'Dee', '0', '20.00'],
        ]);
      },
    });
    expect(reads).toEqual([11, 20, 21, 22, 23]);
    expect(reads).toHaveLength(MAX_READS);
    expect(entries[0]).toEqual({
      kind: 'expense',
      what: 'added',
      who: { me: false, name: 'Ann Lee' },
      expense: {
        description: 'Expense 11',
        cost: 3000,
        currency: 'EUR',
        mine: 2000,
        payment: undefined,
      },
      at,
    });
    // Dee is named from the expense read; the expenses past the cap are unread.
    expect(entries[1]).toMatchObject({ what: 'commented', who: { me: false, name: 'Dee' } });
    expect(entries[2]).toMatchObject({ who: { me: true }, expense: { description: 'Expense 20' } });
    expect(entries.slice(-4).map((e) => (e as { expense?: unknown }).expense)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('tells a group made from one joined, and one the reader left; keeps unknown types', async () => {
    const entries = await readActivity(
      [
        notification(4, 3, { type: 'Group', id: 7 }),
        notification(4, 3, { type: 'Group', id: 7 }, '2026-11-25T10:00:00Z'),
        notification(5, 3, { type: 'Group', id: 9 }),
        notification(6, 2, { type: 'Group', id: 9 }),
        notification(8, 2, { type: 'User', id: 2 }),
        { ...notification(10, 5, { type: 'News', id: 1 }), content: '<strong>News</strong>' },
      ],
      { me: 1, friends, groups, readExpense: () => Promise.reject(new Error('no reads')) },
    );
    expect(entries.map((e) => ('what' in e ? `${e.kind} ${e.what}` : e.kind))).toEqual([
      'group created',
      'group added',
      'group left',
      'group deleted',
      'friend added',
      'service',
    ]);
    expect(entries[0]).toMatchObject({ who: { me: false, name: 'Cho' }, group: 'Trip' });
    expect(entries[2]).toMatchObject({ group: undefined });
    expect(entries[5]).toEqual({ kind: 'service', html: '<strong>News</strong>', at });
  });

  it('does not tell the reader they left a group when their groups could not be read', async () => {
    const [entry] = await readActivity([notification(5, 3, { type: 'Group', id: 9 })], {
      me: 1,
      friends,
      groups: undefined,
      readExpense: () => Promise.reject(new Error('no reads')),
    });
    expect(entry).toMatchObject({ kind: 'group', what: 'removed', group: undefined });
  });

  it('says less when an expense cannot be read, and nothing in the service’s words', async () => {
    const [entry] = await readActivity([notification(0, 2, { type: 'Expense', id: 5 })], {
      me: 1,
      friends,
      groups: undefined,
      readExpense: () => Promise.reject(new Error('503')),
    });
    expect(entry).toEqual({
      kind: 'expense',
      what: 'added',
      who: { me: false, name: 'Ann Lee' },
      expense: undefined,
      at,
    });
  });
});
