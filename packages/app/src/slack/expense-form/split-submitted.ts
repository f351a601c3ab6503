import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { carriedVoice } from '../shared/voice.js';
import { checkSplitStep, metaRefusal, parseMeta, type StateValues, valueBlockId } from './form.js';
import { queueSubmission } from './submit.js';

/**
 * The second step's Submit: each person's value checked against the first step's cost (kept in
 * the store under the form's first view), then the booking or edit after the ack.
 */
export function expenseSplitSubmitted(deps: SlackDeps) {
  return async ({
    ack,
    body,
    view,
    logger,
    context,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs): Promise<void> => {
    const team_id = body.team?.id ?? view.team_id;
    const meta = parseMeta(deps.offers, { team_id, user_id: body.user.id }, view.private_metadata);
    if (typeof meta !== 'object') {
      const refusal = await metaRefusal(context, meta, logger);
      await ack({ response_action: 'errors', errors: { [valueBlockId(0)]: refusal } });
      return;
    }
    const rootViewId = view.root_view_id ?? view.previous_view_id ?? view.id;
    // The voice the form opened in, kept in it: no lookup within the submission's 3 seconds.
    const voice = await carriedVoice(meta);
    const draft = await deps.expenses.draft({ team_id, user_id: body.user.id }, rootViewId);
    if (!draft?.form) {
      await ack({
        response_action: 'errors',
        errors: { [valueBlockId(0)]: voice.t('form.expired') },
      });
      return;
    }
    const checked = checkSplitStep(draft.form, (view.state.values ?? {}) as StateValues, voice);
    if ('errors' in checked) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await queueSubmission(
      deps,
      {
        user: { team_id, user_id: body.user.id },
        meta,
        rootViewId,
        form: checked.form,
        split: checked.split,
        ...(checked.payers ? { payers: checked.payers } : {}),
        edit: draft.edit,
      },
      logger,
      { ack, field: valueBlockId(0) },
    );
  };
}
