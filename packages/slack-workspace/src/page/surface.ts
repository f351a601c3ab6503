// Builds the renderer's context for one surface (a message, the Home tab or a modal) from the
// workspace state: name lookups, where its actions and option queries go, and its values.
import { api } from './api.js';
import { collectValues, type RenderContext, type Surface, ValueStore } from './blocks/context.js';
import type { Block, Container, State } from './types.js';

export interface SurfaceHooks {
  /** Reports a failed call to the person (the page shows it as a notice). */
  fail(error: unknown): void;
}

/** One ValueStore per surface, kept across re-renders and view updates of the same surface. */
export class SurfaceValues {
  readonly #stores = new Map<string, ValueStore>();

  for(key: string): ValueStore {
    let store = this.#stores.get(key);
    if (!store) {
      store = new ValueStore();
      this.#stores.set(key, store);
    }
    return store;
  }
}

function containerKey(container: Container): string {
  return container.type === 'view'
    ? `view:${container.view_id}`
    : `msg:${container.channel}:${container.ts}`;
}

export function surfaceContext(options: {
  state: State;
  surface: Surface;
  container: Container;
  blocks: Block[];
  values: SurfaceValues;
  hooks: SurfaceHooks;
  errors?: Record<string, string>;
}): RenderContext {
  const { state, container, blocks, hooks } = options;
  const acting = state.acting;
  const people = new Map(state.people.map((p) => [p.id, p.display_name || p.real_name || p.name]));
  const channels = new Map(state.channels.map((c) => [c.id, c.name]));
  const me = state.people.find((p) => p.id === acting);
  const key = containerKey(container);
  const values = options.values.for(key);
  return {
    surface: options.surface,
    idPrefix: key.replace(/[^A-Za-z0-9]/g, '_'),
    timeZone: me?.tz || Intl.DateTimeFormat().resolvedOptions().timeZone,
    userName: (id) => people.get(id),
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
