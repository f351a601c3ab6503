/**
 * The form behind "Pay part…": one amount, pre-filled with the whole debt, read by the same
 * amount grammar as `/split` (`12,50`, `€12.50`, `1 000`), in the debt's currency. Pure: the view,
 * its private_metadata, and the check of what was typed (errors go under the field).
 */
import { parseAmount } from '../../core/command/index.js';
import { currencyExponent, toDecimal } from '../../core/money.js';
import { object, oneOf, optional, string } from '../../core/schema.js';
import { SETTLE_FORM } from '../ids.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import { input, type ModalView, metadata, plain, title } from '../shared/modal.js';
import { troubleText } from '../shared/parse-problem.js';
import { type SettleRef, settleRefSchema } from '../shared/settle-ref.js';
import type { Voice } from '../shared/voice.js';

/** Where the form came from, so that the outcome is told there. */
const partMetaSchema = object({
  r: settleRefSchema,
  /** The response_url of the message whose control opened the form. */
  u: optional(string({ max: 500, regex: /^https?:\/\// })),
  /** Opened from App Home: the outcome is a line at the top of the tab. */
  h: optional(oneOf([1])),
});
export interface PartMeta {
  r: SettleRef;
  u?: string | undefined;
  h?: 1 | undefined;
}

export function parsePartMeta(text: string | undefined): PartMeta | undefined {
  if (!text) return undefined;
  try {
    const parsed = partMetaSchema.safeParse(JSON.parse(text));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

export function partForm(meta: PartMeta, locale?: string): ModalView {
  const ref = meta.r;
  const owed = money(ref.a, ref.c, locale);
  const name = `*${mrkdwnEscape(clip(ref.n, 60))}*`;
  const question =
    ref.p === 1
      ? `You owe ${name} *${owed}*. How much did you pay them?`
      : `${name} owes you *${owed}*. How much did they pay you?`;
  return {
    type: 'modal',
    callback_id: SETTLE_FORM.callback,
    title: title('Record a payment'),
    submit: plain('Record payment'),
    close: plain('Cancel'),
    private_metadata: metadata(JSON.stringify(partMetaSchema.parse(meta))),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: clip(question, LIMITS.sectionText) } },
      input(
        SETTLE_FORM.amount,
        `Amount (${ref.c})`,
        {
          type: 'plain_text_input',
          initial_value: toDecimal(ref.a, currencyExponent(ref.c)),
        },
        {
          hint: `The whole ${owed} settles it; less records part of it. At most ${owed}.`,
        },
      ),
    ],
  };
}

/** What was typed as minor units of the debt's currency, or the error to show under the field. */
export function checkPartAmount(
  typed: string,
  ref: SettleRef,
  voice: Voice,
): { minor: number } | { error: string } {
  const locale = voice.locale;
  const read = parseAmount(typed, ref.c);
  if ('problem' in read) return { error: troubleText(voice, read.problem) };
  if (read.currency !== ref.c) {
    return { error: `This debt is in ${ref.c}: type the amount in ${ref.c}.` };
  }
  if (read.minor === 0) return { error: 'A payment must be more than zero.' };
  const owed = money(ref.a, ref.c, locale);
  if (read.minor > ref.a) {
    return {
      error: `That is more than the ${owed} owed: it would turn the debt around. Type at most ${owed}.`,
    };
  }
  return { minor: read.minor };
}
