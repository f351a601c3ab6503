/**
 * Slack's word that someone's profile changed (`user_change`, sent for every member's change,
 * status included): the directory replaces what it holds of that person, so that a person who
 * switched their language or zone is answered the new way from their next message on.
 *
 * The event carries the whole user object; Bolt acknowledges it before this runs, and there is
 * nobody to tell of a failure.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackUserObject } from '../../accounts/directory.js';
import type { SlackDeps } from '../deps.js';
import { EVENTS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';

export function profileListeners(table: ListenerTable, deps: SlackDeps): void {
  table.event(
    EVENTS.userChange,
    async ({
      event,
      body,
      context,
    }: SlackEventMiddlewareArgs<'user_change'> & AllMiddlewareArgs) => {
      const team = context.teamId ?? body.team_id;
      if (!team) return;
      deps.directory.profileChanged(team, event.user as SlackUserObject);
    },
  );
}
