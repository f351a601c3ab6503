import { describe, expect, it } from 'vitest';
import {
  type FriendInput,
  friendBalance,
  type GroupInput,
  summarizeBalances,
  summarizeGroup,
} from '../../src/core/balances.js';

const ME = 1;
const friends: FriendInput[] = [
  {
    id: 2,
    first_name: 'Ann',
    last_name: 'Lee',
    balance: [
      { currency_code: 'USD', amount: '25.5' },
      { currency_code: 'EUR', amount: '-10.0' },
    ],
    groups: [
      { group_id: 0, balance: [{ currency_code: 'USD', amount: '5.5' }] },
      {
        group_id: 10,
        balance: [
          { currency_code: 'USD', amount: '20.0' },
          { currency_code: 'EUR', amount: '-10.0' },
        ],
      },
      { group_id: 11, balance: [] },
    ],
  },
  {
    id: 3,
    first_name: 'Bob',
    last_name: null,
    balance: [{ currency_code: 'USD', amount: '-4.25' }],
    groups: [{ group_id: 0, balance: [{ currency_code: 'USD', amount: '-4.25' }] }],
  },
  {
    id: 4,
    first_name: 'Cho',
    last_name: 'Park',
    balance: [
      { currency_code: 'JPY', amount: '1200.0' },
      { currency_code: 'USD', amount: '100.0' },
    ],
    groups: [],
  },
  {
    id: 5,
    first_name: 'Dee',
    last_name: 'Settled',
    balance: [{ currency_code: 'USD', amount: '0.0' }],
    groups: [],
  },
];

describe('summarizeBalances', () => {
  it('totals every currency and lists who owes me and whom I owe, largest first', () => {
    expect(summarizeBalances(friends, { preferredCurrency: 'USD' })).toEqual({
      totals: [
        { currency: 'USD', owedToMe: 12550, iOwe: 425, net: 12125 },
        { currency: 'EUR', owedToMe: 0, iOwe: 1000, net: -1000 },
        { currency: 'JPY', owedToMe: 1200, iOwe: 0, net: 1200 },
      ],
      owesMe: [
        { id: 4, name: 'Cho Park', currency: 'USD', amount: 10000 },
        { id: 2, name: 'Ann Lee', currency: 'USD', amount: 2550 },
        { id: 4, name: 'Cho Park', currency: 'JPY', amount: 1200 },
      ],
      iOwe: [
        { id: 3, name: 'Bob', currency: 'USD', amount: 425 },
        { id: 2, name: 'Ann Lee', currency: 'EUR', amount: 1000 },
      ],
      settled: false,
    });
  });

  it('orders currencies by code without a preference', () => {
    expect(summarizeBalances(friends).totals.map((t) => t.currency)).toEqual(['EUR', 'JPY', 'USD']);
  });

  it('says settled when nothing is owed in any currency', () => {
    expect(summarizeBalances([friends[3]!])).toEqual({
      totals: [],
      owesMe: [],
      iOwe: [],
      settled: true,
    });
    expect(summarizeBalances([])).toEqual({ totals: [], owesMe: [], iOwe: [], settled: true });
  });

  it('adds exactly, with no float drift, over many small amounts', () => {
    const many: FriendInput[] = Array.from({ length: 1000 }, (_, i) => ({
      id: 100 + i,
      first_name: `F${i}`,
      last_name: null,
      balance: [{ currency_code: 'USD', amount: '0.1' }],
      groups: [],
    }));
    expect(summarizeBalances(many).totals).toEqual([
      { currency: 'USD', owedToMe: 10000, iOwe: 0, net: 10000 },
    ]);
  });
});

describe('friendBalance', () => {
  it('breaks one friend down per group, naming the groups it knows, leaving zeros out', () => {
    expect(
      friendBalance(friends[0]!, new Map([[10, 'Trip']]), { preferredCurrency: 'USD' }),
    ).toEqual({
      id: 2,
      name: 'Ann Lee',
      total: [
        { currency: 'USD', amount: 2550 },
        { currency: 'EUR', amount: -1000 },
      ],
      groups: [
        { groupId: 0, groupName: null, balance: [{ currency: 'USD', amount: 550 }] },
        {
          groupId: 10,
          groupName: 'Trip',
          balance: [
            { currency: 'USD', amount: 2000 },
            { currency: 'EUR', amount: -1000 },
          ],
        },
      ],
    });
  });
});

describe('summarizeGroup', () => {
  const group: GroupInput = {
    id: 10843533,
    name: 'Trip',
    simplify_by_default: true,
    members: [
      {
        id: ME,
        first_name: 'Me',
        last_name: 'Myself',
        balance: [{ currency_code: 'SGD', amount: '-14.2' }],
      },
      {
        id: 2,
        first_name: 'Ann',
        last_name: null,
        balance: [{ currency_code: 'SGD', amount: '975.05' }],
      },
      {
        id: 3,
        first_name: 'Bob',
        last_name: null,
        balance: [{ currency_code: 'SGD', amount: '-960.85' }],
      },
      {
        id: 4,
        first_name: 'Cho',
        last_name: null,
        balance: [{ currency_code: 'SGD', amount: '0.0' }],
      },
    ],
    simplified_debts: [
      { from: ME, to: 2, amount: '14.2', currency_code: 'SGD' },
      { from: 3, to: 2, amount: '960.85', currency_code: 'SGD' },
    ],
    original_debts: [
      { from: ME, to: 3, amount: '5.0', currency_code: 'SGD' },
      { from: 3, to: 2, amount: '970.0', currency_code: 'SGD' },
    ],
  };
  const me = { id: ME, name: 'Me Myself' };
  const ann = { id: 2, name: 'Ann' };
  const bob = { id: 3, name: 'Bob' };

  it('shows the simplified debts when the group simplifies, and my part of them', () => {
    expect(summarizeGroup(group, ME)).toEqual({
      id: 10843533,
      name: 'Trip',
      simplified: true,
      myBalance: [{ currency: 'SGD', amount: -1420 }],
      debts: [
        { from: bob, to: ann, currency: 'SGD', amount: 96085 },
        { from: me, to: ann, currency: 'SGD', amount: 1420 },
      ],
      owesMe: [],
      iOwe: [{ from: me, to: ann, currency: 'SGD', amount: 1420 }],
      members: [
        { ...ann, balance: [{ currency: 'SGD', amount: 97505 }] },
        { id: 4, name: 'Cho', balance: [] },
        { ...me, balance: [{ currency: 'SGD', amount: -1420 }] },
        { ...bob, balance: [{ currency: 'SGD', amount: -96085 }] },
      ],
    });
  });

  it('shows the pairwise debts when the group does not simplify', () => {
    const summary = summarizeGroup({ ...group, simplify_by_default: false }, 2);
    expect([summary.simplified, summary.debts, summary.owesMe, summary.iOwe]).toEqual([
      false,
      [
        { from: bob, to: ann, currency: 'SGD', amount: 97000 },
        { from: me, to: bob, currency: 'SGD', amount: 500 },
      ],
      [{ from: bob, to: ann, currency: 'SGD', amount: 97000 }],
      [],
    ]);
  });

  it('names people it does not know by id, and keeps every currency', () => {
    const summary = summarizeGroup(
      {
        id: 7,
        name: 'Flat',
        members: [],
        simplified_debts: [
          { from: 8, to: 9, amount: '1200.0', currency_code: 'JPY' },
          { from: 9, to: 8, amount: '3.5', currency_code: 'EUR' },
        ],
      },
      ME,
    );
    expect(summary.debts).toEqual([
      {
        from: { id: 9, name: 'User 9' },
        to: { id: 8, name: 'User 8' },
        currency: 'EUR',
        amount: 350,
      },
      {
        from: { id: 8, name: 'User 8' },
        to: { id: 9, name: 'User 9' },
        currency: 'JPY',
        amount: 1200,
      },
    ]);
  });
});
