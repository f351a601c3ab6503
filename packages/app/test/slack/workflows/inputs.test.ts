import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/core/command/index.js';
import {
  readBalancesInputs,
  readBookInputs,
  splitText,
} from '../../../src/slack/workflows/inputs.js';
import { noticeText } from '../../../src/slack/workflows/notices.js';

const base = {
  payer: 'U0ANN',
  amount: 40,
  description: 'Lunch',
  people: ['U0BOB'],
  interactivity: { interactor: { id: 'U0ANN', secret: 's' } },
};

const parse = (text: string, locale = 'en-US') =>
  parseCommand(text, {
    today: '2026-12-04',
    defaultCurrency: 'USD',
    locale,
    channelHasGroup: false,
  });

describe("a Book an expense step's inputs", () => {
  it('are read as the workflow gave them, the payer left out of the people, who ran it from Slack', () => {
    expect(
      readBookInputs({ ...base, people: ['U0BOB', 'U0ANN', 'U0BOB'], currency: 'eur' }),
    ).toEqual({
      payer: 'U0ANN',
      amount: '40',
      currency: 'EUR',
      description: 'Lunch',
      people: ['U0BOB'],
      channel: undefined,
      group: undefined,
      runner: 'U0ANN',
    });
  });

  it('refuse an amount that is zero, negative, not a number, or written as an exponent', () => {
    for (const amount of [
      0,
      -1,
      'twelve',
      '1e3',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e21,
      null,
    ]) {
      expect(readBookInputs({ ...base, amount })).toEqual({ refused: 'workflows.amount_invalid' });
    }
    expect(readBookInputs({ ...base, amount: '12.50' })).toMatchObject({ amount: '12.50' });
  });

  it('refuse the payer alone, a person who is no user id, and a currency that is no code', () => {
    expect(readBookInputs({ ...base, people: [] })).toEqual({ refused: 'workflows.payer_alone' });
    expect(readBookInputs({ ...base, people: ['U0ANN'] })).toEqual({
      refused: 'workflows.payer_alone',
    });
    expect(readBookInputs({ ...base, people: ['<@U0BOB>'] })).toEqual({
      refused: 'workflows.person_invalid',
    });
    expect(readBookInputs({ ...base, currency: 'EURO' })).toEqual({
      refused: 'workflows.currency_invalid',
      values: { currency: 'EURO' },
    });
  });

  it('take no runner from a value a builder could type, only from Slack’s interactivity', () => {
    expect(readBookInputs({ ...base, interactivity: 'U0ANN' })).toMatchObject({
      runner: undefined,
    });
    expect(readBookInputs({ ...base, interactivity: undefined })).toMatchObject({
      runner: undefined,
    });
  });

  it('become a /split whose description is never read as a date, a repeat, a group or an amount', () => {
    const inputs = readBookInputs({
      ...base,
      amount: 12.5,
      currency: 'EUR',
      description: 'rent "flat" monthly yesterday in Lisbon 30',
      group: 'Flat 4B',
    });
    if ('refused' in inputs) throw new Error('refused');
    for (const locale of ['en-US', 'de-DE', 'fr-FR']) {
      const parsed = parse(splitText(inputs), locale);
      expect(parsed).toMatchObject({
        kind: 'expense',
        expense: {
          cost: 1250,
          currency: 'EUR',
          description: "rent 'flat' monthly yesterday in Lisbon 30",
          participants: ['@me', 'U0BOB'],
          group: 'Flat 4B',
          date: '2026-12-04',
        },
      });
      expect(parsed.kind === 'expense' && parsed.expense.repeat).toBeFalsy();
    }
  });
});

describe("a Post balances step's inputs", () => {
  it('need a person and a channel', () => {
    expect(readBalancesInputs({ user: 'U0ANN', channel: 'C0001' })).toEqual({
      user: 'U0ANN',
      channel: 'C0001',
      runner: undefined,
    });
    expect(readBalancesInputs({ user: 'U0ANN' })).toEqual({ refused: 'workflows.input_missing' });
  });
});

describe("a step's error", () => {
  it('is the notice’s reason, without its example, labels kept and what people wrote still escaped', () => {
    const message = {
      text: 'x',
      blocks: [
        {
          type: 'section' as const,
          text: {
            type: 'mrkdwn' as const,
            text: ':warning: *No group* called <#C0001|general> &amp; <@U0BOB>.\nFor example: /split 40',
          },
        },
      ],
    };
    expect(noticeText(message)).toBe('No group called general &amp; <@U0BOB>.');
  });
});
