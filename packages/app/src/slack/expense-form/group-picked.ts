/**
 * A group picked in the expense form's Group select: when the group has a default split, the form
 * is refilled with it (default-view.ts). A group without one, or "None", leaves the form as the
 * person has it: no update at all.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Group } from '../../service/index.js';
import { leftTheGroup } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { EXPENSE_CALLBACKS } from '../ids.js';
import { voiceOfForm } from '../shared/modal.js';
import { savedFor } from './default-prefill.js';
import { type ShownForm, withGroupDefault } from './default-view.js';
import { parseMeta } from './form.js';
import { formMoved } from './receipt/receipt-reading.js';

/** The group's members as the service has them now; undefined when they can't be read. */
async function membersOf(
  deps: SlackDeps,
  user: { team_id: string; user_id: string },
  group_id: number,
): Promise<Group['members'] | undefined> {
  const record = await deps.tokens.get(user);
  if (!record) return undefined;
  // Read fresh: a cached group can predate someone leaving it.
  return (await deps.service.forLink(record).getGroup(group_id)).members;
}

export function groupPicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    client,
    logger,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const view = body.view;
    const action = body.actions[0];
    if (!view || view.callback_id !== EXPENSE_CALLBACKS.form || action?.type !== 'static_select')
      return;
    const group_id = Number(action.selected_option?.value ?? '0');
    if (!Number.isSafeInteger(group_id) || group_id <= 0) return;
    const team_id = body.team?.id ?? view.team_id;
    const user = { team_id, user_id: body.user.id };
    try {
      const saved = await savedFor(deps, team_id, group_id);
      if (!saved) return;
      const members = await membersOf(deps, user, group_id);
      if (!members) return;
      // The note is written in the voice the form opened in.
      const meta = parseMeta(deps.offers, user, view.private_metadata);
      const voice = await voiceOfForm(context, meta);
      const next = withGroupDefault(
        view as unknown as ShownForm,
        {
          saved,
          groupName: action.selected_option?.text.text || saved.group_name,
          gone: leftTheGroup(saved, members),
        },
        voice,
      );
      if (!next) return;
      // With the hash, an update that lost a race to a newer one is refused by Slack instead of
      // replacing the newer view.
      const updated = await client.views.update({ view_id: view.id, hash: view.hash, view: next });
      // A photo being read fills this form next: with its new hash, and without undoing this.
      if (updated.view) {
        await formMoved(deps, user, view.id, { ...next, blocks: next.blocks }, updated.view.hash);
      }
    } catch (error) {
      logger.warn({
        msg: "expense form: filling in the group's default failed: {error}",
        error: (error as Error).message,
      });
    }
  };
}
