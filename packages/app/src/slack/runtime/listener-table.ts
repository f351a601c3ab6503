/**
 * Where every feature registers its listeners. The command, the shortcut, buttons, form
 * submissions, menu searches and events are each found by their id (an event by its type) in a
 * map, and one global Bolt middleware, the last, hands each request to the handlers of its id.
 * The kinds of durable job a feature carries out after an ack (shared/durable.ts) are registered
 * here too, for the composition root to start once the app serves.
 *
 * Bolt tries every registered listener on every request, slash commands included: each try copies
 * the request's arguments into new objects and runs the listener's filters through promises.
 * In CPU profiles of a burst of /split acks, Bolt's matching took 17-18% of the app's busy time
 * with a listener per button (28 in all) and 10% with one per kind (six); with six, an allocation
 * profile of acks alone still had those tries as the largest source of garbage (about a sixth).
 * With no Bolt listener at all, a request costs one map lookup. Two features may listen to one
 * event type (App Home opened): both run, as Bolt runs two listeners, and a failure of one is
 * reported once the other has finished too.
 *
 * Only the ids registered here are handled; any other request goes on to Bolt's listeners (the
 * app registers none) and is left unhandled exactly as Bolt would leave it.
 */
import type {
  App,
  BlockAction,
  Middleware,
  OptionsSource,
  SlackAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcut,
  SlackShortcutMiddlewareArgs,
  SlackViewAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { JobHandler } from './durable.js';

/** The registration calls of Bolt's App, with the same typing. */
export interface ListenerTable {
  command(name: string, handler: Middleware<SlackCommandMiddlewareArgs>): void;
  event<E extends string>(type: E, handler: Middleware<SlackEventMiddlewareArgs<E>>): void;
  shortcut<S extends SlackShortcut = SlackShortcut>(
    callbackId: string,
    handler: Middleware<SlackShortcutMiddlewareArgs<S>>,
  ): void;
  action<A extends SlackAction = BlockAction>(
    actionId: string,
    handler: Middleware<SlackActionMiddlewareArgs<A>>,
  ): void;
  view<V extends SlackViewAction = ViewSubmitAction>(
    callbackId: string,
    handler: Middleware<SlackViewMiddlewareArgs<V>>,
  ): void;
  options<S extends OptionsSource = 'block_suggestion'>(
    actionId: string,
    handler: Middleware<SlackOptionsMiddlewareArgs<S>>,
  ): void;
  /** How a kind of durable job (written before its ack) is carried out, on any replica. */
  job(kind: string, handler: JobHandler): void;
}

// The maps hold handlers of many payload types under one key type; each handler is only ever
// called with the payload its id was registered for, as with Bolt's own generic registration.
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyHandler = (args: any) => Promise<void>;

/** The parts of Bolt's middleware arguments the dispatch reads: which kind, and which id. */
interface Routed {
  command?: { command: string };
  shortcut?: unknown;
  action?: unknown;
  event?: { type?: string };
  view?: { callback_id: string };
  options?: unknown;
  body: { type?: string; callback_id?: string };
  payload: { action_id?: string };
}

export function createListenerTable(): ListenerTable & {
  install(app: App): void;
  /** Every job kind registered, with its handler. */
  jobs(): Record<string, JobHandler>;
} {
  const actions = new Map<string, AnyHandler>();
  const jobs = new Map<string, JobHandler>();
  const views = new Map<string, AnyHandler>();
  const options = new Map<string, AnyHandler>();
  const events = new Map<string, AnyHandler[]>();
  const commands = new Map<string, AnyHandler>();
  const shortcuts = new Map<string, AnyHandler>();
  const add = <H>(kind: string, map: Map<string, H>, id: string, handler: H) => {
    if (map.has(id)) throw new Error(`two ${kind} listeners for "${id}"`);
    map.set(id, handler);
  };
  return {
    command(name, handler) {
      add('command', commands, name, handler as AnyHandler);
    },
    event(type, handler) {
      const listeners = events.get(type) ?? [];
      listeners.push(handler as AnyHandler);
      events.set(type, listeners);
    },
    shortcut(callbackId, handler) {
      add('shortcut', shortcuts, callbackId, handler as AnyHandler);
    },
    action(actionId, handler) {
      add('action', actions, actionId, handler as AnyHandler);
    },
    view(callbackId, handler) {
      add('view', views, callbackId, handler as AnyHandler);
    },
    options(actionId, handler) {
      add('options', options, actionId, handler as AnyHandler);
    },
    job(kind, handler) {
      add('job', jobs, kind, handler);
    },
    jobs: () => Object.fromEntries(jobs),
    install(app) {
      // Which handlers a request is for, read as Bolt's own filters read it: a command by its name,
      // a shortcut by its callback_id, a block action or menu search by its action_id, an event by
      // its type, a view only when submitted.
      const handlersOf = (args: Routed): AnyHandler | AnyHandler[] | undefined => {
        if (args.command) return commands.get(args.command.command);
        if (args.shortcut) return shortcuts.get(args.body.callback_id ?? '');
        if (args.action) return actions.get(args.payload.action_id ?? '');
        if (args.event) return events.get(args.event.type ?? '');
        if (args.view) {
          return args.body.type === 'view_submission'
            ? views.get(args.view.callback_id)
            : undefined;
        }
        if (args.options) return options.get(args.payload.action_id ?? '');
        return undefined;
      };
      app.use(async (args) => {
        const found = handlersOf(args as unknown as Routed);
        // None of the table's: on to Bolt's listeners, of which the app registers none.
        if (found === undefined) return args.next();
        if (!Array.isArray(found)) return found(args);
        const outcomes = await Promise.allSettled(found.map((handler) => handler(args)));
        const failed = outcomes.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      });
    },
  };
}
