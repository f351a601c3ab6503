/**
 * The form behind "Record part…": one amount, pre-filled with the whole debt, read by the same
 * amount grammar as `/split` (`12,50`, `€12.50`, `1 000`), in the debt's currency. Pure: the view,
 * its private_metadata, and the check of what was typed (errors go under the field), in the voice
 * of the locale the debt was shown in (the form opens before anything about the person is read).
 */
import { parseAmount } from '../../core/command/index.js';
import { Lru } from '../../core/lru.js';
import { currencyExponent, toDecimal } from '../../core/money.js';
import { object, oneOf, optional, string } from '../../core/schema.js';
import type { SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { LOCALES_KEPT } from '../../voice/index.js';
import { SETTLE_FORM } from '../ids.js';
import { modalView, section, textInput } from '../kit/blocks.js';
import { clip } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import { strong } from '../shared/balance-blocks.js';
import { input, type ModalView, metadata, plain, title } from '../shared/modal.js';
import type { Offers } from '../shared/offers.js';
import { troubleText } from '../shared/parse-problem.js';
import { type SettleRef, settleRefSchema } from '../shared/settle-ref.js';

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

/** The form's metadata: the meta, signed for the person the form opens for (shared/offers.ts). */
export function encodePartMeta(offers: Offers, holder: SlackUserKey, meta: PartMeta): string {
  return offers.make('pay-part', holder, JSON.stringify(partMetaSchema.parse(meta)));
}

/**
 * The metadata of a form `holder` submits: it names the response_url the outcome is posted to and
 * the balance paid, so one not made for them, or too old, is not read.
 */
export function parsePartMeta(
  offers: Offers,
  holder: SlackUserKey,
  text: string | undefined,
): PartMeta | undefined {
  const read = offers.read('pay-part', holder, text);
  if (!read.ok) return undefined;
  try {
    const parsed = partMetaSchema.safeParse(JSON.parse(read.value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

const decimalMarks = new Lru<string, string>(LOCALES_KEPT, 'settle-part.marks');

/**
 * The whole debt as a plain decimal for the amount field, with the decimal mark of the reader's
 * locale when it is a comma ("1234,50"): the amount grammar reads either mark, and no grouping
 * is written, so that nothing can be read as thousands.
 */
export function fieldAmount(minor: number, currency: string, voice: Voice): string {
  const mark = decimalMarks.getOrMake(voice.locale, (locale) => {
    const decimal = new Intl.NumberFormat(locale)
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value;
    return decimal === ',' ? ',' : '.';
  });
  return toDecimal(minor, currencyExponent(currency)).replace('.', mark);
}

/** The form, with `meta` as encodePartMeta signed it. */
export function partForm(meta: PartMeta, signed: string, voice: Voice): ModalView {
  const ref = meta.r;
  const owed = voice.money(ref.a, ref.c);
  const values = { name: strong(mrkdwn(clip(ref.n, 60))), amount: strong(owed) };
  const question =
    ref.p === 1
      ? voice.t('settle.form_question_you_paid', values)
      : voice.t('settle.form_question_they_paid', values);
  return modalView({
    callback_id: SETTLE_FORM.callback,
    title: title(voice.t('settle.form_title')),
    submit: plain(voice.t('settle.record_payment')),
    close: plain(voice.t('settle.cancel')),
    private_metadata: metadata(signed),
    blocks: [
      section(question),
      input(
        SETTLE_FORM.amount,
        voice.t('settle.form_amount', { currency: ref.c }),
        textInput({ initial_value: fieldAmount(ref.a, ref.c, voice) }),
        { hint: voice.t('settle.form_hint', { amount: owed }) },
      ),
    ],
  });
}

/**
 * What was typed as minor units of the debt's currency, or the error to show under the field
 * (plain text).
 */
export function checkPartAmount(
  typed: string,
  ref: SettleRef,
  voice: Voice,
): { minor: number } | { error: string } {
  const read = parseAmount(typed, ref.c);
  if ('problem' in read) return { error: troubleText(voice, read.problem) };
  if (read.currency !== ref.c) {
    return { error: voice.t('settle.form_other_currency', { currency: ref.c }) };
  }
  if (read.minor === 0) return { error: voice.t('settle.form_zero') };
  if (read.minor > ref.a) {
    return { error: voice.t('settle.form_too_much', { amount: voice.money(ref.a, ref.c) }) };
  }
  return { minor: read.minor };
}
