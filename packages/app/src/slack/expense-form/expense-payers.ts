/** Who paid a booked expense, as the form shows it when it is edited or duplicated. */
import { currencyExponent, parseMinor } from '../../core/money.js';
import type { Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';

interface ExpensePayers {
  /** The Slack user who paid the most; undefined when that person has no Slack account here. */
  payer: string | undefined;
  /** The others who paid part of it, by Slack id (people without one cannot be shown). */
  alsoPaid: string[];
  /** What each payer with a Slack id paid, as the field shows it to the person (amountInput). */
  paid: Record<string, string>;
}

export function expensePayers(
  users: readonly { user_id: number; paid_share: string }[],
  slackOf: (serviceUserId: number) => string | undefined,
  currency: string,
  voice: Pick<Voice, 'locale'>,
): ExpensePayers {
  const minor = (text: string) => parseMinor(text, currencyExponent(currency));
  const top = [...users].sort((a, b) => minor(b.paid_share) - minor(a.paid_share))[0];
  const paying = users.filter((u) => minor(u.paid_share) > 0);
  const alsoPaid = paying
    .filter((u) => u !== top)
    .flatMap((u) => {
      const slack = slackOf(u.user_id);
      return slack ? [slack] : [];
    });
  const paid: Record<string, string> = Object.create(null);
  for (const u of paying) {
    const slack = slackOf(u.user_id);
    if (slack) paid[slack] = amountInput(minor(u.paid_share), currency, voice);
  }
  return { payer: top ? slackOf(top.user_id) : undefined, alsoPaid, paid };
}
