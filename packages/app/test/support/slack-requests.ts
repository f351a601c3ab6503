/**
 * Signed requests to the app for tests: the builders and signing live in the simulated workspace (the
 * simulated workspace sends the same bytes); `slackSender` binds them to one app and a workspace
 * that issues the trigger ids and response_urls.
 */
export * from '@split/slack-workspace/requests';

import {
  type Actor,
  type AppHomeOpenedOptions,
  appHomeOpened,
  type BlockActionsOptions,
  type BlockSuggestionOptions,
  blockActions,
  blockSuggestion,
  type CommandOptions,
  DEFAULT_ACTOR,
  type EventOptions,
  eventCallback,
  type MessageShortcutOptions,
  messageShortcut,
  newTriggerId,
  type SignedPostOptions,
  type SlackRequest,
  send,
  slashCommand,
  UNSET_RESPONSE_URL,
  urlVerification,
  type ViewSubmissionOptions,
  viewClosed,
  viewSubmission,
} from '@split/slack-workspace/requests';

// --- bound to an app and a fake ------------------------------------------------------------------

/** The parts of the fake Slack the bound sender uses. */
export interface ResponseUrlSource {
  responseUrl(options?: { channel?: string; ts?: string; user?: string }): string;
  issueTrigger(id?: string): string;
}

/**
 * Builders bound to one app and (optionally) a fake Slack: each request gets a fresh trigger id
 * registered with the fake and a response_url on the fake, unless the caller gives its own.
 */
export function slackSender(options: {
  appUrl: string;
  signingSecret: string;
  fake?: ResponseUrlSource;
}) {
  const { appUrl, signingSecret, fake } = options;
  const trigger = (given?: string) => given ?? fake?.issueTrigger() ?? newTriggerId();
  const responseUrl = (given?: string, where?: { channel?: string; ts?: string; user?: string }) =>
    given ?? fake?.responseUrl(where) ?? UNSET_RESPONSE_URL;
  const where = (o: Actor, ts?: string) => ({
    channel: o.channel_id ?? DEFAULT_ACTOR.channel_id,
    user: o.user_id ?? DEFAULT_ACTOR.user_id,
    ...(ts ? { ts } : {}),
  });
  const post = (request: SlackRequest, signed?: SignedPostOptions) =>
    send(appUrl, signingSecret, request, signed);
  return {
    send: post,
    command: (o: CommandOptions = {}, signed?: SignedPostOptions) =>
      post(
        slashCommand({
          ...o,
          trigger_id: trigger(o.trigger_id),
          response_url: responseUrl(o.response_url, where(o)),
        }),
        signed,
      ),
    blockActions: (o: BlockActionsOptions, signed?: SignedPostOptions) =>
      post(
        blockActions({
          ...o,
          trigger_id: trigger(o.trigger_id),
          ...(o.view
            ? {}
            : {
                response_url: responseUrl(o.response_url, where(o, o.message?.ts)),
              }),
        }),
        signed,
      ),
    viewSubmission: (o: ViewSubmissionOptions = {}, signed?: SignedPostOptions) =>
      post(viewSubmission({ ...o, trigger_id: trigger(o.trigger_id) }), signed),
    viewClosed: (o: Parameters<typeof viewClosed>[0] = {}, signed?: SignedPostOptions) =>
      post(viewClosed(o), signed),
    messageShortcut: (o: MessageShortcutOptions = {}, signed?: SignedPostOptions) =>
      post(
        messageShortcut({
          ...o,
          trigger_id: trigger(o.trigger_id),
          response_url: responseUrl(o.response_url, where(o)),
        }),
        signed,
      ),
    blockSuggestion: (o: BlockSuggestionOptions, signed?: SignedPostOptions) =>
      post(blockSuggestion(o), signed),
    event: (event: Record<string, unknown>, o: EventOptions = {}, signed?: SignedPostOptions) =>
      post(eventCallback(event, o), signed),
    appHomeOpened: (o: AppHomeOpenedOptions = {}, signed?: SignedPostOptions) =>
      post(appHomeOpened(o), signed),
    urlVerification: (challenge?: string, signed?: SignedPostOptions) =>
      post(urlVerification(challenge), signed),
  };
}

export type SlackSender = ReturnType<typeof slackSender>;
