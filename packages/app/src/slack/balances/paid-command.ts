/**
 * `/split paid @ann 15` and `/split @ann paid me 15`: a payment of part of a balance. The balance
 * with that person is read first (currency, limit, group: partial.ts); the payment is then booked
 * by the shared booking, so that it carries the command's marker and happens once however often
 * the command runs.
 */
import { type ResolvedPerson, resolvePeople } from '../../accounts/people.js';
import { PAY_EXAMPLE, parseAmount } from '../../core/command/index.js';
import type { Friend, ServiceClient } from '../../service/index.js';
import type { ServiceTokenRecord } from '../../store/index.js';
import { type Voice, voiceFor } from '../../voice/index.js';
import type { Once } from '../booking/index.js';
import { bookPlan, findBooking, problemText, singleUse } from '../booking/index.js';
import { mrkdwn } from '../kit/text.js';
import { notice, problem, sentences } from '../shared/balance-blocks.js';
import { errorNotice } from '../shared/notices.js';
import { troubleText } from '../shared/parse-problem.js';
import { linked, type SplitContext, tellFailure } from '../shared/split-context.js';
import { TOLD, type Told, told } from '../shared/told.js';
import { friendOrNone, owedAfter } from './friend.js';
import {
  amountsText,
  owedIn,
  paymentCurrency,
  paymentRecordedText,
  planPartial,
} from './partial.js';

/**
 * A person as Slack names them in text: first and last name, else the display name; undefined
 * when Slack does not know them.
 */
export function slackName(person: ResolvedPerson): string | undefined {
  const slack = person.slack;
  if (!slack) return undefined;
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

type Paid = SplitContext<'paid'>;
type Link = { client: ServiceClient; record: ServiceTokenRecord };

/** Who the payment is with: their friendship on the service, and what to call them. */
interface Counterpart {
  friend: Friend;
  name: string;
}

/** What is paid, in minor units of `currency`, and the group it goes into (null for none). */
interface PlannedPayment {
  minor: number;
  currency: string;
  /** The group's name is null when the caller's cached groups don't have it. */
  group: { id: number; name: string | null } | null;
}

function exampleFor(c: Paid): string {
  return c.parsed.payment.direction === 'to' ? PAY_EXAMPLE : '/split @ann paid me 15';
}

export async function paidCommand(c: Paid): Promise<void> {
  const voice = c.voice;
  if (c.parsed.payment.person === c.user.user_id) {
    await c.reply.ephemeral(problem(voice, voice.t('settle.paid_self'), exampleFor(c)));
    return;
  }
  const link = await linked(c);
  if (told(link)) return;
  const once = c.inv.once ?? singleUse();
  try {
    if (await recordedBefore(c, link.client, once, voice)) return;
    const counterpart = await counterpartOf(c, link, voice);
    if (told(counterpart)) return;
    const planned = await plannedPayment(c, link.client, counterpart, voice);
    if (told(planned)) return;
    await bookPayment(c, link, once, counterpart, planned, voice);
  } catch (error) {
    await tellFailure(c, error, voice.t('settle.nothing_recorded'));
  }
}

/**
 * A run after a crash first looks for the payment an earlier run may have sent: the balance it
 * would read now may already include it. True once the person was told it was recorded.
 */
async function recordedBefore(
  c: Paid,
  client: ServiceClient,
  once: Once,
  voice: Voice,
): Promise<boolean> {
  if (once.sentAt === undefined) return false;
  const found = await findBooking(client, once.marker, c.ctx.today, undefined);
  if (!found || found === 'unknown') return false;
  await c.reply.ephemeral(notice(voice.t('settle.paid_before')));
  return true;
}

/** The person paid or paying, as the caller's friend; TOLD once the caller was told why not. */
async function counterpartOf(c: Paid, link: Link, voice: Voice): Promise<Counterpart | Told> {
  const { person: slackId } = c.parsed.payment;
  const people = await resolvePeople({
    caller: { ...c.user, service_user_id: link.record.service_user_id },
    ids: [slackId],
    tokens: c.deps.tokens,
    directory: c.deps.directory,
    lookups: c.lookups,
    client: link.client,
  });
  if ('problem' in people) {
    await c.reply.ephemeral(
      errorNotice(c.voice, problemText(c.voice, people.problem), exampleFor(c)),
    );
    return TOLD;
  }
  const person = people.people.get(slackId);
  const name = person ? slackName(person) : undefined;
  const friend = person ? await friendOf(link.client, person) : undefined;
  if (!friend) {
    await c.reply.ephemeral(
      problem(
        voice,
        name
          ? voice.t('settle.no_balance', { name: mrkdwn(name) })
          : voice.t('settle.no_balance_someone'),
        `/split 40 lunch @ann`,
      ),
    );
    return TOLD;
  }
  return {
    friend,
    name:
      [friend.first_name, friend.last_name].filter(Boolean).join(' ') ||
      name ||
      friend.email ||
      `#${friend.id}`,
  };
}

/**
 * The payment as the balance allows it (partial.ts): its currency, its amount, and the group it
 * pays back in; TOLD once the caller was told why it can't be recorded.
 */
async function plannedPayment(
  c: Paid,
  client: ServiceClient,
  { friend, name }: Counterpart,
  voice: Voice,
): Promise<PlannedPayment | Told> {
  const { direction, amountText } = c.parsed.payment;
  const currency = paymentCurrency(
    friend,
    direction,
    c.parsed.payment.currency,
    c.ctx.defaultCurrency,
  );
  if (!currency) {
    const values = {
      name: mrkdwn(name),
      amounts: amountsText(owedIn(friend.balance, direction), voice),
    };
    await c.reply.ephemeral(
      problem(
        voice,
        direction === 'to'
          ? voice.t('settle.which_currency_you_owe', values)
          : voice.t('settle.which_currency_owes_you', values),
        direction === 'to' ? '/split paid @ann €15' : '/split @ann paid me €15',
      ),
    );
    return TOLD;
  }
  const amount = parseAmount(amountText, currency);
  if ('problem' in amount) {
    await c.reply.ephemeral(
      errorNotice(c.voice, troubleText(c.voice, amount.problem), exampleFor(c)),
    );
    return TOLD;
  }
  const plan = planPartial(
    { friend, name, direction, amount: amount.minor, currency: amount.currency },
    voice,
  );
  if (!plan.ok) {
    await c.reply.ephemeral(
      problem(
        voice,
        sentences(voice, plan.reason, voice.t('settle.nothing_recorded')),
        exampleFor(c),
      ),
    );
    return TOLD;
  }
  if (plan.group_id === 0) return { minor: amount.minor, currency: amount.currency, group: null };
  const groups = await c.deps.directory.groups(c.user, client);
  const groupName = groups.find((g) => g.id === plan.group_id)?.name ?? null;
  return {
    minor: amount.minor,
    currency: amount.currency,
    group: { id: plan.group_id, name: groupName },
  };
}

/**
 * The payment's name at the service, in the payer's words: the caller's when they paid; when the
 * other person did, theirs, from the Slack profile read a moment ago to find them (the caller's
 * when Slack did not say).
 */
async function paymentDescription(c: Paid, voice: Voice): Promise<string> {
  const { direction, person } = c.parsed.payment;
  const payer =
    direction === 'to' ? undefined : c.deps.directory.knownSlackUser(c.user.team_id, person);
  const words = payer?.locale ? await voiceFor({ locale: payer.locale, tz: payer.tz }) : voice;
  return words.t('settle.payment_description');
}

/** Books the payment through the shared booking, then says what is left owed. */
async function bookPayment(
  c: Paid,
  link: Link,
  once: Once,
  { friend, name }: Counterpart,
  planned: PlannedPayment,
  voice: Voice,
): Promise<void> {
  const { direction, person } = c.parsed.payment;
  const [payer, other] = direction === 'to' ? [c.user.user_id, person] : [person, c.user.user_id];
  const description = await paymentDescription(c, voice);
  const done = await bookPlan(
    {
      deps: c.deps,
      user: c.user,
      record: link.record,
      client: link.client,
      lookups: c.lookups,
      tz: c.me?.tz,
      voice: c.voice,
      reply: c.reply,
      logger: c.logger,
      fail: (error) => tellFailure(c, error, voice.t('settle.nothing_recorded')),
      problem: (message, example) => errorNotice(c.voice, message, example),
      once,
    },
    {
      description,
      payment: true,
      cost: planned.minor,
      currency: planned.currency,
      date: c.ctx.today,
      payer,
      participants: [other],
      wholeGroup: false,
      split: { kind: 'equal' },
      group: planned.group
        ? { id: planned.group.id, name: planned.group.name ?? '', members: undefined }
        : null,
    },
  );
  if (told(done)) return;
  c.logger.info({ msg: '/split paid: payment {done_id} recorded', done_id: done.booked.id });
  const after = await owedAfter(link.client, friend.id, direction, planned.currency);
  await c.reply.ephemeral(
    notice(
      `✅ ${paymentRecordedText(
        {
          name,
          direction,
          amount: planned.minor,
          currency: planned.currency,
          left: after,
          group: planned.group?.name ?? null,
        },
        voice,
      )}`,
    ),
  );
}
