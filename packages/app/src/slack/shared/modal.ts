/**
 * What every modal of the app shares: the voice its answers are in, and private_metadata (where
 * the modal came from, parsed with a schema). Its builders and Slack's view limits are the kit's,
 * handed on here for the modals that import them from this file.
 */
import type { Context, Logger, types } from '@slack/bolt';
import { type Infer, int, literal, object, optional, string } from '../../core/schema.js';
import type { SlackUserKey } from '../../store/index.js';
import { VIEW_LIMITS } from '../kit/limits.js';
import type { Offers } from './offers.js';
import { carriedVoice, voiceIn } from './voice.js';

export type ModalView = types.ModalView;

export { input, plain, title } from '../kit/blocks.js';
export { VIEW_LIMITS } from '../kit/limits.js';

export function metadata(text: string): string {
  if (text.length > VIEW_LIMITS.privateMetadata) {
    // Cutting JSON would make it unreadable; the callers keep it to a few ids, so this is a bug.
    throw new Error(`private_metadata of ${text.length} characters (Slack takes 3000)`);
  }
  return text;
}

/**
 * private_metadata: where the form came from, never the values (they can be 3000 characters).
 * It names where the result is posted and which message is updated, with the bot's rights, so it
 * is signed for the person the form was opened for (offers.ts): a made-up one is never acted on.
 */
export const FormMeta = object({
  v: literal(1),
  /** Channel for the answer. */
  c: optional(string({ max: 40 })),
  /** Thread to answer in (Split this). */
  t: optional(string({ max: 40 })),
  /** The expense message to update after an edit. */
  m: optional(string({ max: 40 })),
  /** Expense id when editing. */
  e: optional(int({ min: 1 })),
  /** The person's time zone, for "today" and the date check. */
  z: optional(string({ max: 64 })),
  /** The person's Slack locale, so that later steps show amounts as the first one did. */
  l: optional(string({ max: 35 })),
  /** "Split this": the message's file offered as the receipt, the only one taken from a message. */
  f: optional(string({ max: 24, regex: /^F[A-Z0-9]{2,23}$/ })),
});
export type FormMeta = Infer<typeof FormMeta>;

export function encodeMeta(
  offers: Offers,
  holder: SlackUserKey,
  meta: Omit<FormMeta, 'v'>,
): string {
  return offers.make('modal', holder, JSON.stringify({ v: 1, ...meta }));
}

/**
 * The metadata of a form `holder` submits or acts in: undefined when it was not made for them
 * (or was damaged), 'expired' when it was made too long ago.
 */
export function parseMeta(
  offers: Offers,
  holder: SlackUserKey,
  text: string | undefined,
): FormMeta | 'expired' | undefined {
  const read = offers.read('modal', holder, text);
  if (!read.ok) return read.reason === 'expired' ? 'expired' : undefined;
  try {
    const parsed = FormMeta.safeParse(JSON.parse(read.value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the person reads under a field when a form's metadata was not made for them or is too old:
 * nothing was done, and a new form works.
 */
export async function metaRefusal(
  context: Context,
  meta: 'expired' | undefined,
  logger: Pick<Logger, 'warn'>,
): Promise<string> {
  logger.warn({
    msg: "a form's private_metadata {refused}",
    refused: meta === 'expired' ? 'expired' : 'was refused',
  });
  const voice = await voiceOfForm(context, meta);
  return voice.t(meta === 'expired' ? 'form.meta_expired' : 'form.meta_refused');
}

/**
 * The voice a form opened in, kept in its private_metadata (see carriedVoice): no lookup within
 * the 3 seconds an answer to it has. Metadata not made for the person (or too old) is not read:
 * the person's own voice is, waited for a moment only.
 */
export function voiceOfForm(context: Context, meta: FormMeta | 'expired' | undefined) {
  return typeof meta === 'object' ? carriedVoice(meta) : voiceIn(context, { quick: true });
}
