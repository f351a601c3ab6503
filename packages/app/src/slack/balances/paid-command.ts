/**
 * `/split paid @ann 15` and `/split @ann paid me 15`: a payment of part of a balance. The balance
 * with that person is read first (currency, limit, group: partial.ts); the payment is then booked
 * by the shared booking, so that it carries the command's marker and happens once however often
 * the command runs.
 */
import { type ResolvedPerson, resolvePeople } from '../../accounts/people.js';
import { PAY_EXAMPLE, parseAmount } from '../../core/command/index.js';
import type { Friend, ServiceClient } from '../../service/index.js';
import { bookPlan, problemText, singleUse } from '../shared/booking.js';
import { money } from '../shared/format.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { findBooking } from '../shared/reconcile.js';
import { linked, type SplitContext, tellFailure } from '../shared/split-context.js';
import { friendOrNone, owedAfter } from './friend.js';
import { owedIn, paymentCurrency, paymentRecordedText, planPartial } from './partial.js';

const NOTHING = 'Nothing was recorded.';

/** A person as Slack names them in text: first and last name, else the display name. */
export function slackName(person: ResolvedPerson): string {
  const slack = person.slack;
  if (!slack) return 'them';
  return [slack.first_name, slack.last_name].filter(Boolean).join(' ') || slack.name;
}

/**
 * The person as the caller's friend on the service, with the balance between them; undefined
 * when they share none. Someone found only by e-mail (a cached friend list that predates them) is
 * looked for among the caller's friends afresh.
 */
export async function friendOf(
  client: ServiceClient,
  person: ResolvedPerson,
): Promise<Friend | undefined> {
  const ref = person.ref;
  if ('user_id' in ref) {
    return friendOrNone(client, ref.user_id);
  }
  const email = ref.email.toLowerCase();
  return (await client.getFriends()).find((f) => f.email?.toLowerCase() === email);
}

export async function paidCommand(c: SplitContext<'paid'>): Promise<void> {
  const payment = c.parsed.payment;
  const example = payment.direction === 'to' ? PAY_EXAMPLE : '/split @ann paid me 15';
  if (payment.person === c.user.user_id) {
    await c.reply.ephemeral(errorNotice('A payment needs someone other than you.', example));
    return;
  }
  const link = await linked(c);
  if (!link) return;
  const { client, record } = link;
  const me = record.service_user_id;
  const locale = c.ctx.locale;
  const once = c.inv.once ?? singleUse();
  try {
    // A run after a crash first looks for the payment an earlier run may have sent: the balance
    // it would read now may already include it.
    if (once.sentAt !== undefined) {
      const found = await findBooking(client, once.marker, c.ctx.today, undefined);
      if (found && found !== 'unknown') {
        await c.reply.ephemeral(plainNotice('That payment was recorded.'));
        return;
      }
    }
    const people = await resolvePeople({
      caller: { ...c.user, service_user_id: me },
      ids: [payment.person],
      tokens: c.deps.tokens,
      directory: c.deps.directory,
      client,
    });
    if ('problem' in people) {
      await c.reply.ephemeral(errorNotice(problemText(people.problem), example));
      return;
    }
    const person = people.people.get(payment.person);
    let name = person ? slackName(person) : 'them';
    const friend = person ? await friendOf(client, person) : undefined;
    if (!friend) {
      await c.reply.ephemeral(
        errorNotice(
          `You and ${name} share no balance in the expense service, so there is nothing to pay back. ${NOTHING}`,
          `/split 40 lunch @ann`,
        ),
      );
      return;
    }
    name = [friend.first_name, friend.last_name].filter(Boolean).join(' ') || name;
    const currency = paymentCurrency(
      friend,
      payment.direction,
      payment.currency,
      c.ctx.defaultCurrency,
    );
    if (!currency) {
      const owed = [...owedIn(friend.balance, payment.direction)]
        .map(([code, minor]) => money(minor, code, locale))
        .join(' and ');
      await c.reply.ephemeral(
        errorNotice(
          `${payment.direction === 'to' ? `You owe ${name}` : `${name} owes you`} ${owed}: say which currency the payment is in. ${NOTHING}`,
          payment.direction === 'to' ? '/split paid @ann €15' : '/split @ann paid me €15',
        ),
      );
      return;
    }
    const amount = parseAmount(payment.amountText, currency);
    if ('error' in amount) {
      await c.reply.ephemeral(errorNotice(amount.error, example));
      return;
    }
    const plan = planPartial({
      friend,
      name,
      direction: payment.direction,
      amount: amount.minor,
      currency: amount.currency,
      locale,
    });
    if (!plan.ok) {
      await c.reply.ephemeral(errorNotice(`${plan.reason} ${NOTHING}`, example));
      return;
    }
    const groupName =
      plan.group_id === 0
        ? null
        : ((await c.deps.directory.groups(c.user, client)).find((g) => g.id === plan.group_id)
            ?.name ?? null);
    const [payer, other] =
      payment.direction === 'to'
        ? [c.user.user_id, payment.person]
        : [payment.person, c.user.user_id];
    const done = await bookPlan(
      {
        deps: c.deps,
        user: c.user,
        record,
        client,
        tz: c.me?.tz,
        locale,
        reply: c.reply,
        logger: c.logger,
        fail: (error) => tellFailure(c, error, NOTHING),
        problem: errorNotice,
        once,
      },
      {
        description: 'Payment',
        payment: true,
        cost: amount.minor,
        currency: amount.currency,
        date: c.ctx.today,
        payer,
        participants: [other],
        wholeGroup: false,
        split: { kind: 'equal' },
        group:
          plan.group_id === 0
            ? null
            : { id: plan.group_id, name: groupName ?? '', members: undefined },
      },
    );
    if (!done) return;
    c.logger.info(`/split paid: payment ${done.booked.id} recorded`);
    const after = await owedAfter(client, friend.id, payment.direction, amount.currency);
    await c.reply.ephemeral(
      plainNotice(
        `✅ ${paymentRecordedText({
          name,
          direction: payment.direction,
          amount: amount.minor,
          currency: amount.currency,
          left: after,
          group: groupName,
          locale,
        })}`,
      ),
    );
  } catch (error) {
    await tellFailure(c, error, NOTHING);
  }
}
