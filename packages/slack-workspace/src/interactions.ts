/**
 * What a person does in the workspace, turned into Slack's signed requests to the app, and the
 * app's acknowledgement turned into what the person sees: a command's ack text becomes a private
 * message, a modal submission's response_action acts on the modal stack, a request the app does
 * not answer in 3 seconds becomes Slack's error notice.
 */

import { type Acting, type AttachedFile, createActing, PageError } from './acting.js';
import { userObject } from './api-directory.js';
import { fileObjects } from './api-files.js';
import { viewJson } from './api-views.js';
import { optionsAnswerErrors } from './block-kit.js';
import type { Deliverer, DeliveryOutcome } from './delivery.js';
import { envelopeFor, type MessageEvents } from './events.js';
import { isObject } from './http-util.js';
import { isLocale } from './locales.js';
import {
  appHomeOpened,
  blockActions,
  blockSuggestion,
  messageShortcut,
  userChange,
  type ViewPayload,
  viewClosed,
  viewSubmission,
} from './payloads.js';
import { createMessageActs, failureNotice, type MessageActs } from './person-messages.js';
import type { SlackRequest } from './signing.js';
import type { WorkspaceState } from './state.js';
import type { AppFacts, StoredMessage, StoredView, User } from './types.js';
import { handleViewAnswer } from './view-answer.js';

export { type AttachedFile, PageError };

/**
 * Where an element is: a view, or a message (`unfurl_url` set: in the app's unfurl of that link
 * under the message, which Slack reports as a `message_attachment` container).
 */
export type Container =
  | { type: 'message'; channel: string; ts: string; unfurl_url?: string }
  | { type: 'view'; view_id: string };

export type ViewValues = Record<string, Record<string, Record<string, unknown>>>;

export interface Interactions extends MessageActs {
  action(input: {
    as: string;
    container: Container;
    action: Record<string, unknown>;
    state?: ViewValues;
  }): Promise<void>;
  options(input: {
    as: string;
    container: Container;
    action_id: string;
    block_id: string;
    value: string;
  }): Promise<{ options: unknown[]; option_groups?: unknown[] }>;
  submitView(input: { as: string; view_id: string; values: ViewValues }): Promise<{
    errors?: Record<string, string>;
  }>;
  closeView(input: { as: string; view_id: string }): Promise<void>;
  shortcut(input: {
    as: string;
    callback_id: string;
    channel?: string;
    ts?: string;
  }): Promise<void>;
  /** The person opens a tab of the app's App Home: `app_home_opened`, each time. */
  homeOpened(input: { as: string; tab: 'home' | 'messages' }): Promise<void>;
  /**
   * The person's language in Slack's preferences (users.info gives it with include_locale). As
   * Slack does, the app hears of it by `user_change` when it subscribes to it (with users:read).
   */
  setLocale(input: { as: string; locale: string }): Promise<void>;
}

export function createInteractions(
  state: WorkspaceState,
  deliverer: Deliverer,
  app: () => AppFacts,
  events: MessageEvents,
): Interactions {
  const acting: Acting = createActing(state);
  const { team, person, channelFor, visibleMessage, actor } = acting;
  const failed = (user: User, label: string, outcome: DeliveryOutcome, channel?: string) =>
    failureNotice(state, user, label, outcome, channel);

  /** The `files` of a message payload: Slack's file objects of the files still there. */
  function filesOf(ids: string[] | undefined) {
    const files = fileObjects(state, ids, team());
    return files.length > 0 ? { files } : {};
  }

  function openView(user: User, viewId: string): StoredView {
    const view = state.views.get(viewId);
    const open = state.modals.get(user.id)?.includes(viewId) || state.homes.get(user.id) === view;
    if (!view || !open) throw new PageError('That view is no longer open.');
    return view;
  }

  function viewPayloadOf(view: StoredView, values: ViewValues = {}): ViewPayload {
    return viewJson(view, state.teams.get(view.team_id) ?? team(), values) as ViewPayload;
  }

  function subscribed(event: string): boolean {
    const events = app().events;
    return events === undefined || events.includes(event);
  }

  /**
   * A block action in the app's unfurl of a link: Slack's payload names the unfurl (container
   * `message_attachment`, `app_unfurl`) instead of carrying the message, which is not the app's.
   */
  function unfurlAction(request: SlackRequest, message: StoredMessage, url: string): SlackRequest {
    const index = (message.unfurls ?? []).findIndex((u) => u.url === url);
    const unfurl = message.unfurls?.[index];
    if (!unfurl) throw new PageError('That link preview is gone.');
    const { message: _m, ...rest } = request.payload;
    const payload = {
      ...rest,
      container: {
        type: 'message_attachment',
        message_ts: message.ts,
        attachment_id: index + 1,
        channel_id: message.channel,
        is_ephemeral: false,
        is_app_unfurl: true,
        app_unfurl_url: url,
      },
      app_unfurl: {
        id: index + 1,
        blocks: unfurl.blocks ?? [],
        app_unfurl_url: url,
        is_app_unfurl: true,
      },
    };
    return {
      body: `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      contentType: request.contentType,
      payload,
    };
  }

  return {
    ...createMessageActs(state, deliverer, events, acting, app),

    async action({ as, container, action, state: values }) {
      const user = person(as);
      const base = { ...action, action_id: String(action.action_id ?? '') };
      if (container.type === 'view') {
        const view = openView(user, container.view_id);
        const outcome = await deliverer.deliver(
          'block_actions',
          blockActions({
            ...actor(user),
            actions: base,
            view: viewPayloadOf(view, values),
            trigger_id: state.issueTrigger(undefined, user.id),
          }),
        );
        failed(user, app().name, outcome);
        return;
      }
      const channel = channelFor(user, container.channel);
      const message = visibleMessage(user, channel.id, container.ts);
      const inUnfurl = container.unfurl_url;
      const request = blockActions({
        ...actor(user, channel),
        actions: base,
        message: {
          ts: message.ts,
          text: message.text ?? '',
          user: message.user,
          ...(message.bot_id ? { bot_id: message.bot_id } : {}),
          ...(message.blocks ? { blocks: message.blocks } : {}),
        },
        is_ephemeral: message.ephemeralFor !== undefined,
        state: values ?? {},
        response_url: state.registerResponseUrl({
          channel: channel.id,
          // Not tied to the message in an unfurl: that message is a person's, not the app's.
          ...(inUnfurl ? {} : { ts: message.ts }),
          user: user.id,
        }),
        trigger_id: state.issueTrigger(undefined, user.id),
      });
      const outcome = await deliverer.deliver(
        'block_actions',
        inUnfurl ? unfurlAction(request, message, inUnfurl) : request,
      );
      failed(user, app().name, outcome, channel.id);
    },

    async options({ as, container, action_id, block_id, value }) {
      const user = person(as);
      const where =
        container.type === 'view'
          ? { ...actor(user), view: viewPayloadOf(openView(user, container.view_id)) }
          : actor(user, channelFor(user, container.channel));
      const outcome = await deliverer.deliver(
        'block_suggestion',
        blockSuggestion({ ...where, action_id, block_id, value }),
      );
      if (failed(user, app().name, outcome)) return { options: [] };
      const answer = isObject(outcome.answer) ? outcome.answer : {};
      const options = Array.isArray(answer.options) ? answer.options : [];
      const groups = Array.isArray(answer.option_groups) ? answer.option_groups : undefined;
      // Slack shows nothing from an answer beyond its limits rather than a cut list.
      if (optionsAnswerErrors(answer).length > 0) {
        state.addNotice(user.id, `${app().name} failed with the error "invalid_options"`, 'error');
        return { options: [] };
      }
      return { options, ...(groups ? { option_groups: groups } : {}) };
    },

    async submitView({ as, view_id, values }) {
      const user = person(as);
      const view = openView(user, view_id);
      if (view.type !== 'modal') throw new PageError('Only a modal can be submitted.');
      const outcome = await deliverer.deliver(
        'view_submission',
        viewSubmission({
          ...actor(user),
          fullView: viewPayloadOf(view, values),
          trigger_id: state.issueTrigger(undefined, user.id),
        }),
      );
      if (failed(user, app().name, outcome)) return {};
      return handleViewAnswer(state, team(user), user.id, view, outcome.answer, (text) =>
        state.addNotice(user.id, text, 'error'),
      );
    },

    async closeView({ as, view_id }) {
      const user = person(as);
      const view = openView(user, view_id);
      const stack = state.modals.get(user.id) ?? [];
      const index = stack.indexOf(view.id);
      if (index < 0) throw new PageError('Only a modal can be closed.');
      state.setModalStack(user.id, stack.slice(0, index));
      if (!view.view.notify_on_close) return;
      const outcome = await deliverer.deliver(
        'view_closed',
        viewClosed({ ...actor(user), fullView: viewPayloadOf(view) }),
      );
      failed(user, app().name, outcome);
    },

    async shortcut({ as, callback_id, channel: channelId, ts }) {
      const user = person(as);
      const shortcut = app().shortcuts.find((s) => s.callback_id === callback_id);
      const label = shortcut?.name ?? callback_id;
      if (!shortcut && app().shortcuts.length > 0)
        throw new PageError(`The app has no shortcut ${JSON.stringify(callback_id)}.`);
      if (shortcut?.type === 'global' || channelId === undefined || ts === undefined) {
        const outcome = await deliverer.deliver('shortcut', globalShortcut(user, callback_id));
        failed(user, label, outcome);
        return;
      }
      const channel = channelFor(user, channelId);
      const message = visibleMessage(user, channel.id, ts);
      const outcome = await deliverer.deliver(
        'message_action',
        messageShortcut({
          ...actor(user, channel),
          callback_id,
          message: {
            ts: message.ts,
            text: message.text ?? '',
            user: message.user,
            ...(message.blocks ? { blocks: message.blocks } : {}),
            ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
            ...filesOf(message.files),
          },
          response_url: state.registerResponseUrl({ channel: channel.id, user: user.id }),
          trigger_id: state.issueTrigger(undefined, user.id),
        }),
      );
      failed(user, label, outcome, channel.id);
    },

    async homeOpened({ as, tab }) {
      const user = person(as);
      const t = team(user);
      const home = app().app_home;
      if (home && !(tab === 'home' ? home.home_tab_enabled : home.messages_tab_enabled))
        throw new PageError(`The app has no ${tab === 'home' ? 'Home' : 'Messages'} tab.`);
      if (!subscribed('app_home_opened')) return;
      const published = state.homes.get(user.id);
      await deliverer.deliver(
        'event',
        appHomeOpened({
          ...envelopeFor(state, t),
          user: user.id,
          tab,
          channel: state.dmChannel(user.id),
          ...(published ? { view: viewPayloadOf(published) } : {}),
        }),
      );
    },

    async setLocale({ as, locale }) {
      const user = person(as);
      if (!isLocale(locale))
        throw new PageError(`Slack has no language ${JSON.stringify(locale)}.`);
      user.locale = locale;
      state.changed();
      const t = team(user);
      if (!subscribed('user_change') || !t.scopes.includes('users:read')) return;
      const object = userObject(user, t.scopes.includes('users:read.email'), state.now());
      await deliverer.deliver('event', userChange({ ...object, locale }, envelopeFor(state, t)));
    },
  };

  function globalShortcut(user: User, callbackId: string) {
    const request = messageShortcut({
      ...actor(user),
      callback_id: callbackId,
      trigger_id: state.issueTrigger(undefined, user.id),
    });
    const { channel: _c, message: _m, message_ts: _t, response_url: _r, ...rest } = request.payload;
    const payload = { ...rest, type: 'shortcut' };
    return {
      body: `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      contentType: request.contentType,
      payload,
    };
  }
}
