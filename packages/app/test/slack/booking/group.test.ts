/**
 * The currency a form opened for a group starts from: the choice it is handed, when it comes in
 * time and names a currency the service knows; nothing otherwise, so that the form starts from the
 * person's own currency.
 */
import { describe, expect, it } from 'vitest';
import { lineText } from '../../../src/observe/logger.js';
import { type GroupCurrencyOf, groupStartCurrency } from '../../../src/slack/booking/currency.js';
import type { SlackDeps } from '../../../src/slack/deps.js';

const user = { team_id: 'T1', user_id: 'U0ANN' };
const group = 7;
/** The parts of the app's deps the choice reads here: the service's currency list. */
const deps = (known: boolean | undefined) =>
  ({ reference: { knownCurrency: () => known } }) as unknown as SlackDeps;
const logger = (lines: string[]) => ({
  warn: (...args: unknown[]) => lines.push(lineText(args)),
});

describe('groupStartCurrency', () => {
  it('is the code the choice gives, in capitals', async () => {
    const choose: GroupCurrencyOf = async (_deps, who, g) => {
      expect([who, g]).toEqual([user, group]);
      return 'chf';
    };
    expect(await groupStartCurrency(deps(true), user, group, logger([]), { choose })).toBe('CHF');
    expect(await groupStartCurrency(deps(undefined), user, group, logger([]), { choose })).toBe(
      'CHF',
    );
  });

  it('is nothing without a group, a code, or a code the service knows', async () => {
    const lines: string[] = [];
    const gives =
      (code: string | undefined): GroupCurrencyOf =>
      async () =>
        code;
    expect(
      await groupStartCurrency(deps(true), user, undefined, logger(lines), {
        choose: gives('EUR'),
      }),
    ).toBe(undefined);
    expect(
      await groupStartCurrency(deps(true), user, group, logger(lines), {
        choose: gives(undefined),
      }),
    ).toBe(undefined);
    expect(
      await groupStartCurrency(deps(true), user, group, logger(lines), { choose: gives('<b>') }),
    ).toBe(undefined);
    expect(
      await groupStartCurrency(deps(false), user, group, logger(lines), { choose: gives('XYZ') }),
    ).toBe(undefined);
  });

  it('gives way to the person’s own currency when the choice is slow or fails', async () => {
    const lines: string[] = [];
    const started = performance.now();
    const slow: GroupCurrencyOf = () => new Promise(() => undefined);
    expect(
      await groupStartCurrency(deps(true), user, group, logger(lines), {
        choose: slow,
        budgetMs: 30,
      }),
    ).toBe(undefined);
    expect(performance.now() - started).toBeLessThan(1_000);
    const failing: GroupCurrencyOf = async () => {
      throw new Error('get_expenses failed');
    };
    expect(
      await groupStartCurrency(deps(true), user, group, logger(lines), { choose: failing }),
    ).toBe(undefined);
    expect(lines).toEqual(['expense form: the currency of group 7 failed: get_expenses failed']);
  });
});
