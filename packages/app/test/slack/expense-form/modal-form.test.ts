/** The form's own checks, without Slack: amounts as people type them, and the second step. */
import { describe, expect, it } from 'vitest';
import {
  type CheckedForm,
  checkSplitStep,
  readAmount,
} from '../../../src/slack/expense-form/form.js';
import { voiceFor } from '../../../src/voice/index.js';

/** The en-US reader these views were written for. */
const en = await voiceFor({ locale: 'en-US' });

describe('readAmount', () => {
  it.each([
    ['12.50', 'EUR', 1250],
    ['12,50', 'EUR', 1250],
    ['1,234.50', 'USD', 123450],
    ['€12', 'EUR', 1200],
    ['1200', 'JPY', 1200],
  ])('reads %s in %s', (text, currency, minor) => {
    expect(readAmount(text, currency, en)).toEqual({ minor });
  });

  it.each([
    ['', /Enter an amount/],
    ['forty', /as an amount/],
    ['-3', /negative/],
    ['0', /zero/],
    ['$12', /choose USD under Currency/],
  ])('refuses %j', (text, message) => {
    const result = readAmount(text, 'EUR', en);
    expect('error' in result && result.error).toMatch(message);
  });
});

describe('checkSplitStep', () => {
  const form: CheckedForm = {
    cost: 4000,
    currency: 'EUR',
    description: 'Lunch',
    date: '2026-11-20',
    category_id: null,
    group_id: null,
    participants: ['U1', 'U2', 'U3'],
    payer: 'U1',
    method: 'exact',
    notes: '',
    repeat: 'never',
    files: [],
  };
  const values = (...v: string[]) =>
    Object.fromEntries(
      v.map((value, i) => [
        `form_value_${i}`,
        { [`form_value_${i}`]: { type: 'plain_text_input', value } },
      ]),
    );

  it('gives someone left empty an equal part of what is left, and takes 0.00 as nothing', () => {
    const result = checkSplitStep(form, values('0.00', '30', ''), en);
    expect('split' in result && result.split).toEqual({
      kind: 'exact',
      amounts: [
        { id: 'U1', amount: 0 },
        { id: 'U2', amount: 3000 },
      ],
    });
    expect('form' in result && result.form.values).toEqual({ U1: '0.00', U2: '30' });
  });

  it('puts a total that does not work under the first value', () => {
    const result = checkSplitStep({ ...form, method: 'percent' }, values('50', '30', '10'), en);
    expect(result).toEqual({
      errors: {
        form_value_0: expect.stringMatching(/^The percentages add up to 90%, not 100%/),
      },
    });
  });
});
