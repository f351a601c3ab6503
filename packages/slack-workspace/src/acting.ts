/**
 * Who does something in the workspace and where: the person, their team, a conversation they
 * can see, a message they can see, a file they attach, and the `Actor` fields Slack's payloads
 * carry about them. Shared by the interactions (commands, buttons, views) and by what people do
 * to messages (post, edit, delete).
 */
import { MAX_UPLOAD_BYTES } from './api-files.js';
import { envelopeFor } from './events.js';
import type { Actor } from './payloads.js';
import { randomId, type WorkspaceState } from './state.js';
import type { Channel, StoredFile, StoredMessage, Team, User } from './types.js';

/** A request the person cannot make; `message` is written for them. */
export class PageError extends Error {}

export interface AttachedFile {
  name: string;
  mimetype: string;
  content: Buffer;
}

export interface Acting {
  /** The person's own team (each team is a workspace of its own); the default one otherwise. */
  team(user?: User): Team;
  person(id: string): User;
  channelFor(user: User, id: string): Channel;
  visibleMessage(user: User, channel: string, ts: string): StoredMessage;
  actor(user: User, channel?: { id: string; name: string }): Actor;
  /** Keeps a file a person attached, as Slack keeps an upload from its client. */
  shareFile(user: User, file: AttachedFile): StoredFile;
}

export function createActing(state: WorkspaceState): Acting {
  function team(user?: User): Team {
    const found = user ? state.teams.get(user.team_id) : state.defaultTeam();
    if (!found) throw new PageError('This workspace has no team.');
    return found;
  }

  return {
    team,

    person(id) {
      const user = state.users.get(id);
      if (!user || user.is_bot || user.deleted || !state.teams.has(user.team_id))
        throw new PageError(`There is no person ${JSON.stringify(id)} in this workspace.`);
      return user;
    },

    channelFor(user, id) {
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
    },

    visibleMessage(user, channel, ts) {
      const message = state.findMessage(channel, ts);
      if (!message || (message.ephemeralFor && message.ephemeralFor !== user.id))
        throw new PageError('That message is gone.');
      return message;
    },

    actor(user, channel) {
      const t = team(user);
      const {
        team_id: _t,
        api_app_id: _a,
        authorized_user_id: _b,
        ...enterprise
      } = envelopeFor(state, t);
      return {
        ...enterprise,
        team_id: t.id,
        team_domain: t.domain,
        user_id: user.id,
        user_name: user.name,
        api_app_id: t.appId,
        ...(channel ? { channel_id: channel.id, channel_name: channel.name } : {}),
      };
    },

    shareFile(user, file) {
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
    },
  };
}
