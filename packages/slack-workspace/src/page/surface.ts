// Builds the renderer's context for one surface (a message, the Home tab or a modal) from the
// workspace state: name lookups, where its actions and option queries go, and its values.
import { api } from './api.js';
import { collectValues, type RenderContext, type Surface, ValueStore } from './blocks/context.js';
import type { Block, Container, State } from './types.js';
import { type PageWords, pageWords } from './words.js';

/** The acting person's Slack locale, as they chose it beside "Acting as". */
export function localeOf(state: State): string | undefined {
  return state.people.find((p) => p.id === state.acting)?.locale;
}

/** The chrome's words in the acting person's language. */
export function wordsOf(state: State): PageWords {
  return pageWords(localeOf(state));
}

export interface SurfaceHooks {
  /** Reports a failed call to the person (the page shows it as a notice). */
  fail(error: unknown): void;
  /** Tells the person what something they started did (an information notice). */
  notify(text: string): void;
}

/**
 * One ValueStore per surface, kept across re-renders. A surface given a version starts a new
 * store when the version changes: what the app publishes to App Home or writes into a message
 * is what those show, as in Slack. A modal is given none, so a views.update that keeps block
 * and action ids keeps what was typed.
 */
export class SurfaceValues {
  readonly #stores = new Map<string, { version: string; store: ValueStore }>();

  for(key: string, version = ''): ValueStore {
    const found = this.#stores.get(key);
    if (found && found.version === version) return found.store;
    const store = new ValueStore();
    this.#stores.set(key, { version, store });
    return store;
  }
}

/**
 * A short fingerprint of what an app sent (a message's blocks), for the version of a surface
 * that has no hash of its own: FNV-1a over its JSON.
 */
export function contentVersion(content: unknown): string {
  const json = JSON.stringify(content) ?? '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) {
    hash ^= json.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${json.length}-${(hash >>> 0).toString(36)}`;
}

function containerKey(container: Container): string {
  return container.type === 'view'
    ? `view:${container.view_id}`
    : `msg:${container.channel}:${container.ts}${container.unfurl_url ? `:${container.unfurl_url}` : ''}`;
}

export function surfaceContext(options: {
  state: State;
  surface: Surface;
  container: Container;
  blocks: Block[];
  values: SurfaceValues;
  hooks: SurfaceHooks;
  /** See SurfaceValues: App Home's hash, a message's content version; none for a modal. */
  version?: string;
  errors?: Record<string, string>;
}): RenderContext {
  const { state, container, blocks, hooks } = options;
  const acting = state.acting;
  const people = new Map(state.people.map((p) => [p.id, p.display_name || p.real_name || p.name]));
  const channels = new Map(state.channels.map((c) => [c.id, c.name]));
  const me = state.people.find((p) => p.id === acting);
  const key = containerKey(container);
  const values = options.values.for(key, options.version);
  return {
    surface: options.surface,
    idPrefix: key.replace(/[^A-Za-z0-9]/g, '_'),
    timeZone: me?.tz || Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: me?.locale,
    // The app's bot is named as people are (a mention of it reads @Split), but is no person to
    // pick in a users select.
    userName: (id) => people.get(id) ?? (id === state.app.bot_user_id ? state.app.name : undefined),
    channelName: (id) => channels.get(id),
    people: [...people].map(([id, name]) => ({ id, name })),
    channels: state.channels.filter((c) => c.kind === 'channel'),
    values,
    errors: options.errors,
    onAction: (action) => {
      api.action(acting, container, action, collectValues(blocks, values)).catch(hooks.fail);
    },
    loadOptions: (query) => api.options(acting, container, query),
  };
}

export function displayName(state: State, id: string, fallback: string): string {
  const person = state.people.find((p) => p.id === id);
  return person?.display_name || person?.real_name || fallback;
}
