import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import type { SlackDeps } from '../deps.js';
import { FORM } from '../ids.js';
import { todayIn } from '../shared/dates.js';
import { carriedVoice, type Voice } from '../shared/voice.js';
import { amountInput } from './amount.js';
import { defaultStepValues } from './default-prefill.js';
import {
  type CheckedForm,
  checkForm,
  type FormDraft,
  metaRefusal,
  needsSecondStep,
  parseMeta,
  payersOf,
  type StateValues,
} from './form.js';
import { itemiseStepView } from './itemise-view.js';
import { readChosenPhoto } from './receipt/receipt-reading.js';
import { queueSubmission } from './submit.js';
import { splitStepView } from './views.js';

/** Names for the second step's labels; a slow lookup falls back to "Someone" rather than wait. */
export async function namesOf(
  deps: SlackDeps,
  team_id: string,
  ids: string[],
  lookups: LookupBudget,
  budgetMs = 800,
): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const read = Promise.all(
    ids.map(async (id) => {
      const person = await deps.directory.slackUser(team_id, id, lookups).catch(() => undefined);
      if (person) names[id] = person.name;
    }),
  );
  await Promise.race([read, new Promise((resolve) => setTimeout(resolve, budgetMs).unref())]);
  return { ...names };
}

/** The fields an edit can't change (people not in Slack) read as they were. */
function withFixedPeople(values: StateValues, form: CheckedForm, voice: Voice): StateValues {
  const leaf = (v: Record<string, unknown>, id: string) => ({ [id]: { [id]: v } });
  return {
    ...values,
    ...leaf({ value: amountInput(form.cost, form.currency, voice) }, FORM.amount),
    ...leaf({ selected_option: { value: form.currency } }, FORM.currency),
    ...leaf({ selected_users: form.participants }, FORM.participants),
    ...leaf({ selected_user: form.payer }, FORM.payer),
    ...leaf({ selected_users: [] }, FORM.alsoPaid),
    ...leaf({ selected_option: { value: 'equal' } }, FORM.split),
  };
}

/**
 * The expense form's Submit. Its answer is the result (Slack waits 3 seconds for it), so it only
 * checks the fields: errors go back under their fields, an unequal split moves on to the second
 * step, and anything else closes the form and is booked after the ack.
 */
export function expenseFormSubmitted(deps: SlackDeps) {
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
      // Only the form's own views carry metadata (the notices have no Submit at all), signed for
      // the person it was opened for.
      const refusal = await metaRefusal(context, meta, logger);
      await ack({ response_action: 'errors', errors: { [FORM.description]: refusal } });
      return;
    }
    // The voice the form opened in, kept in it: no lookup within the submission's 3 seconds.
    const voice = await carriedVoice(meta);
    const draft: FormDraft | undefined = meta.e
      ? await deps.expenses.draft(user, view.id)
      : undefined;
    if (meta.e && !draft?.edit) {
      await ack({
        response_action: 'errors',
        errors: { [FORM.description]: voice.t('form.edit_expired') },
      });
      return;
    }
    const edit = draft?.edit;
    const values = (view.state.values ?? {}) as StateValues;
    const checked = checkForm(
      edit && !edit.peopleEditable ? withFixedPeople(values, edit.form, voice) : values,
      {
        today: todayIn(meta.z, deps.now()),
        knownCurrency: (code) => deps.reference.knownCurrency(code),
      },
      voice,
    );
    if ('errors' in checked) {
      // No amount, and a photo chosen: it is read into the form rather than refused.
      const reading = edit
        ? undefined
        : await readChosenPhoto(deps, { user, view, values, meta, voice }, logger);
      await ack(
        reading
          ? { response_action: 'update', view: reading }
          : { response_action: 'errors', errors: checked.errors },
      );
      return;
    }
    const form = checked.form;
    if (needsSecondStep(form)) {
      const step = await secondStepView(deps, { user, view, form, draft, voice });
      await ack({ response_action: 'push', view: step });
      return;
    }
    await queueSubmission(
      deps,
      {
        user,
        meta,
        rootViewId: view.root_view_id ?? view.id,
        form,
        split: { kind: 'equal' },
        edit,
      },
      logger,
      { ack, field: FORM.description },
    );
  };
}

/**
 * The form's second step, an itemised bill or the parts of an unequal split; what was entered
 * there before is kept while the method and the cost stay the same.
 */
async function secondStepView(
  deps: SlackDeps,
  step: {
    user: { team_id: string; user_id: string };
    view: ViewSubmitAction['view'];
    form: CheckedForm;
    draft: FormDraft | undefined;
    voice: Voice;
  },
) {
  const { user, view, form, draft, voice } = step;
  const { team_id } = user;
  const edit = draft?.edit;
  // A new form may have been filled in from a booked expense (Duplicate): its parts are kept.
  const kept = draft ?? (await deps.expenses.draft(user, view.id));
  await deps.expenses.saveDraft(user, view.id, { ...kept, form });
  const payers = payersOf(form);
  const names = await namesOf(
    deps,
    team_id,
    [...new Set([...form.participants, ...payers])],
    lookupBudget(),
  );
  const before = edit?.form ?? kept?.copy;
  const keep =
    before && before.method === form.method && before.cost === form.cost
      ? before.values
      : undefined;
  if (form.method === 'itemise') {
    return itemiseStepView(
      {
        subtotal: form.cost,
        currency: form.currency,
        participants: form.participants,
        names,
        receipt: kept?.receipt,
        edit: edit !== undefined,
        meta: view.private_metadata,
      },
      voice,
    );
  }
  const keepPaid = before && before.cost === form.cost ? before.paid : undefined;
  return splitStepView(
    {
      method: form.method,
      cost: form.cost,
      currency: form.currency,
      participants: form.participants,
      names,
      values: keep ?? (await defaultStepValues(deps, team_id, form, voice)),
      payers,
      paidValues: keepPaid,
      edit: edit !== undefined,
      meta: view.private_metadata,
    },
    voice,
  );
}
