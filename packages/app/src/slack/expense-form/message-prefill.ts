/**
 * "Split this": what a message says, read into the new expense form's fields the way a typed
 * `/split` would read it.
 */
import {
  type ParseContext,
  type ParsedExpense,
  parseCommand,
  whenWords,
} from '../../core/command/index.js';
import { mentionedIds } from '../kit/limits.js';
import type { SourceMessage } from '../shared/message-files.js';
import type { Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';
import { MAX_PARTICIPANTS } from './form.js';
import { messageText } from './message-text.js';

/** The people a message names, and who of them and its author the form looks up. */
export function messagePeople(
  message: SourceMessage | undefined,
  typed: string,
  userId: string,
): { mentioned: string[]; candidates: string[] } {
  const mentioned = message
    ? [...mentionedIds(typed)].filter((id) => /^[UW][A-Z0-9]+$/.test(id))
    : [];
  // Only as many as the form can hold are looked up: a message can mention hundreds.
  const candidates = [
    ...new Set([message?.author, ...mentioned].filter((id): id is string => !!id)),
  ]
    .filter((id) => id !== userId)
    .slice(0, MAX_PARTICIPANTS - 1);
  return { mentioned, candidates };
}

export interface MessageFill {
  currency: string;
  amountText: string | undefined;
  description: string | undefined;
  date: string;
  repeat: ParsedExpense['repeat'];
}

/**
 * The amount, day, repeat and description a message's words give, each in its own field; the
 * start (`currency`, `date`) stays where the message does not say.
 */
export function fillFromMessage(
  typed: string,
  names: Map<string, string>,
  start: { currency: string; today: string; locale: string | undefined },
  voice: Voice,
): MessageFill {
  const fill: MessageFill = {
    currency: start.currency,
    amountText: undefined,
    description: undefined,
    date: start.today,
    repeat: undefined,
  };
  const text = messageText(typed, names);
  // The reader's locale: `3/12` and their language's words (`gestern`, `monatlich`) read as
  // they would after /split.
  const ctx: ParseContext = {
    today: start.today,
    defaultCurrency: start.currency,
    ...(start.locale ? { locale: start.locale } : {}),
    // A message that mentions nobody still has its amount read.
    channelHasGroup: true,
  };
  const parsed = parseCommand(typed, ctx);
  let description = text;
  if (parsed.kind === 'expense' && parsed.expense.each === null) {
    fill.currency = parsed.expense.currency;
    fill.amountText = amountInput(parsed.expense.cost, fill.currency, voice);
    fill.date = parsed.expense.date;
    fill.repeat = parsed.expense.repeat;
    if (parsed.expense.description !== '') {
      // The amount, the day and the repeat go to their own fields, and out of the description:
      // the day and repeat as whole words (`hier` leaves `hierzu` alone).
      let left = ` ${text.replace(parsed.expense.amountText, ' ').replace(/\s+/g, ' ')} `;
      for (const words of whenWords(typed, ctx)) left = left.replace(` ${words} `, ' ');
      description = left.trim();
    }
  }
  fill.description = description.slice(0, 255) || undefined;
  return fill;
}
