// The page's side of the contract with the workspace server, and the loose Block Kit shapes the
// renderer reads. Block Kit JSON arrives exactly as the app sent it, so every field is optional
// and read defensively: a malformed block must render as something, never crash the page.

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}

export type TextObject = PlainText | MrkdwnText;

export interface OptionObject {
  text: TextObject;
  value: string;
  description?: TextObject;
  url?: string;
}

export interface OptionGroup {
  label: PlainText;
  options: OptionObject[];
}

export interface ConfirmObject {
  title?: PlainText;
  text?: TextObject;
  confirm?: PlainText;
  deny?: PlainText;
  style?: 'primary' | 'danger';
}

/** Any interactive or display element; the renderer switches on `type`. */
export interface BlockElement {
  type: string;
  action_id?: string;
  [field: string]: unknown;
}

export interface Block {
  type: string;
  block_id?: string;
  [field: string]: unknown;
}

export interface Person {
  id: string;
  name: string;
  display_name: string;
  real_name: string;
  email: string;
  is_bot: boolean;
  tz: string;
  locale: string;
}

export interface Channel {
  id: string;
  name: string;
  kind: 'channel' | 'app';
}

export interface Message {
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
  /** The app's previews of the message's links, in the links' order. */
  unfurls?: Unfurl[];
  /** A deleted message whose replies are still there. */
  deleted?: boolean;
}

/** An app's unfurl of a link: its blocks, or a legacy attachment's title and text. */
export interface Unfurl {
  url: string;
  blocks?: Block[];
  title?: string;
  title_link?: string;
  text?: string;
}

export interface View {
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

/** A file attached in the composer, sent with the message. */
export interface AttachedFile {
  name: string;
  mimetype: string;
  content_base64: string;
}

export interface AppInfo {
  name: string;
  bot_user_id: string;
  commands: { command: string; description: string; usage_hint: string }[];
  shortcuts: { callback_id: string; name: string; type: 'message' | 'global' }[];
}

export interface State {
  version: number;
  team: { id: string; name: string };
  app: AppInfo;
  /** App Home's tabs as the manifest has them. */
  app_home: { home: boolean; messages: 'writable' | 'read_only' | 'off' };
  people: Person[];
  /** The languages a person can choose. */
  locales: { locale: string; name: string }[];
  acting: string;
  /**
   * Whether this browser is signed in to the workspace as the acting person (for Sign in with
   * Slack); absent where the workspace has no sign-in.
   */
  signed_in?: boolean;
  channels: Channel[];
  messages: Record<string, Message[]>;
  home: View | null;
  modals: View[];
  notices: Notice[];
  controls: { digest: boolean; reset: boolean };
  /** The Workflows panel: the app's steps, the workflows made of them, recent runs. */
  workflows?: Workflows;
}

export interface StepParam {
  name: string;
  type: string;
  title: string;
  description: string;
  is_required: boolean;
  items?: { type: string };
}

export interface AppStep {
  callback_id: string;
  title: string;
  description: string;
  input_parameters: StepParam[];
  output_parameters: StepParam[];
}

export type InputSource = { from: 'value'; value: unknown } | { from: 'form' } | { from: 'runner' };

export type Trigger =
  | { kind: 'link' }
  | { kind: 'schedule'; at: number; repeat?: 'daily' | 'weekly' };

export type RunState = 'running' | 'completed' | 'failed';

export interface Workflows {
  steps: AppStep[];
  list: {
    id: string;
    name: string;
    channel: string;
    trigger: Trigger;
    nextRunAt: number | null;
    form: {
      step: string;
      name: string;
      title: string;
      type: string;
      items: string | null;
      required: boolean;
    }[];
  }[];
  runs: {
    id: string;
    name: string;
    ranBy: string | null;
    startedAt: number;
    state: RunState;
    steps: {
      id: string;
      title: string;
      state: RunState;
      outputs: Record<string, unknown> | null;
      error: string | null;
    }[];
  }[];
}

/** Where an element is; `unfurl_url` names the link whose preview (under the message) holds it. */
export type Container =
  | { type: 'message'; channel: string; ts: string; unfurl_url?: string }
  | { type: 'view'; view_id: string };

/** One element's value in Slack's `view.state.values` shape. */
export interface ElementValue {
  type: string;
  value?: string | null;
  selected_option?: OptionObject | null;
  selected_options?: OptionObject[];
  selected_date?: string | null;
  selected_time?: string | null;
  selected_user?: string | null;
  selected_users?: string[];
  selected_conversation?: string | null;
  selected_conversations?: string[];
  selected_channel?: string | null;
  selected_channels?: string[];
}

export type StateValues = Record<string, Record<string, ElementValue>>;

/** The block action object the page sends; Slack's field names. */
export interface BlockAction extends Partial<ElementValue> {
  type: string;
  action_id: string;
  block_id: string;
  action_ts?: string;
  text?: TextObject;
  style?: string;
  url?: string;
}

export interface OptionsAnswer {
  options?: OptionObject[];
  option_groups?: OptionGroup[];
}
