/** Web API: views.* methods, and the modal stack each person sees. */
import { randomBytes } from 'node:crypto';
import type { Method } from './api-chat.js';
import { viewErrors } from './block-kit.js';
import { optionalStr, SlackError, str } from './http-util.js';
import { randomId, TRIGGER_LIFE_MS, type Trigger, type WorkspaceState } from './state.js';
import type { StoredView, Team } from './types.js';

/** Slack's modal stack: the root and two pushes. */
export const MODAL_STACK_LIMIT = 3;

const TRIGGER_SHAPE = /^\d+\.\d+\.[0-9a-f]+$/i;

/** Spends a trigger id: single use, 3 s life; lenient workspaces accept unknown ones once. */
export function useTrigger(state: WorkspaceState, triggerId: string): Trigger {
  const trigger = state.triggers.get(triggerId);
  if (!trigger && (state.strict || !TRIGGER_SHAPE.test(triggerId)))
    throw new SlackError('invalid_trigger_id');
  if (trigger?.used) throw new SlackError('exchanged_trigger_id');
  if (trigger && state.now() - trigger.issuedAt > TRIGGER_LIFE_MS)
    throw new SlackError('expired_trigger_id');
  const spent: Trigger = { ...(trigger ?? { issuedAt: state.now() }), used: true };
  state.triggers.set(triggerId, spent);
  return spent;
}

/** A view object as given by the app, refused the way Slack refuses it. */
export function parseView(view: unknown): Record<string, unknown> {
  if (typeof view !== 'object' || view === null) {
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] failed to parse view [json-pointer:/view]'] },
    });
  }
  const errors = viewErrors(view);
  if (errors.length > 0) {
    throw new SlackError('invalid_arguments', { response_metadata: { messages: errors } });
  }
  return view as Record<string, unknown>;
}

export function storeView(
  state: WorkspaceState,
  team: Team,
  body: Record<string, unknown>,
  base: { id?: string; root_view_id?: string; previous_view_id?: string | null; user_id?: string },
): StoredView {
  const id = base.id ?? randomId('V0', 9);
  const externalId = (body.external_id as string | undefined) ?? '';
  if (externalId !== '') {
    for (const other of state.views.values()) {
      if (other.external_id === externalId && other.id !== id && other.team_id === team.id) {
        throw new SlackError('duplicate_external_id');
      }
    }
  }
  const stored: StoredView = {
    id,
    team_id: team.id,
    type: body.type === 'home' ? 'home' : 'modal',
    hash: `${Math.floor(state.now() / 1000)}.${randomBytes(4).toString('hex')}`,
    root_view_id: base.root_view_id ?? id,
    previous_view_id: base.previous_view_id ?? null,
    external_id: externalId,
    callback_id: (body.callback_id as string | undefined) ?? '',
    private_metadata: (body.private_metadata as string | undefined) ?? '',
    ...(base.user_id ? { user_id: base.user_id } : {}),
    view: body,
  };
  state.views.set(id, stored);
  state.changed();
  return stored;
}

/** The view object Slack returns from views.* and puts into interaction payloads. */
export function viewJson(
  view: StoredView,
  team: Team,
  values: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: view.id,
    team_id: view.team_id,
    type: view.type,
    blocks: view.view.blocks ?? [],
    private_metadata: view.private_metadata,
    callback_id: view.callback_id,
    state: { values },
    hash: view.hash,
    title: view.view.title ?? null,
    clear_on_close: Boolean(view.view.clear_on_close),
    notify_on_close: Boolean(view.view.notify_on_close),
    close: view.view.close ?? null,
    submit: view.view.submit ?? null,
    previous_view_id: view.previous_view_id,
    root_view_id: view.root_view_id,
    app_id: team.appId,
    external_id: view.external_id,
    app_installed_team_id: team.id,
    bot_id: team.botId,
  };
}

function stackDepth(state: WorkspaceState, view: StoredView): number {
  let depth = 1;
  let current: StoredView | undefined = view;
  while (current?.previous_view_id) {
    depth += 1;
    current = state.views.get(current.previous_view_id);
  }
  return depth;
}

/** Pushes a modal over `below` (the person's top modal), within Slack's stack limit. */
export function pushModal(
  state: WorkspaceState,
  team: Team,
  body: Record<string, unknown>,
  below: StoredView,
  user: string | undefined,
): StoredView {
  if (stackDepth(state, below) >= MODAL_STACK_LIMIT) throw new SlackError('push_limit_reached');
  const view = storeView(state, team, body, {
    root_view_id: below.root_view_id,
    previous_view_id: below.id,
  });
  state.lastModal = view;
  if (user) state.setModalStack(user, [...(state.modals.get(user) ?? []), view.id]);
  return view;
}

/** Replaces a view's content in place: same id, new hash, errors cleared. */
export function replaceView(
  state: WorkspaceState,
  team: Team,
  existing: StoredView,
  body: Record<string, unknown>,
): StoredView {
  return storeView(state, team, body, {
    id: existing.id,
    root_view_id: existing.root_view_id,
    previous_view_id: existing.previous_view_id,
    ...(existing.user_id ? { user_id: existing.user_id } : {}),
  });
}

export function viewMethods(state: WorkspaceState): Record<string, Method> {
  return {
    'views.open': (args, team) => {
      const trigger = useTrigger(state, str(args, 'trigger_id'));
      const body = parseView(args.view);
      if (body.type !== 'modal') throw new SlackError('invalid_arguments');
      const view = storeView(state, team, body, {});
      state.lastModal = view;
      if (trigger.user) state.setModalStack(trigger.user, [view.id]);
      return { view: viewJson(view, team) };
    },
    'views.push': (args, team) => {
      const trigger = useTrigger(state, str(args, 'trigger_id'));
      const body = parseView(args.view);
      const stack = trigger.user ? state.modalStack(trigger.user) : [];
      const below = stack.at(-1) ?? state.lastModal;
      if (!below) throw new SlackError('invalid_arguments');
      return { view: viewJson(pushModal(state, team, body, below, trigger.user), team) };
    },
    'views.update': (args, team) => {
      const viewId = optionalStr(args, 'view_id');
      const externalId = optionalStr(args, 'external_id');
      if (!viewId && !externalId) throw new SlackError('invalid_arguments');
      const existing = viewId
        ? state.views.get(viewId)
        : [...state.views.values()].find(
            (v) => v.external_id === externalId && v.team_id === team.id,
          );
      if (!existing || existing.team_id !== team.id) throw new SlackError('not_found');
      const hash = optionalStr(args, 'hash');
      if (hash !== undefined && hash !== existing.hash) throw new SlackError('hash_conflict');
      const view = replaceView(state, team, existing, parseView(args.view));
      if (view.type === 'home' && view.user_id) state.homes.set(view.user_id, view);
      return { view: viewJson(view, team) };
    },
    'views.publish': (args, team) => {
      const userId = str(args, 'user_id');
      const user = state.users.get(userId);
      if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
      const body = parseView(args.view);
      if (body.type !== 'home') throw new SlackError('invalid_arguments');
      const existing = state.homes.get(userId);
      const hash = optionalStr(args, 'hash');
      if (hash !== undefined && existing && hash !== existing.hash)
        throw new SlackError('hash_conflict');
      const view = storeView(state, team, body, {
        ...(existing ? { id: existing.id } : {}),
        user_id: userId,
      });
      state.homes.set(userId, view);
      state.changed();
      return { view: viewJson(view, team) };
    },
  };
}
