/**
 * What the app offers one person through their Slack client and reads back from it: a button's
 * value or a modal's private_metadata that names a conversation, a thread, a message to update or
 * a file. Slack signs its own fields of a payload (who clicked, in which team, in which
 * conversation); the values the app wrote come back as the person's client sends them, and a
 * member could send any. Each such value is signed for what it is and for whom it was made, with
 * an expiry, so that the app acts on it only for that person and only for as long as it meant to:
 * never reading or posting with the bot's rights where that person could not.
 */
import type { Signer, SlackUserKey, Verified } from '../../store/index.js';

/** What a signed value is for: a value made for one never passes as another. */
export type OfferPurpose =
  /** The form offered by a mention or a DM: its conversation and thread. */
  | 'form-offer'
  /** An open modal's origin: where its result is posted, what it edits, the files offered. */
  | 'modal'
  /** Record part's form: the balance it pays and the message it answers. */
  | 'pay-part';

/** A day: longer than anyone keeps a form open or an offer unanswered. */
export const OFFER_TTL_MS = 24 * 60 * 60_000;

export interface Offers {
  /** `value`, signed for `holder` and `purpose`, valid for `ttlMs`. */
  make(purpose: OfferPurpose, holder: SlackUserKey, value: string, ttlMs?: number): string;
  /** The value, when it was made by `make` for this holder and purpose and has not expired. */
  read(purpose: OfferPurpose, holder: SlackUserKey, signed: string | undefined): Verified;
}

function context(purpose: OfferPurpose, holder: SlackUserKey): string {
  return `${purpose}\n${holder.team_id}\n${holder.user_id}`;
}

export function createOffers(signer: Signer, now: () => Date): Offers {
  return {
    make(purpose, holder, value, ttlMs = OFFER_TTL_MS) {
      return signer.sign(context(purpose, holder), value, now().getTime() + ttlMs);
    },
    read(purpose, holder, signed) {
      return signer.verify(context(purpose, holder), signed, now().getTime());
    },
  };
}
