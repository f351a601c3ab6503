import type { AllMiddlewareArgs, SlackActionMiddlewareArgs } from '@slack/bolt';

/** The Connect button opens a URL in the browser; Slack still posts the click, which must be acked. */
export async function connectClicked({
  ack,
}: SlackActionMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
  await ack();
}
