/** An itemised bill's breakdown line, told apart from the notes a person wrote. */
import { describe, expect, it } from 'vitest';
import { joinBreakdown, splitBreakdown } from '../../../src/slack/shared/breakdown.js';

const LINE = 'Subtotal €80.00 + tip 10% €8.00 = total €88.00';

describe('splitBreakdown', () => {
  it('takes the breakdown off the end of the notes, alone or after what was written', async () => {
    expect(await splitBreakdown(LINE)).toEqual({ notes: '', breakdown: LINE });
    expect(await splitBreakdown(`Thin crust\n\n${LINE}`)).toEqual({
      notes: 'Thin crust',
      breakdown: LINE,
    });
    expect(
      await splitBreakdown('80,00 €\n\nSubtotal 80,00 € + tax 8 % 6,40 € = total 86,40 €'),
    ).toEqual({
      notes: '80,00 €',
      breakdown: 'Subtotal 80,00 € + tax 8 % 6,40 € = total 86,40 €',
    });
  });

  it('leaves notes without one as they are, even when they mention a subtotal', async () => {
    expect(await splitBreakdown('')).toEqual({ notes: '' });
    expect(await splitBreakdown('Thin crust')).toEqual({ notes: 'Thin crust' });
    expect(await splitBreakdown(`${LINE}\n\nThin crust`)).toEqual({
      notes: `${LINE}\n\nThin crust`,
    });
    expect(await splitBreakdown('Subtotal was wrong = total mess\nsecond line')).toEqual({
      notes: 'Subtotal was wrong = total mess\nsecond line',
    });
  });

  it('joins them back as they were written', () => {
    expect(joinBreakdown('Thin crust', LINE)).toBe(`Thin crust\n\n${LINE}`);
    expect(joinBreakdown('', LINE)).toBe(LINE);
    expect(joinBreakdown('Thin crust', undefined)).toBe('Thin crust');
    expect(joinBreakdown('', undefined)).toBe('');
  });
});
