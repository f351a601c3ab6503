/**
 * "Record part…": a debt chosen under a balance (or on the daily DM's confirmation) opens a form
 * with the amount, pre-filled with the whole debt. The whole amount takes Settle up's own path
 * (settle.ts: group by group, only while the balance is what was shown); less is one payment,
 * placed as `/split paid` places it (partial.ts).
 *
 * The submission is written to the durable job queue before the form closes, keyed by its view
 * id, and carried out by whichever replica holds it (settle-part-job.ts); a double submit or a
 * redelivery finds the job already there and adds nothing.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { SETTLE_FORM } from '../ids.js';
import { clickerOf } from '../runtime/click.js';
import { type Kept, keepInTime } from '../runtime/keep-in-time.js';
import { notice } from '../shared/balance-blocks.js';
import { parseSettleRef } from '../shared/settle-ref.js';
import { carriedVoice, voiceIn } from '../shared/voice.js';
import { type PartJob, partJobId, SETTLE_PART_JOB } from './settle-part-job.js';
import {
  checkPartAmount,
  encodePartMeta,
  type PartMeta,
  parsePartMeta,
  partForm,
} from './settle-part-views.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** "Record part…": a menu option under a balance, or a button on the DM's confirmation. */
export function settlePartClicked(deps: SlackDeps) {
  return async (args: ActionArgs): Promise<void> => {
    await args.ack();
    const { body, client, logger } = args;
    const action = args.action as { value?: string; selected_option?: { value?: string } };
    const ref = parseSettleRef(action.value ?? action.selected_option?.value);
    if (!ref) {
      logger.warn('pay part: a value that does not parse');
      // No form to open in time: the person's own voice can be read first.
      const voice = await voiceIn(args.context);
      await args.respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...notice(voice.t('settle.part_damaged')),
      });
      return;
    }
    const meta: PartMeta =
      body.view?.type === 'home'
        ? { r: ref, h: 1 }
        : { r: ref, ...(body.response_url ? { u: body.response_url } : {}) };
    // The trigger id works once and for 3 seconds: the form opens before anything is read.
    // The locale comes from the control, which was drawn with the person's.
    const voice = await carriedVoice(ref);
    const signed = encodePartMeta(deps.offers, clickerOf(body), meta);
    await client.views.open({ trigger_id: body.trigger_id, view: partForm(meta, signed, voice) });
  };
}

/** The form submitted: checked at once (errors under the field), queued durably, then acked. */
export function settlePartSubmitted(deps: SlackDeps) {
  return async (args: SubmitArgs): Promise<void> => {
    const { view, body, logger } = args;
    const team_id = body.team?.id ?? body.user.team_id ?? '';
    const meta = parsePartMeta(
      deps.offers,
      { team_id, user_id: body.user.id },
      view.private_metadata,
    );
    const typed = view.state.values[SETTLE_FORM.amount]?.[SETTLE_FORM.amount]?.value ?? '';
    // The answer is due within 3 seconds: the voice is the one the form was opened in.
    const voice = await carriedVoice(meta?.r ?? {});
    if (!meta) {
      await args.ack({
        response_action: 'errors',
        errors: { [SETTLE_FORM.amount]: voice.t('settle.form_damaged') },
      });
      return;
    }
    const checked = checkPartAmount(typed, meta.r, voice);
    if ('error' in checked) {
      await args.ack({
        response_action: 'errors',
        errors: { [SETTLE_FORM.amount]: checked.error },
      });
      return;
    }
    const job: PartJob = {
      team_id,
      user_id: body.user.id,
      ref: meta.r,
      minor: checked.minor,
      currency: meta.r.c,
      answer: meta.h
        ? { via: 'home' }
        : meta.u
          ? { via: 'response_url', url: meta.u }
          : { via: 'dm' },
    };
    let kept: Kept;
    try {
      // Kept before the form closes: once Slack has its ack, the payment must not be lost.
      const id = partJobId(team_id, view.id);
      const by = { team_id, user_id: job.user_id };
      kept = await keepInTime(
        deps.durable,
        { id, kind: SETTLE_PART_JOB, payload: job, by },
        logger,
      );
    } catch (error) {
      logger.error({
        msg: 'pay part: could not queue the submission: {error}',
        error: (error as Error).message,
      });
      await args.ack({
        response_action: 'errors',
        errors: { [SETTLE_FORM.amount]: voice.t('settle.form_not_kept') },
      });
      return;
    }
    if (kept === 'slow') {
      // Submitting again is safe either way: recorded once if the first write landed, and tried
      // again if it did not.
      await args.ack({
        response_action: 'errors',
        errors: { [SETTLE_FORM.amount]: voice.t('settle.form_slow') },
      });
      return;
    }
    if (kept === 'repeat') logger.info('pay part: this form was already submitted, ignored');
    await args.ack();
  };
}
