/**
 * What each entry point of the app does to a text a person sent, as functions of that text, for
 * linear-time.e2e.test.ts (timed by test/support/text-timer.ts in a process of its own): a
 * `/split` command, a mention and a DM, the "Split this" shortcut's message, the links of an
 * unfurl, the expense form's and the Pay part form's fields, the select menus' searches, and the
 * linking pages' Accept-Language header. Each reader runs what its entry point runs on the text
 * before anything is kept or asked of Slack or the service.
 */

import { browserLocale } from '../../src/accounts/pages.js';
import {
  cutToCommandCap,
  MAX_COMMAND_CHARS,
  parseCommand,
  whenWords,
} from '../../src/core/command/index.js';
import { checkPartAmount } from '../../src/slack/balances/settle-part-views.js';
import { readTyped } from '../../src/slack/expense-form/amount.js';
import {
  type CheckedForm,
  checkForm,
  checkSplitStep,
  paidBlockId,
  type StateValues,
  valueBlockId,
} from '../../src/slack/expense-form/form.js';
import { checkItemiseStep } from '../../src/slack/expense-form/itemise.js';
import { messageText } from '../../src/slack/expense-form/message-text.js';
import {
  categoryOptionGroups,
  currencyOptions,
} from '../../src/slack/expense-form/select-options.js';
import { notificationText } from '../../src/slack/home/activity-view.js';
import { FORM } from '../../src/slack/ids.js';
import { mentionedIds } from '../../src/slack/kit/limits.js';
import { plainNotice, typedCommand } from '../../src/slack/shared/notices.js';
import { commandText } from '../../src/slack/split/talk.js';
import { serviceLinks } from '../../src/slack/unfurl/link-shared.js';
import { voiceFor } from '../../src/voice/index.js';

const BOT = 'U0BOT0001';
const ctx = { today: '2026-11-21', defaultCurrency: 'USD' };
/** A reader of another language: its words are read beside English's. */
const ctxDe = { ...ctx, locale: 'de-DE' };
const ctxPt = { ...ctx, locale: 'pt-BR' };
const [en, de] = await Promise.all([
  voiceFor({ locale: 'en-US', tz: 'UTC' }),
  voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' }),
]);

/** A field of the form holding `text`. */
const field = (id: string, text: string): StateValues => ({
  [id]: { [id]: { type: 'plain_text_input', value: text } },
});

/** The form's first step with every field a person types into holding `text`. */
function firstStep(text: string): StateValues {
  return {
    ...field(FORM.amount, text),
    ...field(FORM.description, text),
    ...field(FORM.notes, text),
    [FORM.currency]: { [FORM.currency]: { selected_option: { value: 'EUR' } } },
    [FORM.payer]: { [FORM.payer]: { selected_user: 'U0ANN' } },
    [FORM.participants]: { [FORM.participants]: { selected_users: ['U0ANN', 'U0BOB'] } },
  };
}

const checked = (method: CheckedForm['method'], alsoPaid?: string[]): CheckedForm => ({
  cost: 4000,
  currency: 'EUR',
  description: 'lunch',
  date: '2026-11-20',
  category_id: null,
  group_id: null,
  participants: ['U0ANN', 'U0BOB'],
  payer: 'U0ANN',
  ...(alsoPaid ? { alsoPaid } : {}),
  method,
  notes: '',
  repeat: 'never',
  files: [],
});

/** The second step (or the itemise step) with every field holding `text`. */
function secondStep(text: string): StateValues {
  return {
    ...field(valueBlockId(0), text),
    ...field(valueBlockId(1), text),
    ...field(paidBlockId(0), text),
    ...field(paidBlockId(1), text),
    ...field(FORM.itemShared, text),
    ...field(FORM.itemTip, text),
    ...field(FORM.itemTax, text),
  };
}

const currencies = [
  { currency_code: 'EUR', unit: '€' },
  { currency_code: 'USD', unit: '$' },
  { currency_code: 'JPY', unit: '¥' },
];
const categories = [
  {
    id: 1,
    name: 'Food and drink',
    subcategories: [
      { id: 2, name: 'Dining out' },
      { id: 3, name: 'Groceries' },
    ],
  },
];
const debt = { k: 'f', id: 7, c: 'EUR', a: 4000, p: 1, v: 'a', n: 'Bob' } as const;
const names = new Map([['U0BOB', 'Bob']]);

export const readers: Record<string, (text: string) => unknown> = {
  /** `/split <text>`: the ack's cap and count, the job's parse, the Connect prompt's quote. */
  command: (text) => {
    if (text.length > MAX_COMMAND_CHARS) return undefined;
    mentionedIds(text);
    typedCommand(text);
    parseCommand(text, ctxDe);
    return parseCommand(text, ctx);
  },
  /** A mention or a DM: the command it asks for, its count of people, its parse. */
  message: (text) => {
    const command = commandText(text, BOT);
    if (command.length > MAX_COMMAND_CHARS) return undefined;
    mentionedIds(command);
    parseCommand(command, ctxPt);
    return parseCommand(command, ctx);
  },
  /** "Split this" on a message: its start, read for the form. */
  shortcut: (text) => {
    const typed = cutToCommandCap(text);
    mentionedIds(typed);
    messageText(typed, names);
    whenWords(typed, ctxDe);
    return parseCommand(typed, { ...ctxDe, channelHasGroup: true });
  },
  /** link_shared: the text as one link, and as the links a message of it would list. */
  unfurl: (text) =>
    serviceLinks([
      { url: text },
      ...text
        .split(/\s+/)
        .filter(Boolean)
        .map((url) => ({ url })),
    ]),
  form: (text) => [
    checkForm(firstStep(text), { today: ctx.today, knownCurrency: () => true }, en),
    readTyped(text, 'EUR', de),
  ],
  split: (text) =>
    (['exact', 'percent', 'shares'] as const).map((method) =>
      checkSplitStep(checked(method, ['U0BOB']), secondStep(text), en),
    ),
  itemise: (text) => checkItemiseStep(checked('itemise'), secondStep(text), de),
  settle: (text) => checkPartAmount(text, debt, en),
  options: (text) => [currencyOptions(currencies, text), categoryOptionGroups(categories, text)],
  /** The linking pages choose their language from the header before anything else. */
  page: (text) => browserLocale(text),
  notice: (text) => plainNotice(text),
  // What the service wrote: a notification's HTML, shown in App Home's activity.
  activity: (text) => notificationText(text, 200),
};

export const warm = `<@${BOT}> 40 lunch <@U0BOB|bob> ${'12.50+'.repeat(40)}1 https://secure.splitwise.com/expenses/12`;
