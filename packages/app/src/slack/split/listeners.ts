import type { SlackDeps } from '../deps.js';
import { COMMAND, EVENTS, LIST_ACTIONS, TALK_ACTIONS } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { SPLIT_JOB, splitCommand, splitJob } from './ack.js';
import { formOfferClicked, type OpenForm } from './form-offer.js';
import { messagesTabOpened } from './greeting.js';
import { listExportClicked, listPageClicked } from './list-buttons.js';
import { type OtherHandlers, splitHandlers } from './run.js';
import { appMentioned, directMessage } from './talk.js';

/** What `/split` runs that other features own, handed in by slack/app.ts. */
interface SplitParts {
  /** The handlers of the `/split` kinds other features own. */
  handlers: OtherHandlers;
  /** Opens the expense form (expense-form/) for an empty `/split`, within its trigger's 3 s. */
  openForm: OpenForm;
}

/** `/split`, and the same written as a mention or in the Messages tab. */
export function splitListeners(table: ListenerTable, deps: SlackDeps, parts: SplitParts): void {
  table.command(COMMAND, splitCommand(deps, parts.openForm));
  table.job(SPLIT_JOB, splitJob(deps, splitHandlers(parts.handlers)));
  table.event(EVENTS.appMention, appMentioned(deps));
  table.event(EVENTS.message, directMessage(deps));
  table.event(EVENTS.appHomeOpened, messagesTabOpened(deps));
  table.action(TALK_ACTIONS.openForm, formOfferClicked(deps, parts.openForm));
  table.action(LIST_ACTIONS.previous, listPageClicked(deps));
  table.action(LIST_ACTIONS.next, listPageClicked(deps));
  table.action(LIST_ACTIONS.export, listExportClicked(deps));
}
