/**
 * The workspace's state as plain JSON and back, so the sandbox can keep people, channels,
 * conversations, Home tabs and open modals across restarts. Trigger ids (3 s) and the record of
 * calls are left out: they mean nothing after a restart.
 */
import { isObject } from './http-util.js';
import type { ResponseUrlEntry, WorkspaceState } from './state.js';
import type {
  Channel,
  Notice,
  ScheduledMessage,
  StoredMessage,
  StoredView,
  Team,
  User,
} from './types.js';

export const SNAPSHOT_FORMAT = 'slack-split-workspace/1';

export interface WorkspaceSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  lastTsMicros: number;
  defaultTeamId: string | null;
  teams: Team[];
  users: User[];
  channels: (Omit<Channel, 'members'> & { members: string[] | null })[];
  dms: [string, string][];
  messages: StoredMessage[];
  views: StoredView[];
  homes: [string, string][];
  modals: [string, string[]][];
  files: {
    id: string;
    name: string;
    title?: string;
    mimetype: string;
    user: string;
    content: string;
    thumbnail?: string;
  }[];
  scheduled: ScheduledMessage[];
  notices: [string, Notice[]][];
  responseUrls: [string, ResponseUrlEntry][];
}

export function snapshot(state: WorkspaceState): WorkspaceSnapshot {
  return structuredClone({
    format: SNAPSHOT_FORMAT,
    version: state.version,
    lastTsMicros: state.lastTsMicros,
    defaultTeamId: state.defaultTeamId ?? null,
    teams: [...state.teams.values()],
    users: [...state.users.values()],
    channels: [...state.channels.values()].map((c) => ({
      ...c,
      members: c.members ? [...c.members] : null,
    })),
    dms: [...state.dms],
    messages: [...state.messages.values()].flat(),
    views: [...state.views.values()],
    homes: [...state.homes].map(([user, view]) => [user, view.id] as [string, string]),
    modals: [...state.modals],
    files: [...state.files.values()].map((f) => ({
      id: f.id,
      name: f.name,
      ...(f.title !== undefined ? { title: f.title } : {}),
      mimetype: f.mimetype,
      user: f.user,
      content: f.content.toString('base64'),
      ...(f.thumbnail ? { thumbnail: f.thumbnail.toString('base64') } : {}),
    })),
    scheduled: [...state.scheduled.values()],
    notices: [...state.notices],
    responseUrls: [...state.responseUrls],
  });
}

function isSnapshot(json: unknown): json is WorkspaceSnapshot {
  if (!isObject(json) || json.format !== SNAPSHOT_FORMAT) return false;
  const lists = ['teams', 'users', 'channels', 'dms', 'messages', 'views', 'homes', 'modals'];
  return lists.every((key) => Array.isArray(json[key]));
}

/** Replaces the whole state with a snapshot's; throws, changing nothing, on a foreign file. */
export function restore(state: WorkspaceState, json: unknown): void {
  if (!isSnapshot(json)) {
    throw new Error(`Not a workspace snapshot (expected format ${SNAPSHOT_FORMAT}).`);
  }
  const data = structuredClone(json);
  for (const map of [
    state.teams,
    state.tokens,
    state.users,
    state.channels,
    state.dms,
    state.messages,
    state.views,
    state.homes,
    state.modals,
    state.files,
    state.uploads,
    state.scheduled,
    state.triggers,
    state.responseUrls,
    state.notices,
  ]) {
    map.clear();
  }
  for (const team of data.teams) {
    state.teams.set(team.id, team);
    state.tokens.set(team.botToken, team);
  }
  state.defaultTeamId = data.defaultTeamId ?? undefined;
  for (const user of data.users) state.users.set(user.id, user);
  for (const channel of data.channels) {
    state.channels.set(channel.id, {
      ...channel,
      members: channel.members ? new Set(channel.members) : undefined,
    });
  }
  for (const [user, id] of data.dms) state.dms.set(user, id);
  for (const message of data.messages) {
    state.messages.set(message.channel, [...(state.messages.get(message.channel) ?? []), message]);
  }
  for (const view of data.views) state.views.set(view.id, view);
  for (const [user, id] of data.homes) {
    const view = state.views.get(id);
    if (view) state.homes.set(user, view);
  }
  for (const [user, ids] of data.modals) state.modals.set(user, ids);
  for (const file of data.files ?? []) {
    const { thumbnail, ...kept } = file;
    state.files.set(file.id, {
      ...kept,
      content: Buffer.from(file.content, 'base64'),
      ...(thumbnail ? { thumbnail: Buffer.from(thumbnail, 'base64') } : {}),
    });
  }
  for (const entry of data.scheduled ?? []) state.scheduled.set(entry.id, entry);
  for (const [user, notices] of data.notices ?? []) state.notices.set(user, notices);
  for (const [id, entry] of data.responseUrls ?? []) state.responseUrls.set(id, entry);
  state.calls.length = 0;
  state.responses.length = 0;
  state.lastModal = undefined;
  state.lastTsMicros = data.lastTsMicros;
  // Versions only grow, so a page still open across the restart refetches.
  state.version = Math.max(state.version, data.version);
  state.changed();
}
