import type { AllMiddlewareArgs, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { UNFURL } from '../ids.js';
import type { ListenerTable } from '../runtime/listener-table.js';
import { linkShared } from './link-shared.js';

/** Open goes to the link in the browser; Slack still posts the click, which must be acked. */
async function openClicked({ ack }: SlackActionMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
  await ack();
}

/** Links to the service unfolding under their message; Details is the expense message's own. */
export function unfurlListeners(table: ListenerTable, deps: SlackDeps): void {
  table.event(UNFURL.linkShared, linkShared(deps));
  table.action(UNFURL.open, openClicked);
}
