import { parseExpenseRef } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { type ButtonArgs, readClick } from '../runtime/click.js';
import { told } from '../shared/told.js';
import { openEditForm } from './open.js';

/** Edit on a booked expense: the form opens at once, then fills with the expense as it is now. */
export function editClicked(deps: SlackDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    const click = await readClick(args, parseExpenseRef, (voice) => voice.t('actions.damaged'));
    if (told(click)) return;
    await openEditForm({
      deps,
      context: args.context,
      client: args.client,
      logger: args.logger,
      trigger_id: args.body.trigger_id,
      user: click.user,
      expenseId: click.ref.e,
      channel: args.body.channel?.id,
      ts: args.body.message?.ts,
    });
  };
}
