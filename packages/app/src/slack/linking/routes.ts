/**
 * The app's plain HTTP routes beside Bolt's /slack/events: health, and the three browser routes
 * of account linking (start, back from Sign in with Slack, back from the service's consent). They
 * are ordinary web routes, not signature-checked (a browser calls them).
 */
import type { ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import {
  CALLBACK_PATH,
  type Linking,
  SIGN_IN_CALLBACK_PATH,
  START_PATH,
} from '../../accounts/linking.js';

function notReady(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Starting up; try again in a moment.');
}

/** `linking()` is read per request: Bolt takes routes in its constructor, before linking exists. */
export function httpRoutes(linking: () => Linking | undefined): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      },
    },
    {
      path: START_PATH,
      method: ['GET'],
      handler: (req, res) => {
        const l = linking();
        if (l) void l.start(req, res);
        else notReady(res);
      },
    },
    {
      path: SIGN_IN_CALLBACK_PATH,
      method: ['GET'],
      handler: (req, res) => {
        const l = linking();
        if (l) void l.signedIn(req, res);
        else notReady(res);
      },
    },
    {
      path: CALLBACK_PATH,
      method: ['GET'],
      handler: (req, res) => {
        const l = linking();
        if (l) void l.callback(req, res);
        else notReady(res);
      },
    },
  ];
}
