/**
 * What a person does in the workspace, turned into Slack's signed requests to the app, and the
 * app's acknowledgement turned into what the person sees: a command's ack text becomes a private
 * message, a modal submission's response_action acts on the modal stack, a request the app does
 * not answer in 3 seconds becomes Slack's error notice.
 */

import { fileObject, MAX_UPLOAD_BYTES } from './api-files.js';
import { viewJson } from './api-views.js';
import { blockKitErrors, optionsAnswerErrors } from './block-kit.js';
import type { Deliverer, DeliveryOutcome } from './delivery.js';
import { isObject } from './http-util.js';
import {
  type Actor,
  appHomeOpened,
  blockActions,
  blockSuggestion,
  eventCallback,
  messageShortcut,
  slashCommand,
  type ViewPayload,
  viewClosed,
  viewSubmission,
} from './payloads.js';
import { randomId, type WorkspaceState } from './state.js';
import type { AppFacts, StoredFile, StoredMessage, StoredView, Team, User } from './types.js';
import { handleViewAnswer } from './view-answer.js';

/** A request the person cannot make; `message` is written for them. */
export class PageError extends Error {}

export interface AttachedFile {
  name: string;
  mimetype: string;
  content: Buffer;
}

export type Container =
  | { type: 'message'; channel: string; ts: string }
  | { type: 'view'; view_id: string };

export type ViewValues = Record<string, Record<string, Record<string, unknown>>>;

export interface Interactions {
  message(input: {
    as: string;
    channel: string;
    text: string;
    thread_ts?: string;
    /** A file the person attaches to the message. */
    file?: AttachedFile;
  }): Promise<void>;
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
  homeOpened(input: { as: string; tab: 'home' | 'messages' }): Promise<void>;
}

export function createInteractions(
  state: WorkspaceState,
  deliverer: Deliverer,
  app: () => AppFacts,
): Interactions {
  /** The person's own team (each team is a workspace of its own); the default one otherwise. */
  function team(user?: User): Team {
    const found = user ? state.teams.get(user.team_id) : state.defaultTeam();
    if (!found) throw new PageError('This workspace has no team.');
    return found;
  }

  /** Who the app's bot is in a team: an org-wide installation's bot in a team of that org. */
  function installedAs(t: Team) {
    const org = t.enterprise_id ? state.orgInstalls.get(t.enterprise_id) : undefined;
    return {
      ...(t.enterprise_id ? { enterprise_id: t.enterprise_id } : {}),
      is_enterprise_install: org !== undefined,
      authorized_user_id: (org ?? t).botUserId,
    };
  }

  function person(id: string): User {
    const user = state.users.get(id);
    if (!user || user.is_bot || user.deleted || !state.teams.has(user.team_id))
      throw new PageError(`There is no person ${JSON.stringify(id)} in this workspace.`);
    return user;
  }

  /** Keeps a file a person attached, as Slack keeps an upload from its client. */
  function shareFile(user: User, file: AttachedFile): StoredFile {
    if (file.content.length === 0) throw new PageError('That file is empty.');
    if (file.content.length > MAX_UPLOAD_BYTES)
      throw new PageError(`Files can be at most ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB here.`);
    const stored: StoredFile = {
      id: randomId('F'),
      name: file.name.replace(/[/\\]/g, '_').slice(0, 200) || 'file',
      mimetype: file.mimetype || 'application/octet-stream',
      user: user.id,
      content: file.content,
    };
    state.files.set(stored.id, stored);
    return stored;
  }

  /** The `files` of a message payload: Slack's file objects of the files still there. */
  function filesOf(ids: string[] | undefined) {
    const files = (ids ?? [])
      .map((id) => state.files.get(id))
      .filter((f): f is StoredFile => f !== undefined)
      .map((f) => fileObject(state, f, team()));
    return files.length > 0 ? { files } : {};
  }

  function channelFor(user: User, id: string) {
    // The app's DM with each person exists from install on, as in Slack.
    if (id === `D${user.id.replace(/^[UW]/, '')}`) state.dmChannel(user.id);
    const channel = state.channels.get(id);
    const visible =
      channel &&
      (channel.team_id ?? state.defaultTeamId) === user.team_id &&
      (!channel.members || channel.members.has(user.id)) &&
      (!channel.is_im || state.dms.get(user.id) === channel.id);
    if (!channel || !visible) throw new PageError(`There is no channel ${JSON.stringify(id)}.`);
    return channel;
  }

  function actor(user: User, channel?: { id: string; name: string }): Actor {
    const t = team(user);
    const { authorized_user_id: _bot, ...enterprise } = installedAs(t);
    return {
      ...enterprise,
      team_id: t.id,
      team_domain: t.domain,
      user_id: user.id,
      user_name: user.name,
      api_app_id: t.appId,
      ...(channel ? { channel_id: channel.id, channel_name: channel.name } : {}),
    };
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

  function visibleMessage(user: User, channel: string, ts: string): StoredMessage {
    const message = state.findMessage(channel, ts);
    if (!message || (message.ephemeralFor && message.ephemeralFor !== user.id))
      throw new PageError('That message is gone.');
    return message;
  }

  /** Slack's notice when the app did not answer (in time) or refused the request. */
  function failed(user: User, label: string, outcome: DeliveryOutcome): boolean {
    if (!outcome.failure) return false;
    state.addNotice(user.id, `${label} failed with the error "${outcome.failure}"`, 'error');
    return true;
  }

  function subscribed(event: string): boolean {
    const events = app().events;
    return events === undefined || events.includes(event);
  }

  async function command(user: User, channelId: string, text: string): Promise<void> {
    const [name = '', ...rest] = text.trim().split(/\s+/);
    const known = app().commands;
    if (known.length > 0 && !known.some((c) => c.command === name)) {
      state.addNotice(
        user.id,
        `${name} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        'info',
      );
      return;
    }
    const channel = channelFor(user, channelId);
    const argumentText = text.trim().slice(name.length).trimStart();
    const outcome = await deliverer.deliver(
      'command',
      slashCommand({
        ...actor(user, channel),
        command: name,
        text: rest.length === 0 ? '' : argumentText,
        response_url: state.registerResponseUrl({ channel: channel.id, user: user.id }),
        trigger_id: state.issueTrigger(undefined, user.id),
      }),
    );
    if (failed(user, name, outcome)) return;
    const answer = outcome.answer;
    const reply = typeof answer === 'string' ? { text: answer } : isObject(answer) ? answer : {};
    if (reply.text === undefined && reply.blocks === undefined) return;
    if (reply.blocks !== undefined && blockKitErrors(reply.blocks, 'message').length > 0) {
      state.addNotice(user.id, `${name} failed with the error "invalid_blocks"`, 'error');
      return;
    }
    const t = team(user);
    state.addMessage({
      channel: channel.id,
      ts: state.nextTs(),
      text: typeof reply.text === 'string' ? reply.text : undefined,
      blocks: reply.blocks as unknown[] | undefined,
      thread_ts: undefined,
      user: t.botUserId,
      bot_id: t.botId,
      ...(reply.response_type === 'in_channel' ? {} : { ephemeralFor: user.id }),
    });
  }

  return {
    async message({ as, channel: channelId, text, thread_ts, file }) {
      const user = person(as);
      if (text.trim() === '' && !file) throw new PageError('A message needs some text.');
      if (text.startsWith('/') && !file) return command(user, channelId, text);
      const channel = channelFor(user, channelId);
      if (thread_ts !== undefined && !state.findMessage(channel.id, thread_ts))
        throw new PageError('That thread is gone.');
      const stored = file ? shareFile(user, file) : undefined;
      const message = state.addMessage({
        channel: channel.id,
        ts: state.nextTs(),
        text,
        blocks: undefined,
        thread_ts,
        user: user.id,
        bot_id: undefined,
        ...(stored ? { files: [stored.id] } : {}),
      });
      const channelType = channel.is_im ? 'im' : channel.is_private ? 'group' : 'channel';
      const event = channel.is_im ? 'message.im' : `message.${channelType}s`;
      if (!(channel.is_im || channel.botIsMember) || !subscribed(event)) return;
      await deliverer.deliver(
        'event',
        eventCallback(
          {
            type: 'message',
            // A message with a file is Slack's file_share, carrying the file objects.
            ...(stored
              ? { subtype: 'file_share', files: [fileObject(state, stored, team())] }
              : {}),
            channel: channel.id,
            channel_type: channelType,
            user: user.id,
            text,
            ts: message.ts,
            event_ts: message.ts,
            ...(thread_ts ? { thread_ts } : {}),
            team: user.team_id,
          },
          { team_id: user.team_id, api_app_id: team(user).appId, ...installedAs(team(user)) },
        ),
      );
    },

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
      const outcome = await deliverer.deliver(
        'block_actions',
        blockActions({
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
            ts: message.ts,
            user: user.id,
          }),
          trigger_id: state.issueTrigger(undefined, user.id),
        }),
      );
      failed(user, app().name, outcome);
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
      failed(user, label, outcome);
    },

    async homeOpened({ as, tab }) {
      const user = person(as);
      const t = team(user);
      if (!subscribed('app_home_opened')) return;
      const home = state.homes.get(user.id);
      await deliverer.deliver(
        'event',
        appHomeOpened({
          team_id: t.id,
          api_app_id: t.appId,
          ...installedAs(t),
          user: user.id,
          tab,
          channel: state.dmChannel(user.id),
          ...(home ? { view: viewPayloadOf(home) } : {}),
        }),
      );
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
