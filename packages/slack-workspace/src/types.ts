/**
 * The simulated workspace's records and its library API. Tests use these objects directly;
 * the page sees a projection of them (see page-state.ts).
 */

export interface Team {
  id: string;
  name: string;
  domain: string;
  botToken: string;
  botUserId: string;
  botId: string;
  appId: string;
  scopes: string[];
  /** The Enterprise Grid org the team belongs to, when it does. */
  enterprise_id?: string | undefined;
  /** Set on the record of an org-wide installation: its bot acts in every team of the org. */
  org?: boolean | undefined;
}

export interface UserInput {
  id: string;
  team_id?: string;
  name: string;
  real_name?: string;
  /** What Slack shows for the person; defaults to `name`. */
  display_name?: string;
  email?: string;
  /** IANA zone, e.g. Europe/Paris. */
  tz?: string;
  /** BCP 47, e.g. fr-FR; users.info gives it with include_locale. */
  locale?: string;
  is_bot?: boolean;
  deleted?: boolean;
}

export interface User extends Required<Omit<UserInput, 'email'>> {
  email: string | undefined;
}

export interface Channel {
  id: string;
  name: string;
  is_private: boolean;
  is_im: boolean;
  /** The bot can post only where it is a member, unless it has chat:write.public (public only). */
  botIsMember: boolean;
  /** undefined = every user of the team is a member. */
  members: Set<string> | undefined;
  /** The team the channel is in; undefined = the default team. */
  team_id?: string | undefined;
}

export type ChannelInput = Partial<Omit<Channel, 'members'>> & { id: string; members?: string[] };

export interface StoredMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  thread_ts: string | undefined;
  user: string;
  bot_id: string | undefined;
  /** Set for chat.postEphemeral messages: only this user sees them. */
  ephemeralFor?: string;
  deleted?: boolean;
  /** Set once chat.update or a response_url replaced the content. */
  edited?: boolean;
  /** Ids of files shared with the message. */
  files?: string[];
  /** The id Slack's client gives a message a person typed. */
  client_msg_id?: string;
  /** Another app's bot: its app id (the app's own messages carry the team's). */
  app_id?: string;
  /** A classic bot's name, on its `bot_message`s (which have no user). */
  username?: string;
  /** What the app attached to the message's links with chat.unfurl, in the links' order. */
  unfurls?: StoredUnfurl[];
  /**
   * Set on Slack's prompt to connect (chat.unfurl's user_auth_*): the ts of the message whose
   * links it is about. Shown to that message's author alone (`ephemeralFor`).
   */
  authPromptFor?: string;
}

/** One link's unfurl: Block Kit blocks, or a legacy attachment's fields. */
export interface StoredUnfurl {
  url: string;
  blocks?: unknown[];
  attachment?: Record<string, unknown>;
}

export interface StoredView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  hash: string;
  root_view_id: string;
  previous_view_id: string | null;
  external_id: string;
  callback_id: string;
  private_metadata: string;
  /** For Home views, the user it was published to. */
  user_id?: string;
  view: Record<string, unknown>;
  /** Messages under input blocks from a submission answered with response_action errors. */
  errors?: Record<string, string>;
}

export interface StoredFile {
  id: string;
  name: string;
  /** Given when the file was shared (files.completeUploadExternal); the name otherwise. */
  title?: string;
  mimetype: string;
  content: Buffer;
  user: string;
  /**
   * A JPEG picture of an image the browser cannot show (a HEIC photo), as Slack makes one: files
   * carry its thumb_* addresses, and it is served there.
   */
  thumbnail?: Buffer;
}

/** A file reserved by files.getUploadURLExternal, its bytes once posted to the upload URL. */
export interface PendingUpload {
  id: string;
  team_id: string;
  filename: string;
  length: number;
  alt_txt: string | undefined;
  /** Secret part of the upload URL. */
  key: string;
  createdAt: number;
  content: Buffer | undefined;
}

export interface RecordedCall {
  method: string;
  /** Token as presented (Authorization header or `token` field). */
  token: string | undefined;
  /** Parsed arguments; JSON-valued fields (blocks, view, ...) already decoded. */
  args: Record<string, unknown>;
  contentType: string | undefined;
  at: number;
  status: number;
  response: Record<string, unknown>;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
  contentType: string | undefined;
  at: number;
  status: number;
}

export interface ScheduledMessage {
  id: string;
  channel: string;
  post_at: number;
  text: string | undefined;
  blocks: unknown[] | undefined;
  date_created: number;
}

export interface Notice {
  id: string;
  at: number;
  text: string;
  tone: 'error' | 'info';
  /**
   * The conversation it arose in: the page shows it there only. None for what belongs to no
   * conversation (a modal, a global shortcut), shown wherever the person is.
   */
  channel?: string;
}

/** One signed request the workspace sent to the app, and how the app answered. */
export interface Delivery {
  kind: string;
  at: number;
  /** HTTP status, 0 when the app could not be reached or did not answer in time. */
  status: number;
  timedOut: boolean;
  ms: number;
  /** The ack body: parsed JSON, a string, or undefined when empty. */
  answer: unknown;
  /** An event's id, the same on every retry of it. */
  event_id?: string;
  /** Set on a retry: X-Slack-Retry-Num (1 to 3) and X-Slack-Retry-Reason. */
  retry_num?: number;
  retry_reason?: string;
}

/** The manifest's features.app_home. */
export interface AppHome {
  home_tab_enabled: boolean;
  messages_tab_enabled: boolean;
  /** The Messages tab shows what the app sends, and people cannot write there. */
  messages_tab_read_only_enabled: boolean;
}

/** The app's manifest facts the workspace needs (see manifest.ts). */
export interface AppFacts {
  name: string;
  commands: { command: string; description: string; usage_hint: string }[];
  shortcuts: { callback_id: string; name: string; type: 'message' | 'global' }[];
  scopes: string[];
  /**
   * Bot events the app subscribes to, each delivered only with the scope it needs (message.im
   * im:history, message.channels channels:history, message.groups groups:history, app_mention
   * app_mentions:read, link_shared links:read). Undefined = every event that what people do
   * causes, without scope checks; the app's own messages, edits and deletions come back to it as
   * message events only when the list is given.
   */
  events?: string[];
  /** features.unfurl_domains: links to these domains, or their subdomains, go to the app. */
  unfurl_domains?: string[];
  /** features.app_home; undefined = a Home tab and a Messages tab people can write in. */
  app_home?: AppHome;
  /** The manifest's `functions`: steps the app offers to workflows. */
  functions?: AppFunction[];
}

/** One input or output of a step, as the manifest declares it (named by its key there). */
export interface FunctionParam {
  name: string;
  type: string;
  title: string;
  description: string;
  is_required: boolean;
  /** An array's element type. */
  items?: { type: string } | undefined;
}

/** A step an app offers Workflow Builder (a custom function). */
export interface AppFunction {
  callback_id: string;
  title: string;
  description: string;
  input_parameters: FunctionParam[];
  output_parameters: FunctionParam[];
}

export interface Controls {
  /** Sends the daily DMs that are due now; resolves with how many went out. */
  digest?: () => Promise<number>;
  reset?: () => Promise<void>;
}

export interface WorkspaceOptions {
  /** The default team (T0001, bot token xoxb-fake-bot-token) is created unless false. */
  defaultTeam?: Partial<Team> | false;
  /** The default channel C0001 #general (bot is a member) is created unless false. */
  defaultChannel?: boolean;
  port?: number;
  host?: string;
  /** The app's request URL (its /slack/events) and signing secret; also settable later. */
  appUrl?: string;
  signingSecret?: string;
  /** Manifest facts; the default team's scopes follow `app.scopes` when given. */
  app?: AppFacts;
  /** Directory holding the built page (index.html and its assets). */
  pageDir?: string;
  controls?: Controls;
  /** How long the app has to answer a request; Slack's rule is 3 s. */
  ackTimeoutMs?: number;
  /**
   * Delays (ms) before an unanswered event's retries 1, 2 and 3, as Slack retries events
   * (SLACK_EVENT_RETRY_DELAYS_MS is Slack's own schedule); none by default: each event goes once.
   */
  eventRetryDelaysMs?: readonly number[];
  /**
   * Strict (the default): trigger ids and response_urls the workspace did not issue are refused.
   * Lenient: unknown Slack-shaped trigger ids are accepted once and unknown response_urls are
   * recorded, for tests that build their own payloads.
   */
  strict?: boolean;
}
