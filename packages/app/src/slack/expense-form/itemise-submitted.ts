/**
 * The Itemise step's Preview button and Submit. Preview redraws the step with the total and each
 * share (views.update); Submit books only what the person last saw: when the values changed
 * since the preview shown (or none was shown), it answers with the new preview instead.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { lookupBudget } from '../../accounts/lookups.js';
import type { SlackDeps } from '../deps.js';
import { modalView, mrkdwnObject, plainTextObject, sectionBlock } from '../kit/blocks.js';
import { voiceOfForm } from '../shared/modal.js';
import { carriedVoice, type Voice } from '../shared/voice.js';
import { metaRefusal, parseMeta, type StateValues, valueBlockId } from './form.js';
import { namesOf } from './form-submitted.js';
import { checkItemiseStep, itemiseTyped, previewText } from './itemise.js';
import { itemiseStepView, shownPreview } from './itemise-view.js';
import { queueSubmission } from './submit.js';

/** The step redrawn with the preview of what is typed in `values`. */
async function redrawn(
  deps: SlackDeps,
  team_id: string,
  user_id: string,
  view: { id: string; root_view_id?: string | null; previous_view_id?: string | null },
  values: StateValues,
  meta: string,
  voice: Voice,
) {
  const rootViewId = view.root_view_id ?? view.previous_view_id ?? view.id;
  const draft = await deps.expenses.draft({ team_id, user_id }, rootViewId);
  if (!draft?.form) return undefined;
  const form = draft.form;
  const checked = checkItemiseStep(form, values, voice);
  const names = await namesOf(deps, team_id, form.participants, lookupBudget());
  return {
    checked,
    rootViewId,
    draft,
    view: itemiseStepView(
      {
        subtotal: form.cost,
        currency: form.currency,
        participants: form.participants,
        names,
        typed: itemiseTyped(form, values),
        preview: previewText(checked, names, voice),
        receipt: draft.receipt,
        edit: draft.edit !== undefined,
        meta,
      },
      voice,
    ),
  };
}

export function itemisePreviewClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    client,
    logger,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view) return;
    const team_id = body.team?.id ?? view.team_id;
    const user = { team_id, user_id: body.user.id };
    try {
      const voice = await voiceOfForm(context, parseMeta(deps.offers, user, view.private_metadata));
      const next = await redrawn(
        deps,
        team_id,
        body.user.id,
        view,
        (view.state?.values ?? {}) as StateValues,
        view.private_metadata,
        voice,
      );
      if (!next) {
        await client.views.update({
          view_id: view.id,
          view: modalView({
            title: plainTextObject({ text: voice.t('form.itemise_title') }),
            close: plainTextObject({ text: voice.t('form.close') }),
            blocks: [sectionBlock({ text: mrkdwnObject({ text: voice.t('form.expired') }) })],
          }),
        });
        return;
      }
      // The hash makes a slow preview lose to a newer one instead of overwriting it.
      await client.views.update({ view_id: view.id, hash: view.hash, view: next.view });
    } catch (error) {
      logger.warn({
        msg: 'expense form: itemise preview failed: {error}',
        error: (error as Error).message,
      });
    }
  };
}

export function expenseItemiseSubmitted(deps: SlackDeps) {
  return async ({
    ack,
    body,
    view,
    logger,
    context,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs): Promise<void> => {
    const team_id = body.team?.id ?? view.team_id;
    const user = { team_id, user_id: body.user.id };
    const meta = parseMeta(deps.offers, user, view.private_metadata);
    if (typeof meta !== 'object') {
      const refusal = await metaRefusal(context, meta, logger);
      await ack({ response_action: 'errors', errors: { [valueBlockId(0)]: refusal } });
      return;
    }
    const values = (view.state.values ?? {}) as StateValues;
    const voice = await carriedVoice(meta);
    const next = await redrawn(
      deps,
      team_id,
      body.user.id,
      view,
      values,
      view.private_metadata,
      voice,
    );
    if (!next) {
      await ack({
        response_action: 'errors',
        errors: { [valueBlockId(0)]: voice.t('form.expired') },
      });
      return;
    }
    if ('errors' in next.checked) {
      await ack({ response_action: 'errors', errors: next.checked.errors });
      return;
    }
    const preview = shownPreview(next.view);
    if (preview === undefined || shownPreview(view as { blocks?: unknown[] }) !== preview) {
      await ack({ response_action: 'update', view: next.view });
      return;
    }
    const { form, split, summary } = next.checked.itemised;
    await queueSubmission(
      deps,
      {
        user: { team_id, user_id: body.user.id },
        meta,
        rootViewId: next.rootViewId,
        form,
        split,
        edit: next.draft.edit,
        itemised: summary,
      },
      logger,
      { ack, field: valueBlockId(0) },
    );
  };
}
