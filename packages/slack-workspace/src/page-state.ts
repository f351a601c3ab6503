/**
 * What the page sees: the workspace's state projected for one person (the `acting` user), in the
 * JSON shapes the page and the server agree on.
 */
import { isObject } from './http-util.js';
import { LOCALES } from './locales.js';
import type { WorkspaceState } from './state.js';
import type {
  AppFacts,
  Controls,
  Notice,
  StoredMessage,
  StoredUnfurl,
  StoredView,
  User,
} from './types.js';

type Block = unknown;
type PlainText = { type: 'plain_text'; text: string; emoji?: boolean };

export interface PagePerson {
  id: string;
  name: string;
  display_name: string;
  real_name: string;
  email: string;
  is_bot: boolean;
  tz: string;
  locale: string;
}

export interface PageChannel {
  id: string;
  name: string;
  kind: 'channel' | 'app';
}

export interface PageMessage {
  ts: string;
  channel: string;
  thread_ts?: string;
  reply_count: number;
  sender: { id: string; name: string; is_bot: boolean };
  text: string;
  blocks?: Block[];
  ephemeral: boolean;
  edited: boolean;
  files?: { id: string; name: string; mimetype: string; url: string }[];
  /** The app's previews of the message's links (chat.unfurl), in the links' order. */
  unfurls?: PageUnfurl[];
  /** A deleted message that still has replies: Slack keeps its place in the conversation. */
  deleted?: boolean;
}

/** An unfurl: the app's blocks, or a legacy attachment's title and text. */
export interface PageUnfurl {
  url: string;
  blocks?: Block[];
  title?: string;
  title_link?: string;
  text?: string;
}

export interface PageView {
  id: string;
  type: 'modal' | 'home';
  hash: string;
  callback_id: string;
  title?: PlainText;
  submit?: PlainText;
  close?: PlainText;
  blocks: Block[];
  private_metadata: string;
  errors?: Record<string, string>;
}

export interface PageState {
  version: number;
  team: { id: string; name: string };
  app: {
    name: string;
    bot_user_id: string;
    commands: AppFacts['commands'];
    shortcuts: AppFacts['shortcuts'];
  };
  /** App Home's tabs, as the manifest's features.app_home sets them. */
  app_home: { home: boolean; messages: 'writable' | 'read_only' | 'off' };
  people: PagePerson[];
  /** The languages a person can choose (their `locale` is one of them). */
  locales: { locale: string; name: string }[];
  acting: string;
  channels: PageChannel[];
  messages: Record<string, PageMessage[]>;
  home: PageView | null;
  modals: PageView[];
  notices: Notice[];
  controls: { digest: boolean; reset: boolean };
}

/** The default team's people; with `everyTeam`, every team's (the install page's chooser). */
export function people(state: WorkspaceState, everyTeam = false): User[] {
  const team = state.defaultTeam();
  return [...state.users.values()].filter(
    (u) => (everyTeam || u.team_id === team?.id) && !u.is_bot && !u.deleted,
  );
}

function person(user: User): PagePerson {
  return {
    id: user.id,
    name: user.name,
    display_name: user.display_name,
    real_name: user.real_name,
    email: user.email ?? '',
    is_bot: user.is_bot,
    tz: user.tz,
    locale: user.locale,
  };
}

function plainText(value: unknown): PlainText | undefined {
  if (!isObject(value) || typeof value.text !== 'string') return undefined;
  return {
    type: 'plain_text',
    text: value.text,
    ...(typeof value.emoji === 'boolean' ? { emoji: value.emoji } : {}),
  };
}

export function pageView(view: StoredView): PageView {
  const title = plainText(view.view.title);
  const submit = plainText(view.view.submit);
  const close = plainText(view.view.close);
  return {
    id: view.id,
    type: view.type,
    hash: view.hash,
    callback_id: view.callback_id,
    ...(title ? { title } : {}),
    ...(submit ? { submit } : {}),
    ...(close ? { close } : {}),
    blocks: Array.isArray(view.view.blocks) ? view.view.blocks : [],
    private_metadata: view.private_metadata,
    ...(view.errors ? { errors: { ...view.errors } } : {}),
  };
}

export function pageState(
  state: WorkspaceState,
  app: AppFacts,
  controls: Controls,
  acting: string,
): PageState {
  const team = state.defaultTeam();
  const humans = people(state);
  const senderName = (m: StoredMessage) => {
    if (team && m.user === team.botUserId) return app.name;
    return m.username ?? state.users.get(m.user)?.display_name ?? m.user;
  };

  const channels: PageChannel[] = [...state.channels.values()]
    .filter((c) => !c.is_im && (!c.members || c.members.has(acting)))
    .map((c) => ({ id: c.id, name: c.name, kind: 'channel' as const }));
  if (humans.some((u) => u.id === acting)) {
    // Named without creating it: a read must not change the state it reports.
    const dm = state.dms.get(acting) ?? `D${acting.replace(/^[UW]/, '')}`;
    channels.push({ id: dm, name: app.name, kind: 'app' });
  }

  const messages: Record<string, PageMessage[]> = Object.create(null);
  for (const channel of channels) {
    const seen = (state.messages.get(channel.id) ?? []).filter(
      (m) => !m.ephemeralFor || m.ephemeralFor === acting,
    );
    const replies = new Map<string, number>();
    for (const m of seen) {
      if (!m.deleted && m.thread_ts && m.thread_ts !== m.ts)
        replies.set(m.thread_ts, (replies.get(m.thread_ts) ?? 0) + 1);
    }
    // A deleted message is gone, unless replies still hang from it.
    const stored = seen.filter((m) => !m.deleted || (replies.get(m.ts) ?? 0) > 0);
    messages[channel.id] = stored.map((m) => pageMessage(state, m, replies, senderName));
  }

  const home = state.homes.get(acting);
  return {
    version: state.version,
    team: { id: team?.id ?? '', name: team?.name ?? '' },
    app: {
      name: app.name,
      bot_user_id: team?.botUserId ?? '',
      commands: app.commands,
      shortcuts: app.shortcuts,
    },
    app_home: {
      home: app.app_home?.home_tab_enabled ?? true,
      messages: !app.app_home
        ? 'writable'
        : !app.app_home.messages_tab_enabled
          ? 'off'
          : app.app_home.messages_tab_read_only_enabled
            ? 'read_only'
            : 'writable',
    },
    people: humans.map(person),
    locales: LOCALES.map((l) => ({ ...l })),
    acting,
    channels,
    messages,
    home: home ? pageView(home) : null,
    modals: state.modalStack(acting).map(pageView),
    notices: [...(state.notices.get(acting) ?? [])],
    controls: { digest: Boolean(controls.digest), reset: Boolean(controls.reset) },
  };
}

function pageMessage(
  state: WorkspaceState,
  m: StoredMessage,
  replies: Map<string, number>,
  senderName: (m: StoredMessage) => string,
): PageMessage {
  if (m.deleted) {
    return {
      ts: m.ts,
      channel: m.channel,
      reply_count: replies.get(m.ts) ?? 0,
      sender: { id: '', name: '', is_bot: false },
      text: '',
      ephemeral: false,
      edited: false,
      deleted: true,
    };
  }
  const files = (m.files ?? [])
    .map((id) => state.files.get(id))
    .filter((f) => f !== undefined)
    .map((f) => ({
      id: f.id,
      name: f.name,
      mimetype: f.mimetype,
      url: `${state.origin}/workspace-api/files/${encodeURIComponent(f.id)}`,
    }));
  return {
    ts: m.ts,
    channel: m.channel,
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
    reply_count: replies.get(m.ts) ?? 0,
    sender: {
      id: m.user,
      name: senderName(m),
      is_bot: m.bot_id !== undefined,
    },
    text: m.text ?? '',
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ephemeral: m.ephemeralFor !== undefined,
    edited: m.edited ?? false,
    ...(files.length > 0 ? { files } : {}),
    ...(m.unfurls?.length ? { unfurls: m.unfurls.map(pageUnfurl) } : {}),
  };
}

function pageUnfurl(unfurl: StoredUnfurl): PageUnfurl {
  const field = (name: string) => {
    const value = unfurl.attachment?.[name];
    return typeof value === 'string' && value !== '' ? { [name]: value } : {};
  };
  return {
    url: unfurl.url,
    ...(unfurl.blocks ? { blocks: unfurl.blocks } : {}),
    ...field('title'),
    ...field('title_link'),
    ...field('text'),
  };
}
