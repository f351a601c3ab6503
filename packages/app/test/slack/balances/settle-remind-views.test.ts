/** The pure parts of partial payments and reminders, by value. */
import { describe, expect, it } from 'vitest';
import type { Friend } from '../../../src/service/index.js';
import {
  owedIn,
  paymentCurrency,
  paymentRecordedText,
  planPartial,
} from '../../../src/slack/balances/partial.js';
import { reminderMessage } from '../../../src/slack/balances/remind-views.js';
import {
  checkPartAmount,
  parsePartMeta,
  partForm,
} from '../../../src/slack/balances/settle-part-views.js';
import { parseRemindRef, remindActions } from '../../../src/slack/shared/remind-buttons.js';
import {
  parseSettleRef,
  type SettleRef,
  settleRefValue,
  settleRefValueIn,
} from '../../../src/slack/shared/settle-ref.js';
import { settleConfirmMessage } from '../../../src/slack/shared/settle-views.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';

/** The en-US reader these views were written for. */
const en = await voiceFor({ locale: 'en-US' });

/** Ann as my friend: she owes me €10 in Trip (7) and €-4 outside groups, and I owe her $5. */
const ann: Friend = {
  id: 7,
  first_name: 'Ann',
  last_name: null,
  email: 'ann@example.com',
  balance: [
    { currency_code: 'EUR', amount: '6.0' },
    { currency_code: 'USD', amount: '-5.0' },
  ],
  groups: [
    { group_id: 3, balance: [{ currency_code: 'EUR', amount: '10.0' }] },
    {
      group_id: 0,
      balance: [
        { currency_code: 'EUR', amount: '-4.0' },
        { currency_code: 'USD', amount: '-5.0' },
      ],
    },
  ],
} as Friend;

describe('partial payments', () => {
  it('reads what is owed each way, per currency', () => {
    expect([...owedIn(ann.balance, 'from')]).toEqual([['EUR', 600]]);
    expect([...owedIn(ann.balance, 'to')]).toEqual([['USD', 500]]);
  });

  it('picks the typed currency, else the only one owed, else the default', () => {
    expect(paymentCurrency(ann, 'to', null, 'EUR')).toBe('USD');
    expect(paymentCurrency(ann, 'from', null, 'USD')).toBe('EUR');
    expect(paymentCurrency(ann, 'to', 'GBP', 'EUR')).toBe('GBP');
    const none = { ...ann, balance: [] } as Friend;
    expect(paymentCurrency(none, 'to', null, 'JPY')).toBe('JPY');
    const two = {
      ...ann,
      balance: [
        { currency_code: 'GBP', amount: '-1.0' },
        { currency_code: 'USD', amount: '-2.0' },
      ],
    } as Friend;
    expect(paymentCurrency(two, 'to', null, 'EUR')).toBeNull();
    expect(paymentCurrency(two, 'to', null, 'USD')).toBe('USD');
  });

  it('places a part in the group whose debt covers it, else outside groups', () => {
    const base = { friend: ann, name: 'Ann', direction: 'from' as const, currency: 'EUR' };
    expect(planPartial({ ...base, amount: 500 })).toEqual({ ok: true, group_id: 3 });
    expect(planPartial({ ...base, amount: 600 })).toEqual({ ok: true, group_id: 3 });
  });

  it('refuses more than is owed, and nothing owed that way', () => {
    expect(
      planPartial({ friend: ann, name: 'Ann', direction: 'from', currency: 'EUR', amount: 601 }),
    ).toEqual({
      ok: false,
      reason:
        'Ann owes you €6.00: a payment of €6.01 would leave you owing them. Record at most €6.00.',
    });
    expect(
      planPartial({ friend: ann, name: 'Ann', direction: 'to', currency: 'EUR', amount: 100 }),
    ).toEqual({
      ok: false,
      reason:
        "You don't owe Ann anything in EUR (you owe them $5.00): name that currency with the amount.",
    });
  });

  it('says what was recorded and what is left', () => {
    const base = { name: 'Ann', amount: 1500, currency: 'EUR', group: null };
    expect(paymentRecordedText({ ...base, direction: 'to', left: 500 })).toBe(
      'Recorded: you paid Ann €15.00. You still owe Ann €5.00.',
    );
    expect(paymentRecordedText({ ...base, direction: 'from', left: 0, group: 'Trip' })).toBe(
      'Recorded: Ann paid you €15.00 in Trip. You and Ann are settled up in EUR.',
    );
    expect(paymentRecordedText({ ...base, direction: 'from', left: undefined })).toBe(
      'Recorded: Ann paid you €15.00.',
    );
  });
});

const ref: SettleRef = { k: 'f', id: 7, c: 'JPY', a: 1500, p: 1, v: 'a', n: 'Ann' };

describe('the Pay part form', () => {
  it('is a valid modal pre-filled with the whole debt, its origin read back', () => {
    const view = partForm({ r: ref, h: 1 });
    expect(viewErrors(view)).toEqual([]);
    expect(JSON.stringify(view.blocks)).toContain('"initial_value":"1500"');
    expect(parsePartMeta(view.private_metadata)).toEqual({ r: ref, h: 1 });
    expect(parsePartMeta('{"r":{"k":"x"}}')).toBeUndefined();
    expect(parsePartMeta('not json')).toBeUndefined();
  });

  it('checks the amount with the currency of the debt', () => {
    expect(checkPartAmount('1 000', ref, en)).toEqual({ minor: 1000 });
    expect(checkPartAmount('¥1500', ref, en)).toEqual({ minor: 1500 });
    expect(checkPartAmount('10.5', ref, en)).toEqual({
      error: 'JPY has no cents: "10.5" can\'t have decimals.',
    });
    expect(checkPartAmount('1501', ref, en)).toEqual({
      error:
        'That is more than the ¥1,500 owed: it would turn the debt around. Type at most ¥1,500.',
    });
  });

  it("opens in the locale the debt was shown in, carried by the menu's option", async () => {
    const [block] = remindActions([], [{ ...ref, c: 'EUR', a: 2050 }], 'de-DE');
    const menu = block?.elements[0] as { options: Array<{ value: string }> } | undefined;
    const option = menu?.options[0];
    const carried = parseSettleRef(option?.value);
    expect(carried?.l).toBe('de-DE');
    const form = partForm({ r: carried as SettleRef }, carried?.l);
    expect(JSON.stringify(form.blocks)).toContain('You owe *Ann* *20,50\u00a0€*');
    expect(
      checkPartAmount('21', carried as SettleRef, await voiceFor({ locale: carried?.l })),
    ).toEqual({
      error:
        'That is more than the 20,50\u00a0€ owed: it would turn the debt around. Type at most 20,50\u00a0€.',
    });
  });

  it('leaves the locale out of a value that would not fit, or of one that is no locale', () => {
    const long = { ...ref, n: '"'.repeat(60) };
    expect(settleRefValueIn(long, 'de-DE', 150)).toBe(settleRefValue(long));
    expect(settleRefValueIn(ref, 'de-DE', 150)).toContain('"l":"de-DE"');
    expect(settleRefValueIn(ref, 'not a locale', 150)).toBe(settleRefValue(ref));
    expect(settleRefValueIn(ref, undefined, 150)).toBe(settleRefValue(ref));
  });

  it("is offered on the daily DM's confirmation", () => {
    const message = settleConfirmMessage(ref);
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain('"action_id":"balance_settle_part"');
    const german = JSON.stringify(settleConfirmMessage(ref, 'de-DE').blocks);
    expect(german).toContain('\\"l\\":\\"de-DE\\"');
  });
});

describe('Remind controls', () => {
  it('are a button for one person, a menu for several, with Pay part beside them', () => {
    const [one] = remindActions([{ id: 7, name: 'Ann' }]);
    expect(one?.elements.map((e) => [e.type, e.action_id])).toEqual([['button', 'balance_remind']]);
    const value = (one?.elements[0] as { value?: string } | undefined)?.value;
    expect(parseRemindRef(value)).toEqual({ id: 7, n: 'Ann' });
    const [both] = remindActions(
      [
        { id: 7, name: 'Ann' },
        { id: 8, name: 'Bob' },
        { id: 7, name: 'Ann' },
      ],
      [ref],
    );
    expect(both?.elements.map((e) => [e.type, e.action_id])).toEqual([
      ['static_select', 'balance_settle_part'],
      ['static_select', 'balance_remind'],
    ]);
    expect(blockKitErrors([both], 'message')).toEqual([]);
    expect(remindActions([], [])).toEqual([]);
  });

  it('keep 100 options and 150-character values with long names', () => {
    const people = Array.from({ length: 130 }, (_, i) => ({
      id: i + 1,
      name: `"${'N'.repeat(90)}`,
    }));
    const blocks = remindActions(
      people,
      people.map((p) => ({ ...ref, id: p.id, n: p.name })),
    );
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
  });
});

describe('the reminder DM', () => {
  const owed = [
    { currency: 'EUR', amount: 2000 },
    { currency: 'USD', amount: 400 },
  ];
  it('offers Settle up per currency to someone linked', () => {
    const message = reminderMessage({
      sender: 'U0ANN',
      senderName: 'Ann',
      owed,
      settle: { friendId: 7 },
    });
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(message.text).toBe(
      '<@U0ANN> sent you a reminder: according to their expense account, you owe them €20.00 and $4.00.',
    );
    const json = JSON.stringify(message.blocks);
    expect(json.match(/balance_settle_up/g)).toHaveLength(2);
    expect(json).toContain('reminder_off');
    expect(json).not.toContain('account_connect');
  });

  it('offers Connect to someone not linked', () => {
    const message = reminderMessage({
      sender: 'U0ANN',
      senderName: 'Ann',
      owed,
      connectUrl: 'https://split.test/connect/abc',
    });
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('account_connect');
    expect(json).not.toContain('balance_settle_up');
  });
});
