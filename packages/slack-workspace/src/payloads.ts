/**
 * Request bodies shaped like Slack's: slash commands, interactivity payloads and Events API
 * envelopes. Each builder returns the exact bytes to sign and send (see signing.ts). Defaults
 * match the workspace's default team: team T0001, user U0ANN, channel C0001, app A0FAKEAPP.
 */
import { randomBytes } from 'node:crypto';
import { FORM, JSON_TYPE, type SlackRequest } from './signing.js';

/** Who and where, shared by every builder. Defaults match the fake Slack's default team. */
export interface Actor {
  team_id?: string;
  team_domain?: string;
  user_id?: string;
  user_name?: string;
  channel_id?: string;
  channel_name?: string;
  api_app_id?: string;
  /** The Enterprise Grid org of the team, when it has one. */
  enterprise_id?: string | null;
  /** The app serving this request was installed on the whole org, not the team alone. */
  is_enterprise_install?: boolean;
}

export const DEFAULT_ACTOR: Required<Actor> = {
  team_id: 'T0001',
  team_domain: 'acme',
  user_id: 'U0ANN',
  user_name: 'ann',
  channel_id: 'C0001',
  channel_name: 'general',
  api_app_id: 'A0FAKEAPP',
  enterprise_id: null,
  is_enterprise_install: false,
};

/**
 * Where respond() goes when a test gives no response_url: the discard port on loopback, so a
 * forgotten URL fails fast and locally instead of reaching for hooks.slack.com.
 */
export const UNSET_RESPONSE_URL = 'http://127.0.0.1:9/response/unset';

function actor(a: Actor = {}): Required<Actor> {
  return { ...DEFAULT_ACTOR, ...a };
}

/** Slack-shaped trigger id: `<seconds>.<number>.<32 hex>`. */
export function newTriggerId(): string {
  return `${Math.floor(Date.now() / 1000)}.${Math.floor(Math.random() * 1e12)}.${randomBytes(16).toString('hex')}`;
}

function actionTs(): string {
  const micros = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

function form(fields: Record<string, string>): SlackRequest {
  // URLSearchParams encodes spaces as '+', as Slack's own form bodies do.
  return { body: new URLSearchParams(fields).toString(), contentType: FORM, payload: fields };
}

function interactive(payload: Record<string, unknown>): SlackRequest {
  return {
    body: `payload=${encodeURIComponent(JSON.stringify(payload))}`,
    contentType: FORM,
    payload,
  };
}

function userOf(a: Required<Actor>) {
  return { id: a.user_id, username: a.user_name, name: a.user_name, team_id: a.team_id };
}

function teamOf(a: Required<Actor>) {
  return { id: a.team_id, domain: a.team_domain };
}

// --- slash command ---------------------------------------------------------------------------

export interface CommandOptions extends Actor {
  command?: string;
  text?: string;
  response_url?: string;
  trigger_id?: string;
}

export function slashCommand(options: CommandOptions = {}): SlackRequest {
  const a = actor(options);
  return form({
    token: 'legacy-verification-token',
    team_id: a.team_id,
    team_domain: a.team_domain,
    channel_id: a.channel_id,
    channel_name: a.channel_name,
    user_id: a.user_id,
    user_name: a.user_name,
    command: options.command ?? '/split',
    text: options.text ?? '',
    api_app_id: a.api_app_id,
    ...(a.enterprise_id ? { enterprise_id: a.enterprise_id } : {}),
    is_enterprise_install: String(a.is_enterprise_install),
    response_url: options.response_url ?? UNSET_RESPONSE_URL,
    trigger_id: options.trigger_id ?? newTriggerId(),
  });
}

// --- block_actions ---------------------------------------------------------------------------

export interface ActionInput {
  action_id: string;
  block_id?: string;
  /** Element type; defaults to button. */
  type?: string;
  value?: string;
  /** Any further element fields (selected_option, selected_user, selected_date, ...). */
  [field: string]: unknown;
}

export interface BlockActionsOptions extends Actor {
  actions: ActionInput | ActionInput[];
  /** Message surface: the message that carried the element (ts, text, blocks). */
  message?: { ts: string; text?: string; blocks?: unknown[]; user?: string; bot_id?: string };
  /** Modal or Home surface: the view the element is in (see viewPayload). */
  view?: ViewPayload;
  is_ephemeral?: boolean;
  response_url?: string;
  trigger_id?: string;
  /** state.values for message surfaces (views carry theirs in view.state). */
  state?: Record<string, Record<string, unknown>>;
}

export function blockActions(options: BlockActionsOptions): SlackRequest {
  const a = actor(options);
  const actions = (Array.isArray(options.actions) ? options.actions : [options.actions]).map(
    (action) => ({
      type: 'button',
      block_id: 'actions',
      action_ts: actionTs(),
      ...action,
      ...((action.type === undefined || action.type === 'button') && action.text === undefined
        ? { text: { type: 'plain_text', text: action.action_id, emoji: true } }
        : {}),
    }),
  );
  const payload: Record<string, unknown> = {
    type: 'block_actions',
    user: userOf(a),
    api_app_id: a.api_app_id,
    token: 'legacy-verification-token',
    trigger_id: options.trigger_id ?? newTriggerId(),
    team: teamOf(a),
    enterprise: a.enterprise_id ? { id: a.enterprise_id } : null,
    is_enterprise_install: a.is_enterprise_install,
    actions,
  };
  if (options.view) {
    payload.container = { type: 'view', view_id: options.view.id };
    payload.view = options.view;
    payload.state = options.view.state;
  } else {
    const message = options.message ?? { ts: actionTs(), text: '' };
    payload.container = {
      type: 'message',
      message_ts: message.ts,
      channel_id: a.channel_id,
      is_ephemeral: options.is_ephemeral ?? false,
    };
    payload.channel = { id: a.channel_id, name: a.channel_name };
    payload.message = {
      type: 'message',
      user: message.user ?? 'U0BOT0001',
      bot_id: message.bot_id ?? 'B0BOT0001',
      ts: message.ts,
      text: message.text ?? '',
      ...(message.blocks ? { blocks: message.blocks } : {}),
    };
    payload.state = { values: options.state ?? {} };
    payload.response_url = options.response_url ?? UNSET_RESPONSE_URL;
  }
  return interactive(payload);
}

// --- views ------------------------------------------------------------------------------------

export interface ViewOptions {
  id?: string;
  type?: 'modal' | 'home';
  callback_id?: string;
  private_metadata?: string;
  /** state.values: block_id -> action_id -> { type, value | selected_* } */
  values?: Record<string, Record<string, Record<string, unknown>>>;
  blocks?: unknown[];
  hash?: string;
  external_id?: string;
  root_view_id?: string;
  previous_view_id?: string | null;
  team_id?: string;
  app_id?: string;
  title?: string;
}

export type ViewPayload = Record<string, unknown> & {
  id: string;
  state: { values: Record<string, Record<string, Record<string, unknown>>> };
};

/** The `view` object Slack puts in interaction payloads. */
export function viewPayload(options: ViewOptions = {}): ViewPayload {
  const id = options.id ?? `V0${randomBytes(5).toString('hex').toUpperCase()}`;
  const team = options.team_id ?? DEFAULT_ACTOR.team_id;
  return {
    id,
    team_id: team,
    type: options.type ?? 'modal',
    blocks: options.blocks ?? [],
    private_metadata: options.private_metadata ?? '',
    callback_id: options.callback_id ?? '',
    state: { values: options.values ?? {} },
    hash: options.hash ?? `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`,
    title: { type: 'plain_text', text: options.title ?? 'Split', emoji: true },
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: { type: 'plain_text', text: 'Save', emoji: true },
    previous_view_id: options.previous_view_id ?? null,
    root_view_id: options.root_view_id ?? id,
    app_id: options.app_id ?? DEFAULT_ACTOR.api_app_id,
    external_id: options.external_id ?? '',
    app_installed_team_id: team,
    bot_id: 'B0BOT0001',
  };
}

export interface ViewSubmissionOptions extends Actor, ViewOptions {
  trigger_id?: string;
  /** The whole view object, when the caller has a real one (the other view fields are ignored). */
  fullView?: ViewPayload;
  /** Items of `response_urls` (for inputs with response_url_enabled). */
  response_urls?: Array<{
    block_id: string;
    action_id: string;
    channel_id: string;
    response_url: string;
  }>;
}

export function viewSubmission(options: ViewSubmissionOptions = {}): SlackRequest {
  const a = actor(options);
  return interactive({
    type: 'view_submission',
    team: teamOf(a),
    user: userOf(a),
    api_app_id: a.api_app_id,
    token: 'legacy-verification-token',
    trigger_id: options.trigger_id ?? newTriggerId(),
    view: options.fullView ?? viewPayload({ ...options, team_id: a.team_id }),
    response_urls: options.response_urls ?? [],
    enterprise: a.enterprise_id ? { id: a.enterprise_id } : null,
    is_enterprise_install: a.is_enterprise_install,
  });
}

export function viewClosed(
  options: ViewOptions & Actor & { is_cleared?: boolean; fullView?: ViewPayload } = {},
): SlackRequest {
  const a = actor(options);
  return interactive({
    type: 'view_closed',
    team: teamOf(a),
    user: userOf(a),
    api_app_id: a.api_app_id,
    token: 'legacy-verification-token',
    view: options.fullView ?? viewPayload({ ...options, team_id: a.team_id }),
    is_cleared: options.is_cleared ?? false,
    enterprise: a.enterprise_id ? { id: a.enterprise_id } : null,
    is_enterprise_install: a.is_enterprise_install,
  });
}

// --- shortcuts and options ---------------------------------------------------------------------

export interface MessageShortcutOptions extends Actor {
  callback_id?: string;
  message?: {
    ts?: string;
    text?: string;
    user?: string;
    blocks?: unknown[];
    thread_ts?: string;
    /** Slack's file objects of the files shared with the message. */
    files?: unknown[];
  };
  response_url?: string;
  trigger_id?: string;
}

/** A message shortcut ("Split this" by default) used on someone's message. */
export function messageShortcut(options: MessageShortcutOptions = {}): SlackRequest {
  const a = actor(options);
  const message = options.message ?? {};
  const ts = message.ts ?? actionTs();
  return interactive({
    type: 'message_action',
    token: 'legacy-verification-token',
    action_ts: actionTs(),
    team: teamOf(a),
    user: userOf(a),
    channel: { id: a.channel_id, name: a.channel_name },
    is_enterprise_install: a.is_enterprise_install,
    enterprise: a.enterprise_id ? { id: a.enterprise_id } : null,
    callback_id: options.callback_id ?? 'split_message',
    trigger_id: options.trigger_id ?? newTriggerId(),
    response_url: options.response_url ?? UNSET_RESPONSE_URL,
    message_ts: ts,
    message: {
      type: 'message',
      user: message.user ?? a.user_id,
      ts,
      text: message.text ?? '',
      ...(message.blocks ? { blocks: message.blocks } : {}),
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      ...(message.files ? { files: message.files } : {}),
      team: a.team_id,
    },
    api_app_id: a.api_app_id,
  });
}

export interface BlockSuggestionOptions extends Actor {
  action_id: string;
  block_id?: string;
  /** What the person typed. */
  value: string;
  /** When the select is in a modal or Home tab. */
  view?: ViewPayload;
}

export function blockSuggestion(options: BlockSuggestionOptions): SlackRequest {
  const a = actor(options);
  const payload: Record<string, unknown> = {
    type: 'block_suggestion',
    user: userOf(a),
    container: options.view
      ? { type: 'view', view_id: options.view.id }
      : { type: 'message', message_ts: actionTs(), channel_id: a.channel_id, is_ephemeral: false },
    api_app_id: a.api_app_id,
    token: 'legacy-verification-token',
    action_id: options.action_id,
    block_id: options.block_id ?? options.action_id,
    value: options.value,
    team: teamOf(a),
    enterprise: a.enterprise_id ? { id: a.enterprise_id } : null,
    is_enterprise_install: a.is_enterprise_install,
  };
  if (options.view) payload.view = options.view;
  else payload.channel = { id: a.channel_id, name: a.channel_name };
  return interactive(payload);
}

// --- Events API ------------------------------------------------------------------------------

export interface EventOptions {
  team_id?: string;
  api_app_id?: string;
  event_id?: string;
  event_time?: number;
  /** The bot user the event is authorised for. */
  authorized_user_id?: string;
  /** The Enterprise Grid org of the team, when it has one. */
  enterprise_id?: string | null;
  /** The app was installed on the whole org. */
  is_enterprise_install?: boolean;
}

/** An `event_callback` envelope around `event`. */
export function eventCallback(
  event: Record<string, unknown>,
  options: EventOptions = {},
): SlackRequest {
  const team = options.team_id ?? DEFAULT_ACTOR.team_id;
  const payload = {
    token: 'legacy-verification-token',
    team_id: team,
    context_team_id: team,
    context_enterprise_id: options.enterprise_id ?? null,
    ...(options.enterprise_id ? { enterprise_id: options.enterprise_id } : {}),
    api_app_id: options.api_app_id ?? DEFAULT_ACTOR.api_app_id,
    event,
    type: 'event_callback',
    event_id: options.event_id ?? `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: options.event_time ?? Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: options.enterprise_id ?? null,
        team_id: team,
        user_id: options.authorized_user_id ?? 'U0BOT0001',
        is_bot: true,
        is_enterprise_install: options.is_enterprise_install ?? false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(12).toString('hex')}`,
  };
  return { body: JSON.stringify(payload), contentType: JSON_TYPE, payload };
}

export interface AppHomeOpenedOptions extends EventOptions {
  user?: string;
  tab?: 'home' | 'messages';
  channel?: string;
  /** The Home view published before, if any. */
  view?: Record<string, unknown>;
}

export function appHomeOpened(options: AppHomeOpenedOptions = {}): SlackRequest {
  const user = options.user ?? DEFAULT_ACTOR.user_id;
  const event: Record<string, unknown> = {
    type: 'app_home_opened',
    user,
    channel: options.channel ?? `D${user.replace(/^[UW]/, '')}`,
    tab: options.tab ?? 'home',
    event_ts: actionTs(),
  };
  if (options.view) event.view = options.view;
  return eventCallback(event, options);
}

/**
 * `user_change`: a member's profile changed. The event carries the whole user object, as
 * users.info gives it, with the member's `locale`.
 */
export function userChange(
  user: Record<string, unknown>,
  options: EventOptions = {},
): SlackRequest {
  const now = Date.now() / 1000;
  return eventCallback(
    { type: 'user_change', user, cache_ts: Math.floor(now), event_ts: actionTs() },
    options,
  );
}

export function appUninstalled(options: EventOptions = {}): SlackRequest {
  return eventCallback({ type: 'app_uninstalled', event_ts: actionTs() }, options);
}

export function tokensRevoked(
  revoked: { oauth?: string[]; bot?: string[] },
  options: EventOptions = {},
): SlackRequest {
  return eventCallback({ type: 'tokens_revoked', tokens: revoked, event_ts: actionTs() }, options);
}

export function urlVerification(challenge = randomBytes(16).toString('hex')): SlackRequest {
  const payload = { token: 'legacy-verification-token', challenge, type: 'url_verification' };
  return { body: JSON.stringify(payload), contentType: JSON_TYPE, payload };
}
