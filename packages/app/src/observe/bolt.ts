/**
 * Bolt's side of observing: a global middleware that names the request's kind, times the
 * middleware and listeners, and gives the request an id when no receiver did (Socket Mode).
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { currentRequest, type SlackRequestKind, withRequest } from './context.js';
import type { Metrics } from './metrics.js';

const KINDS = new Map<string, SlackRequestKind>([
  ['block_actions', 'action'],
  ['interactive_message', 'action'],
  ['view_submission', 'view'],
  ['view_closed', 'view'],
  ['block_suggestion', 'options'],
  ['dialog_suggestion', 'options'],
  ['shortcut', 'shortcut'],
  ['message_action', 'shortcut'],
  ['event_callback', 'event'],
]);

function requestKind(body: unknown): SlackRequestKind {
  const fields = (body ?? {}) as { command?: unknown; type?: unknown };
  if (typeof fields.command === 'string') return 'command';
  return (typeof fields.type === 'string' && KINDS.get(fields.type)) || 'other';
}

export function observeRequests(metrics: Metrics): Middleware<AnyMiddlewareArgs> {
  return async ({ body, next }) => {
    const kind = requestKind(body);
    const started = performance.now();
    const handle = async () => {
      const request = currentRequest();
      if (request) request.kind = kind;
      try {
        await next();
      } finally {
        metrics.slackRequest(kind, (performance.now() - started) / 1000);
      }
    };
    await (currentRequest() ? handle() : withRequest(handle));
  };
}
