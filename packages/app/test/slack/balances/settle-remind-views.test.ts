/** The pure parts of partial payments and reminders, by value. */
import { describe, expect, it } from 'vitest';
import type { Friend } from '../../../src/service/index.js';
import {
  owedIn,
  paymentCurrency,
  paymentRecordedText,
  planPartial,
} from '../../../src/slack/balances/partial.js';
import {
  alreadyRemindedText,
  nothingOwedText,
  notInWorkspaceText,
  reminderMessage,
  reminderSentText,
  remindersOffText,
} from '../../../src/slack/balances/remind-views.js';
import { changedText, recordedText, refusedText } from '../../../src/slack/balances/settle.js';
import {
  checkPartAmount,
  encodePartMeta,
  parsePartMeta,
  partForm,
} from '../../../src/slack/balances/settle-part-views.js';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import { unmatchedGroupText } from '../../../src/slack/shared/ledger.js';
import { parseRemindRef, remindActions } from '../../../src/slack/shared/remind-buttons.js';
import {
  parseSettleRef,
  type SettleRef,
  settleRefValue,
  settleRefValueIn,
} from '../../../src/slack/shared/settle-ref.js';
import { settleButton, settleConfirmMessage } from '../../../src/slack/shared/settle-views.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import { ANN, BOB, testOffers } from '../../support/offers.js';
import {
  HOSTILE,
  mrkdwnTexts,
  plainTexts,
  rawIn,
  spaced,
  voices,
} from '../../support/voice-support.js';

const en = voices.en;

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
    expect(planPartial({ ...base, amount: 500 }, en)).toEqual({ ok: true, group_id: 3 });
    expect(planPartial({ ...base, amount: 600 }, en)).toEqual({ ok: true, group_id: 3 });
  });

  it('refuses more than is owed, and nothing owed that way', () => {
    expect(
      planPartial(
        { friend: ann, name: 'Ann', direction: 'from', currency: 'EUR', amount: 601 },
        en,
      ),
    ).toEqual({
      ok: false,
      reason:
        'Ann owes you €6.00: a payment of €6.01 would leave you owing them. Record at most €6.00.',
    });
    expect(
      planPartial({ friend: ann, name: 'Ann', direction: 'to', currency: 'EUR', amount: 100 }, en),
    ).toEqual({
      ok: false,
      reason:
        "You don't owe Ann anything in EUR (you owe them $5.00): name that currency with the amount.",
    });
  });

  it('says what was recorded and what is left', () => {
    const base = { name: 'Ann', amount: 1500, currency: 'EUR', group: null };
    expect(paymentRecordedText({ ...base, direction: 'to', left: 500 }, en)).toBe(
      'Recorded: you paid Ann €15.00. You still owe Ann €5.00.',
    );
    expect(paymentRecordedText({ ...base, direction: 'from', left: 0, group: 'Trip' }, en)).toBe(
      'Recorded: Ann paid you €15.00 in Trip. You and Ann are settled up in EUR.',
    );
    expect(paymentRecordedText({ ...base, direction: 'from', left: undefined }, en)).toBe(
      'Recorded: Ann paid you €15.00.',
    );
  });
});

const ref: SettleRef = { k: 'f', id: 7, c: 'JPY', a: 1500, p: 1, v: 'a', n: 'Ann' };

describe('the Pay part form', () => {
  it('is a valid modal pre-filled with the whole debt, its origin read back', () => {
    const offers = testOffers();
    const view = partForm({ r: ref, h: 1 }, encodePartMeta(offers, ANN, { r: ref, h: 1 }), en);
    expect(viewErrors(view)).toEqual([]);
    expect(JSON.stringify(view.blocks)).toContain('"initial_value":"1500"');
    expect(parsePartMeta(offers, ANN, view.private_metadata)).toEqual({ r: ref, h: 1 });
    // Made for Ann, it is nobody else's; and what was not signed is nobody's.
    expect(parsePartMeta(offers, BOB, view.private_metadata)).toBeUndefined();
    expect(parsePartMeta(offers, ANN, JSON.stringify({ r: ref, h: 1 }))).toBeUndefined();
    expect(parsePartMeta(offers, ANN, '{"r":{"k":"x"}}')).toBeUndefined();
    expect(parsePartMeta(offers, ANN, 'not json')).toBeUndefined();
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
    const [block] = remindActions([], [{ ...ref, c: 'EUR', a: 2050 }], voices.de);
    const menu = block?.elements[0] as { options: Array<{ value: string }> } | undefined;
    const option = menu?.options[0];
    const carried = parseSettleRef(option?.value);
    expect(carried?.l).toBe('de-DE');
    const voice = await voiceFor({ locale: carried?.l });
    const form = partForm({ r: carried as SettleRef }, '', voice);
    expect(JSON.stringify(form.blocks)).toContain('Du schuldest *Ann* *20,50\u00a0€*');
    // The field holds the whole debt with the German decimal mark, which the amount grammar reads.
    expect(JSON.stringify(form.blocks)).toContain('"initial_value":"20,50"');
    expect(checkPartAmount('20,50', carried as SettleRef, voice)).toEqual({ minor: 2050 });
    expect(checkPartAmount('21', carried as SettleRef, voice)).toEqual({
      error:
        'Das ist mehr als die geschuldeten 20,50\u00a0€: Die Schuld würde sich umdrehen. Gib höchstens 20,50\u00a0€ ein.',
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
    const message = settleConfirmMessage(ref, en);
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain('"action_id":"balance_settle_part"');
    const german = JSON.stringify(settleConfirmMessage(ref, voices.de).blocks);
    expect(german).toContain('\\"l\\":\\"de-DE\\"');
  });
});

describe('Remind controls', () => {
  it('are a button for one person, a menu for several, with Pay part beside them', () => {
    const [one] = remindActions([{ id: 7, name: 'Ann' }], [], en);
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
      en,
    );
    expect(both?.elements.map((e) => [e.type, e.action_id])).toEqual([
      ['static_select', 'balance_settle_part'],
      ['static_select', 'balance_remind'],
    ]);
    expect(blockKitErrors([both], 'message')).toEqual([]);
    expect(remindActions([], [], en)).toEqual([]);
  });

  it('keep 100 options and 150-character values with long names', () => {
    const people = Array.from({ length: 130 }, (_, i) => ({
      id: i + 1,
      name: `"${'N'.repeat(90)}`,
    }));
    const blocks = remindActions(
      people,
      people.map((p) => ({ ...ref, id: p.id, n: p.name })),
      en,
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
    const message = reminderMessage(
      { sender: 'U0ANN', senderName: 'Ann', owed, settle: { friendId: 7 } },
      en,
    );
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(message.text).toBe(
      '<@U0ANN> sent you a reminder: according to their Splitwise account, you owe them €20.00 and $4.00.',
    );
    const json = JSON.stringify(message.blocks);
    expect(json.match(/balance_settle_up/g)).toHaveLength(2);
    expect(json).toContain('reminder_off');
    expect(json).not.toContain('account_connect');
  });

  it('offers Connect to someone not linked', () => {
    const message = reminderMessage(
      { sender: 'U0ANN', senderName: 'Ann', owed, connectUrl: 'https://split.test/connect/abc' },
      en,
    );
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('account_connect');
    expect(json).not.toContain('balance_settle_up');
  });
});

describe('what people and the service wrote, escaped on every settle and remind text', () => {
  const hostileRef: SettleRef = {
    k: 'g',
    id: 7,
    o: 3,
    c: 'EUR',
    a: 2050,
    p: 1,
    v: 'g',
    n: HOSTILE,
  };

  it('in confirm dialogs, the DM confirmation with its notification, and the Pay part form', () => {
    const button = settleButton(hostileRef, voices.de);
    const confirmation = settleConfirmMessage({ ...hostileRef, k: 'f', n: HOSTILE }, voices.de);
    const form = partForm({ r: hostileRef }, '', voices.de);
    const remind = remindActions([{ id: 3, name: HOSTILE }], [hostileRef], voices.de);
    const texts = [
      ...mrkdwnTexts(button),
      ...mrkdwnTexts(confirmation.blocks),
      confirmation.text,
      ...mrkdwnTexts(form.blocks),
      ...mrkdwnTexts(remind),
    ];
    expect(rawIn(texts)).toEqual([]);
    expect(texts.join('\n')).toContain(mrkdwn(HOSTILE));
    // Buttons, options and the form's labels are plain_text: the name as typed.
    expect(plainTexts(remind)).toContain(`${HOSTILE} erinnern`);
  });

  it('in the reminder DM (the sender’s name on Settle up), and what the sender is told', () => {
    const dm = reminderMessage(
      {
        sender: 'U0ANN',
        senderName: HOSTILE,
        owed: [{ currency: 'EUR', amount: 500 }],
        settle: { friendId: 3 },
      },
      voices.ja,
    );
    const told = [
      reminderSentText(HOSTILE, [{ currency: 'EUR', amount: 500 }], voices.en),
      nothingOwedText(HOSTILE, voices.en),
      notInWorkspaceText(HOSTILE, voices.en),
      remindersOffText(HOSTILE, voices.en),
      alreadyRemindedText(HOSTILE, voices.en),
    ];
    expect(rawIn([...mrkdwnTexts(dm.blocks), dm.text, ...told])).toEqual([]);
  });

  it('in what a payment says, and why one is refused', () => {
    const friend = { ...ann, first_name: HOSTILE } as Friend;
    const texts = [
      paymentRecordedText(
        { name: HOSTILE, direction: 'to', amount: 100, currency: 'EUR', left: 5, group: HOSTILE },
        voices.fr,
      ),
      ...(
        [
          ['from', 601],
          ['to', 100],
        ] as const
      ).flatMap(([direction, amount]) => {
        const plan = planPartial(
          { friend, name: HOSTILE, direction, currency: 'EUR', amount },
          voices.fr,
        );
        return plan.ok ? [] : [plan.reason];
      }),
      recordedText(hostileRef, voices.es),
      changedText(hostileRef, -300, voices.es),
      refusedText(HOSTILE, voices.es),
      unmatchedGroupText(voices.de, HOSTILE, { kind: 'unknown', groups: [] }),
    ];
    expect(texts).toHaveLength(7);
    expect(rawIn(texts)).toEqual([]);
  });
});

describe('settle and remind texts in the reader’s voice', () => {
  it('German and Japanese, amounts written their way', () => {
    const euros: SettleRef = { ...ref, c: 'EUR', a: 123450, p: 0, n: 'Ann' };
    expect(spaced(recordedText(euros, voices.de))).toBe('Erfasst: Ann hat dir 1.234,50 € gezahlt.');
    expect(spaced(recordedText(euros, voices.ja))).toBe(
      '記録しました：Ann から €1,234.50 を受け取りました。',
    );
    expect(spaced(changedText({ ...euros, k: 'g' }, 0, voices.de))).toBe(
      'Es wurde nichts erfasst: Der Saldo hat sich geändert, seit er angezeigt wurde (Stand jetzt: ausgeglichen in dieser Gruppe, in EUR). Hier ist er, wie er jetzt steht.',
    );
    const confirm = settleButton(euros, voices.ja).confirm;
    expect(confirm?.title?.text).toBe('支払いを記録しますか？');
    expect(spaced(confirm?.text.text ?? '')).toBe(
      '*Ann* から *€1,234.50* を受け取ったと記録しますか？Splitwise でこの貸し借りが精算されます。',
    );
    const dm = reminderMessage(
      { sender: 'U0ANN', senderName: 'Ann', owed: [{ currency: 'EUR', amount: 123450 }] },
      voices.de,
    );
    expect(spaced(dm.text)).toBe(
      '<@U0ANN> hat dir eine Erinnerung geschickt: Laut dem Splitwise-Konto von <@U0ANN> schuldest du 1.234,50 €.',
    );
    expect(
      spaced(
        paymentRecordedText(
          { name: 'Ann', direction: 'to', amount: 1500, currency: 'EUR', left: 0, group: null },
          voices.ja,
        ),
      ),
    ).toBe('記録しました：Ann に €15.00 を支払いました。あなたと Ann は EUR で精算済みです。');
  });
});
