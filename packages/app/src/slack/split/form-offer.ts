/**
 * The form offered where no trigger id came with the command: a mention or a DM brings none, and
 * a modal opens only with one. The offer is a private message with a button; the click brings a
 * fresh trigger id and opens the form, whose expense is posted in the thread the offer was made
 * in. "Split this" in a thread fills the form from the thread's first message, read once the
 * form is open (the trigger lives 3 seconds).
 */
import type { Context, Logger, types, webApi } from '@slack/bolt';
import { literal, object, optional, string } from '../../core/schema.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { TALK_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  mrkdwnObject,
  plainTextObject,
  sectionBlock,
} from '../kit/blocks.js';
import type { SlackMessage } from '../kit/message.js';
import { type ButtonArgs, clickerOf, readClick } from '../runtime/click.js';
import { filesOf, type SourceMessage } from '../shared/message-files.js';
import type { Offers } from '../shared/offers.js';
import { told } from '../shared/told.js';
import type { Voice } from '../shared/voice.js';

/**
 * Opens the expense form (the expense-form feature's, handed in) for an empty `/split`, or from
 * the offer a mention or a DM is answered with (for its thread, and for "split this" filled in
 * from the thread's first message, read once the form is open).
 */
export type OpenForm = (request: {
  /** The request's, whose voice the form opens in. */
  context: Context;
  client: webApi.WebClient;
  logger: Logger;
  trigger_id: string;
  user: SlackUserKey;
  channel: string;
  thread_ts?: string | undefined;
  readMessage?: () => Promise<SourceMessage | undefined>;
}) => Promise<void>;

/** Where the offered form belongs: a conversation, its thread, and whether to fill it in. */
export interface FormRef {
  channel: string;
  thread_ts: string | undefined;
  /** Filled in from the thread's first message ("split this"). */
  fromThread: boolean;
  /** That message is a photo sent to the app, which the form reads. */
  photo?: boolean;
}

const TS = /^\d{1,12}\.\d{1,6}$/;

const refSchema = object({
  c: string({ max: 24, regex: /^[CGD][A-Z0-9]{2,}$/ }),
  t: optional(string({ regex: TS })),
  p: optional(literal(1)),
  r: optional(literal(1)),
});

export function encodeFormRef(ref: FormRef): string {
  return JSON.stringify({
    c: ref.channel,
    ...(ref.thread_ts ? { t: ref.thread_ts } : {}),
    ...(ref.fromThread ? { p: 1 } : {}),
    ...(ref.photo ? { r: 1 } : {}),
  });
}

export function parseFormRef(value: string | undefined): FormRef | undefined {
  const parsed = refSchema.readJson(value);
  if (!parsed) return undefined;
  const { c, t, p, r } = parsed;
  // Only a thread has a first message to fill the form from.
  if (p === 1 && t === undefined) return undefined;
  return { channel: c, thread_ts: t, fromThread: p === 1, ...(r === 1 ? { photo: true } : {}) };
}

/**
 * The offer's value: the ref signed for the person it is offered to. The click makes the app read
 * that conversation's thread with the bot's rights and post there, so a value the person's client
 * made up (another channel, another person's DM) must never be acted on.
 */
export function offeredFormRef(offers: Offers, holder: SlackUserKey, ref: FormRef): string {
  return offers.make('form-offer', holder, encodeFormRef(ref));
}

/** Why a click's value is not acted on: made up or damaged, or offered too long ago. */
type Refused = 'damaged' | 'expired';

/**
 * The ref a click carries, when the app offered it to the clicker, in the conversation the click
 * came from (Slack says which), and not too long ago.
 */
export function readOfferedRef(
  offers: Offers,
  clicker: SlackUserKey,
  clickedIn: string | undefined,
  value: string | undefined,
): FormRef | Refused {
  const read = offers.read('form-offer', clicker, value);
  if (!read.ok) return read.reason === 'expired' ? 'expired' : 'damaged';
  const ref = parseFormRef(read.value);
  if (!ref || (clickedIn !== undefined && clickedIn !== ref.channel)) return 'damaged';
  return ref;
}

/** The private offer: what the button does, and the button, whose value is `offeredFormRef`'s. */
export function formOffer(voice: Voice, ref: FormRef, value: string): SlackMessage {
  const text = voice.t(
    ref.photo ? 'talk.photo_offer' : ref.fromThread ? 'talk.split_this_offer' : 'talk.form_offer',
  );
  const label = voice.t(ref.fromThread ? 'talk.split_this_button' : 'talk.form_button');
  const blocks: types.KnownBlock[] = [
    sectionBlock({ text: mrkdwnObject({ text }) }),
    actionsBlock({
      elements: [
        buttonElement({
          action_id: TALK_ACTIONS.openForm,
          style: 'primary',
          text: plainTextObject({ text: label, emoji: true }),
          value,
        }),
      ],
    }),
  ];
  return { text, blocks };
}

/**
 * The thread's first message, with the bot's token (history scopes of the conversation's kind);
 * undefined when it cannot be read, so that the form opens empty rather than not at all.
 */
export async function threadParent(
  client: webApi.WebClient,
  channel: string,
  thread_ts: string,
  logger: Logger,
): Promise<SourceMessage | undefined> {
  try {
    const answer = await client.conversations.replies({ channel, ts: thread_ts, limit: 1 });
    const first = answer.messages?.[0];
    if (!first) return undefined;
    const files = filesOf(first);
    return {
      text: first.text ?? '',
      author: first.bot_id ? undefined : first.user,
      ...(files.length > 0 ? { files } : {}),
    };
  } catch (error) {
    logger.warn({
      msg: "split this: the thread's first message was not read: {error}",
      error: (error as Error).message,
    });
    return undefined;
  }
}

/** The offer's button: the form opens, for the thread it was offered in. */
export function formOfferClicked(deps: SlackDeps, openForm: OpenForm) {
  return async (args: ButtonArgs): Promise<void> => {
    let refused: Refused = 'damaged';
    const read = (value: string | undefined) => {
      const ref = readOfferedRef(deps.offers, clickerOf(args.body), args.body.channel?.id, value);
      if (typeof ref !== 'string') return ref;
      refused = ref;
      return undefined;
    };
    const click = await readClick(args, read, (voice) =>
      voice.t(refused === 'expired' ? 'talk.offer_expired' : 'talk.offer_damaged'),
    );
    if (told(click)) return;
    const { ref } = click;
    const { client, logger } = args;
    // Only a thread has a first message to fill the form from (parseFormRef refuses the rest).
    const parent = ref.fromThread ? ref.thread_ts : undefined;
    await openForm({
      context: args.context,
      client,
      logger,
      trigger_id: args.body.trigger_id,
      user: clickerOf(args.body),
      channel: ref.channel,
      thread_ts: ref.thread_ts,
      ...(parent ? { readMessage: () => threadParent(client, ref.channel, parent, logger) } : {}),
    });
  };
}
