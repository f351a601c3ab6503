/**
 * The expense form's builders and the messages around it, by value and against Slack's limits,
 * with real-sized data: 150+ currencies, 150 groups, a big category tree, long texts, 50 people.
 */

import currencies from '@split/service-emulator/data/currencies.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import type { Category, Currency } from '../../../src/service/index.js';
import { commentFormView } from '../../../src/slack/expense-actions/comment-view.js';
import { expenseDetailsMessage } from '../../../src/slack/expense-actions/details-view.js';
import { encodeMeta, parseMeta } from '../../../src/slack/expense-form/form.js';
import { itemiseStepView } from '../../../src/slack/expense-form/itemise-view.js';
import {
  categoryOptionGroups,
  currencyOptions,
} from '../../../src/slack/expense-form/select-options.js';
import { expenseFormView, splitStepView } from '../../../src/slack/expense-form/views.js';
import { deletedMessage } from '../../../src/slack/shared/expense-message.js';
import { expenseListMessage } from '../../../src/slack/split/list-view.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import { ANN, BOB, testOffers } from '../../support/offers.js';

const en = await voiceFor({ locale: 'en-US' });

const CURRENCIES: Currency[] = currencies.currencies;
const LONG = 'Dinner at the very long named restaurant by the sea '.repeat(80);
const people = Array.from({ length: 50 }, (_, i) => `U0P${String(i).padStart(3, '0')}`);

describe('expense form', () => {
  const offers = testOffers();
  const meta = encodeMeta(offers, ANN, {
    c: 'C0001',
    t: '1700000000.000100',
    z: 'America/Argentina/Buenos_Aires',
  });

  it('keeps within the limits with 150 groups, long texts and 50 people', () => {
    const groups = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, name: `${LONG}${i}` }));
    const view = expenseFormView(
      {
        mode: 'new',
        meta,
        initial: {
          amountText: '84.50',
          currency: 'EUR',
          description: LONG,
          date: '2026-11-20',
          category: { id: 13, name: LONG },
          group_id: 150,
          participants: people,
          payer: 'U0P000',
          notes: LONG.repeat(3),
        },
        groups,
        currencyUnit: '€',
        note: LONG,
      },
      en,
    );
    expect(viewErrors(view)).toEqual([]);
    const group = view.blocks.find((b) => b.block_id === 'form_group') as {
      element: { options: unknown[] };
    };
    expect(group.element.options).toHaveLength(100);
    expect(view.private_metadata?.length).toBeLessThan(150);
  });

  it('round-trips its private_metadata and refuses anything else', () => {
    expect(parseMeta(offers, ANN, meta)).toEqual({
      v: 1,
      c: 'C0001',
      t: '1700000000.000100',
      z: 'America/Argentina/Buenos_Aires',
    });
    // Signed for Ann: Bob's client sending it gets nothing, nor does an unsigned or edited one.
    expect(parseMeta(offers, BOB, meta)).toBeUndefined();
    expect(parseMeta(offers, ANN, meta.replace('C0001', 'C0002'))).toBeUndefined();
    expect(parseMeta(offers, ANN, '{"v":1,"c":"C0002"}')).toBeUndefined();
    expect(parseMeta(offers, ANN, '{"v":2}')).toBeUndefined();
    expect(parseMeta(offers, ANN, 'not json')).toBeUndefined();
    const later = testOffers(() => new Date(Date.now() + 25 * 60 * 60_000));
    expect(parseMeta(later, ANN, meta)).toBe('expired');
  });

  it('shows the people as text when an edit cannot change them', () => {
    const view = expenseFormView(
      {
        mode: 'edit',
        meta,
        initial: { date: '2026-11-20', participants: [], payer: 'U1' },
        groups: [],
        peopleEditable: false,
        people: Array.from({ length: 800 }, () => '<@U1>'),
      },
      en,
    );
    expect(viewErrors(view)).toEqual([]);
    expect(view.blocks.some((b) => b.block_id === 'form_amount')).toBe(false);
    expect(view.title.text).toBe('Edit expense');
  });

  it('builds a second step of one input per person, labelled by name', () => {
    const names = Object.fromEntries(people.map((id) => [id, `${LONG}${id}`]));
    const view = splitStepView(
      {
        method: 'percent',
        cost: 4000,
        currency: 'EUR',
        participants: people,
        names,
        values: { U0P001: '12.5' },
        meta,
      },
      en,
    );
    expect(viewErrors(view)).toEqual([]);
    expect(view.blocks.filter((b) => b.type === 'input')).toHaveLength(50);
    expect(view.title.text).toBe('Percentages');
  });

  it('labels the button of each step after the first as the first step does: Save for an edit', () => {
    const step = {
      method: 'exact' as const,
      cost: 4000,
      currency: 'EUR',
      participants: people.slice(0, 2),
      names: {},
      meta,
    };
    const itemise = {
      subtotal: 4000,
      currency: 'EUR',
      participants: people.slice(0, 2),
      names: {},
      meta,
    };
    expect(splitStepView(step, en).submit?.text).toBe('Book it');
    expect(splitStepView({ ...step, edit: true }, en).submit?.text).toBe('Save');
    expect(itemiseStepView(itemise, en).submit?.text).toBe('Book it');
    expect(itemiseStepView({ ...itemise, edit: true }, en).submit?.text).toBe('Save');
  });

  it('builds the comment form within the limits', () => {
    expect(viewErrors(commentFormView({ meta, description: LONG }, en))).toEqual([]);
  });
});

describe('searchable options', () => {
  it('answers at most 100 currencies out of the service list, best matches first', () => {
    expect(CURRENCIES.length).toBeGreaterThan(150);
    expect(currencyOptions(CURRENCIES, '')).toHaveLength(100);
    expect(currencyOptions(CURRENCIES, 'usd')[0]).toEqual({
      text: { type: 'plain_text', text: 'USD · $', emoji: true },
      value: 'USD',
    });
    expect(currencyOptions(CURRENCIES, 'zzzz')).toEqual([]);
    // A search longer than any name matches none, unread.
    expect(currencyOptions(CURRENCIES, `usd${' '.repeat(40_000)}`)).toEqual([]);
    const food = [{ id: 1, name: 'Food', subcategories: [{ id: 2, name: 'Dining out' }] }];
    expect(categoryOptionGroups(food, ` food${' '.repeat(95)}`)).toHaveLength(1);
    expect(categoryOptionGroups(food, ` food${' '.repeat(40_000)}`)).toEqual([]);
  });

  it('answers at most 100 categories in all, grouped by parent', () => {
    const tree: Category[] = Array.from({ length: 30 }, (_, p) => ({
      id: 1000 + p,
      name: `${LONG}${p}`,
      subcategories: Array.from({ length: 10 }, (_, s) => ({
        id: p * 100 + s,
        name: `${LONG}${s}`,
      })),
    }));
    const groups = categoryOptionGroups(tree, '');
    expect(groups.reduce((n, g) => n + g.options.length, 0)).toBe(100);
    for (const g of groups) {
      expect(g.label.text.length).toBeLessThanOrEqual(75);
      for (const o of g.options) expect(o.text.text.length).toBeLessThanOrEqual(75);
    }
  });
});

describe('messages around an expense', () => {
  const expense = {
    id: 42,
    description: LONG,
    cost: 4000,
    currency: 'EUR',
    date: '2026-11-20',
    payer: { slack: 'U1' },
    lines: people.map((id, i) => ({ who: { slack: id }, paid: i === 0 ? 4000 : 0, owed: 80 })),
    group: LONG,
    split: 'equal' as const,
    bookedBy: 'U1',
  };

  it('shows details with hundreds of comments and long notes within 50 blocks', () => {
    const m = expenseDetailsMessage(
      {
        expense,
        category: LONG,
        notes: LONG.repeat(5),
        repeat: 'monthly',
        receiptUrl: 'http://127.0.0.1/receipt.png',
        deleted: false,
        comments: Array.from({ length: 300 }, (_, i) => ({
          author: `Person ${i}`,
          at: '2026-11-20T10:00:00Z',
          content: LONG,
          system: i % 2 === 0,
        })),
      },
      en,
    );
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('lists many long expenses within 50 blocks', () => {
    const m = expenseListMessage(en, {
      filters: `with ${LONG}`,
      items: Array.from({ length: 20 }, (_, i) => ({
        id: i,
        description: LONG,
        cost: 1234,
        currency: 'JPY',
        date: '2026-11-20',
        paidBy: LONG,
        myShare: 617,
        group: LONG,
      })),
      page: 2,
      buttons: { previous: 'p', next: 'n', export: 'e' },
      note: LONG,
    });
    expect(m.blocks.length).toBeLessThanOrEqual(50);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('keeps a deleted expense readable, with an Undo that restores it', () => {
    const m = deletedMessage({ expenseId: 42, deletedBy: 'U2', what: LONG }, en);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(m.blocks)).toContain('"action_id":"expense_restore"');
  });
});
