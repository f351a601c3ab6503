/**
 * "Pay part…": a debt chosen under a balance (or on the daily DM's confirmation) opens a form
 * with the amount, pre-filled with the whole debt. The whole amount takes Settle up's own path
 * (settle.ts: group by group, only while the balance is what was shown); less is one payment,
 * placed as `/split paid` places it (partial.ts).
 *
 * Once: the submission is claimed by its view id for an hour (a double submit or a redelivery
 * does nothing more), and the payment carries a marker derived from that view id in its notes,
 * so that a create whose outcome is unknown is looked for rather than sent again.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  Logger,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import {
  ServiceBaseException,
  type ServiceClient,
  ServiceNotFoundException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { SETTLE_FORM } from '../ids.js';
import { settleUnknown } from '../shared/booking.js';
import { middayIn, todayIn } from '../shared/dates.js';
import { bookingMarker, withMarker } from '../shared/marker.js';
import { plainNotice } from '../shared/notices.js';
import { replyViaResponseUrl } from '../shared/reply.js';
import { describeServiceFailure, serviceMessage } from '../shared/service-failure.js';
import { parseSettleRef, type SettleRef } from '../shared/settle-ref.js';
import { owedIn, paymentRecordedText, planPartial } from './partial.js';
import { changedText, recordedText, settle } from './settle.js';
import { checkPartAmount, type PartMeta, parsePartMeta, partForm } from './settle-part-views.js';

const NOTHING = 'Nothing was recorded.';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** "Pay part…": a menu option under a balance, or a button on the DM's confirmation. */
export function settlePartClicked() {
  return async (args: ActionArgs): Promise<void> => {
    await args.ack();
    const { body, client, logger } = args;
    const action = args.action as { value?: string; selected_option?: { value?: string } };
    const ref = parseSettleRef(action.value ?? action.selected_option?.value);
    if (!ref) {
      logger.warn('pay part: a value that does not parse');
      await args.respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: `This control is damaged, so I can't tell which debt it meant. ${NOTHING}`,
      });
      return;
    }
    const meta: PartMeta =
      body.view?.type === 'home'
        ? { r: ref, h: 1 }
        : { r: ref, ...(body.response_url ? { u: body.response_url } : {}) };
    // The trigger id works once and for 3 seconds: the form opens before anything is read.
    await client.views.open({ trigger_id: body.trigger_id, view: partForm(meta) });
  };
}

/** The form submitted: checked at once (errors under the field), recorded after the ack. */
export function settlePartSubmitted(deps: SlackDeps) {
  return async (args: SubmitArgs): Promise<void> => {
    const { view, body, logger } = args;
    const meta = parsePartMeta(view.private_metadata);
    const typed = view.state.values[SETTLE_FORM.amount]?.[SETTLE_FORM.amount]?.value ?? '';
    if (!meta) {
      await args.ack({
        response_action: 'errors',
        errors: {
          [SETTLE_FORM.amount]: `This form is damaged. ${NOTHING} Close it and use Settle up again.`,
        },
      });
      return;
    }
    const checked = checkPartAmount(typed, meta.r);
    if ('error' in checked) {
      await args.ack({
        response_action: 'errors',
        errors: { [SETTLE_FORM.amount]: checked.error },
      });
      return;
    }
    await args.ack();
    const user = { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
    const tell = async (text: string) => {
      if (meta.h) return deps.hooks.publishHome(args.client, user, logger, text);
      if (meta.u) {
        try {
          return await replyViaResponseUrl(meta.u).ephemeral(plainNotice(text));
        } catch (error) {
          logger.warn(`pay part: response_url failed: ${(error as Error).message}`);
        }
      }
      const slack = await deps.slack.forTeam(user.team_id);
      await slack.chat.postMessage({ channel: user.user_id, ...plainNotice(text) });
    };
    deps.work.push(async () => {
      try {
        await recordPart(deps, user, view.id, meta.r, checked.minor, tell, logger);
      } catch (error) {
        logger.error(`pay part: ${(error as Error).stack ?? String(error)}`);
        await tell(`Something went wrong on my side. ${NOTHING} Try again in a minute.`).catch(
          (again: Error) => logger.error(`pay part: could not tell: ${again.message}`),
        );
      }
    });
  };
}

async function recordPart(
  deps: SlackDeps,
  user: SlackUserKey,
  viewId: string,
  ref: SettleRef,
  minor: number,
  tell: (text: string) => Promise<void>,
  logger: Logger,
): Promise<void> {
  const key = `settle-part:${user.team_id}:${user.user_id}:${viewId}`;
  if (!(await deps.claims.claim(key, DEDUPE_TTL_MS))) {
    logger.info('pay part: this form was already submitted, ignored');
    return;
  }
  const giveBack = () =>
    deps.claims
      .release(key)
      .catch((error: Error) => logger.warn(`pay part: release failed: ${error.message}`));
  const record = await deps.tokens.get(user);
  if (!record) {
    await giveBack();
    await tell(`Connect your expense account first: \`/split connect\`. ${NOTHING}`);
    return;
  }
  const client = deps.service.forLink(record);
  const person = await deps.directory.slackUser(user.team_id, user.user_id).catch(() => undefined);
  const locale = person?.locale;
  try {
    if (minor === ref.a) {
      // The whole debt: exactly Settle up.
      const outcome = await settle(client, record.service_user_id, ref);
      if (outcome.kind === 'recorded') return tell(`✅ ${recordedText(ref, locale)}`);
      await giveBack();
      if (outcome.kind === 'changed') return tell(changedText(ref, outcome.now, locale));
      if (outcome.kind === 'refused')
        return tell(`The expense service refused the payment: ${outcome.reason}. ${NOTHING}`);
      return tell(
        `I recorded ${outcome.recorded} of the ${outcome.of} payments (one per group), then the expense service failed. Use Settle up again for the rest: it checks the balance first.`,
      );
    }
    const text = await payPart({
      deps,
      client,
      record,
      ref,
      minor,
      marker: bookingMarker(key),
      today: todayIn(person?.tz, deps.now()),
      tz: person?.tz,
      locale,
      logger,
      tell,
    });
    if (text === undefined) await giveBack();
    else await tell(text);
  } catch (error) {
    await giveBack();
    const failure = describeServiceFailure(error, NOTHING);
    if (failure.relink) {
      await deps.tokens.delete(user);
      deps.directory.forget(user);
    }
    if (!(error instanceof ServiceBaseException)) throw error;
    logger.warn(`pay part failed: ${error.message}`);
    await tell(failure.text);
  }
}

/**
 * Records part of a friend debt; returns what to tell, or undefined after telling why not (the
 * claim is then given back so the form can be sent again).
 */
async function payPart(input: {
  deps: SlackDeps;
  client: ServiceClient;
  record: ServiceTokenRecord;
  ref: SettleRef;
  minor: number;
  marker: string;
  today: string;
  tz: string | undefined;
  locale: string | undefined;
  logger: Logger;
  tell(text: string): Promise<void>;
}): Promise<string | undefined> {
  const { deps, client, ref, minor, locale, tell } = input;
  const me = input.record.service_user_id;
  const friend = await client.getFriend(ref.id).catch((error: unknown) => {
    if (error instanceof ServiceNotFoundException) return undefined;
    throw error;
  });
  const direction = ref.p === 1 ? 'to' : 'from';
  if (!friend) {
    await tell(`You and ${ref.n} share no balance any more. ${NOTHING}`);
    return undefined;
  }
  const name = [friend.first_name, friend.last_name].filter(Boolean).join(' ') || ref.n;
  const plan = planPartial({ friend, name, direction, amount: minor, currency: ref.c, locale });
  if (!plan.ok) {
    await tell(`${plan.reason} ${NOTHING}`);
    return undefined;
  }
  const [debtor, creditor] = direction === 'to' ? [me, friend.id] : [friend.id, me];
  const amount = toWireAmount(minor, currencyExponent(ref.c));
  const sentAt = Date.now();
  let created = false;
  try {
    const result = await client.createExpense({
      description: 'Payment',
      payment: true,
      cost: amount,
      currency_code: ref.c,
      date: middayIn(input.today, input.tz),
      details: withMarker(undefined, input.marker),
      ...(plan.group_id !== 0 ? { group_id: plan.group_id } : {}),
      users: [
        { user_id: debtor, paid_share: amount, owed_share: '0' },
        { user_id: creditor, paid_share: '0', owed_share: amount },
      ],
    });
    if (!result.expense) {
      await tell(
        `The expense service refused the payment: ${serviceMessage(result.errors) ?? 'it gave no reason'}. ${NOTHING}`,
      );
      return undefined;
    }
    created = true;
  } catch (error) {
    if (!(error instanceof ServiceBaseException) || !error.outcome_unknown) throw error;
    input.logger.warn(`pay part: create outcome unknown (${error.name}); reconciling`);
    const found = await settleUnknown(
      {
        deps,
        user: { team_id: '', user_id: '' },
        record: input.record,
        client,
        tz: undefined,
        locale,
        reply: { ephemeral: (m) => tell(m.text), inChannel: (m) => tell(m.text) },
        logger: input.logger,
        fail: async () => undefined,
        problem: plainNotice,
        once: { marker: input.marker, sentAt, sending: async () => undefined },
      },
      'Payment',
      input.today,
      plan.group_id !== 0 ? plan.group_id : undefined,
      sentAt,
    );
    if (found === 'unknown') {
      return `The expense service didn't confirm the payment, and I couldn't check whether it was recorded: look at your balance with ${name} before trying again.`;
    }
    if (found === null) {
      await tell(
        `The expense service didn't record the payment. ${NOTHING} It's safe to try again.`,
      );
      return undefined;
    }
    created = true;
  }
  const left = created
    ? await client
        .getFriend(friend.id)
        .then((f) => owedIn(f.balance, direction).get(ref.c) ?? 0)
        .catch(() => undefined)
    : undefined;
  return `✅ ${paymentRecordedText({ name, direction, amount: minor, currency: ref.c, left, group: null, locale })}`;
}
