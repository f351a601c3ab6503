/**
 * The app's plain HTTP routes beside Bolt's /slack/events: health, and the three browser routes
 * of account linking (start, back from Sign in with Slack, back from the service's consent). They
 * are ordinary web routes, not signature-checked (a browser calls them).
 */
import type { CustomRoute } from '@slack/bolt';
import {
  CALLBACK_PATH,
  type Linking,
  SIGN_IN_CALLBACK_PATH,
  START_PATH,
} from '../../accounts/linking.js';

export function httpRoutes(linking: Linking): CustomRoute[] {
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
      handler: (req, res) => void linking.start(req, res),
    },
    {
      path: SIGN_IN_CALLBACK_PATH,
      method: ['GET'],
      handler: (req, res) => void linking.signedIn(req, res),
    },
    {
      path: CALLBACK_PATH,
      method: ['GET'],
      handler: (req, res) => void linking.callback(req, res),
    },
  ];
}
