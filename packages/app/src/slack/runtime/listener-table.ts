/**
 * Where every feature registers its listeners. Buttons, form submissions, menu searches and events
 * are each found by their id (an event by its type) in a map, behind one Bolt listener per kind;
 * the command and the shortcut go to Bolt as they are (the app has one of each). The kinds of
 * durable job a feature
 * carries out after an ack (shared/durable.ts) are registered here too, for the composition root
 * to start once the app serves.
 *
 * Bolt tries every registered listener on every request, slash commands included: each try copies
 * the request's arguments into a new object and runs the listener's filters through promises.
 * In CPU profiles of a burst of /split acks, Bolt's matching took 17-18% of the app's busy time
 * with a listener per button (28 in all) and 10% with one per kind (six), for the same requests.
 * Events later came to nine listeners of their own, and each request's tries were the first source
 * of garbage after the async hooks in an allocation profile of the same burst; they are one now.
 * Two features may listen to one event type (App Home opened): both run, as Bolt runs two
 * listeners, and a failure of one is reported once the other has finished too.
 *
 * The per-kind listener matches only the ids registered here, so an unknown id is left unhandled
 * exactly as Bolt would leave it.
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
import { escapeRegex } from '../../core/regex.js';
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

function exactly(ids: Iterable<string>): RegExp {
  const escaped = [...ids].map(escapeRegex);
  return new RegExp(`^(?:${escaped.join('|')})$`);
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
  const direct: ((app: App) => void)[] = [];
  const add = <H>(kind: string, map: Map<string, H>, id: string, handler: H) => {
    if (map.has(id)) throw new Error(`two ${kind} listeners for "${id}"`);
    map.set(id, handler);
  };
  return {
    command(name, handler) {
      direct.push((app) => app.command(name, handler));
    },
    event(type, handler) {
      const listeners = events.get(type) ?? [];
      listeners.push(handler as AnyHandler);
      events.set(type, listeners);
    },
    shortcut(callbackId, handler) {
      direct.push((app) => app.shortcut(callbackId, handler as AnyHandler));
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
      for (const register of direct) register(app);
      if (actions.size > 0) {
        app.action({ action_id: exactly(actions.keys()) }, async (args) => {
          const id = (args.payload as { action_id: string }).action_id;
          await actions.get(id)?.(args);
        });
      }
      if (events.size > 0) {
        app.event(exactly(events.keys()), async (args) => {
          const outcomes = await Promise.allSettled(
            (events.get(args.event.type) ?? []).map((handler) => handler(args)),
          );
          const failed = outcomes.find((outcome) => outcome.status === 'rejected');
          if (failed) throw failed.reason;
        });
      }
      if (views.size > 0) {
        app.view({ callback_id: exactly(views.keys()), type: 'view_submission' }, async (args) => {
          await views.get(args.view.callback_id)?.(args);
        });
      }
      if (options.size > 0) {
        app.options({ action_id: exactly(options.keys()) }, async (args) => {
          const id = (args.payload as { action_id: string }).action_id;
          await options.get(id)?.(args);
        });
      }
    },
  };
}
