/**
 * Bolt's HTTP receiver, with the half of Slack's timestamp rule Bolt leaves out. A signed request
 * is good for five minutes either side of our clock; Bolt refuses one dated more than five minutes
 * ago but takes one dated any time ahead, so a request signed for the future would stay
 * replayable until that future had passed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPReceiver, type HTTPReceiverOptions } from '@slack/bolt';
import { withRequest } from '../observe/context.js';
import { routedPath } from './runtime/routed-path.js';

/** How far a request's timestamp may be from our clock, either way (Slack's rule). */
const REQUEST_TIMESTAMP_SKEW_S = 5 * 60;

interface SlackReceiverOptions extends HTTPReceiverOptions {
  /** Where events arrive: the requests this checks. */
  eventsPath: string;
  /** Told of each refusal (a function: the App's logger exists only once the receiver does). */
  warn: (message: string) => void;
  now?: () => number;
}

/**
 * Whether a request's `x-slack-request-timestamp` is further ahead of `nowMs` than Slack allows.
 * A missing or malformed header is left to Bolt, which refuses it.
 */
function datedAhead(req: IncomingMessage, nowMs: number): boolean {
  const header = req.headers['x-slack-request-timestamp'];
  if (typeof header !== 'string') return false;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > Math.floor(nowMs / 1000) + REQUEST_TIMESTAMP_SKEW_S;
}

export function createSlackReceiver(options: SlackReceiverOptions): HTTPReceiver {
  const { eventsPath, warn, now = Date.now, ...rest } = options;
  const receiver = new HTTPReceiver({ ...rest, endpoints: [eventsPath] });
  const bolt = receiver.requestListener;
  // Only a header is read, before the body: the check costs nothing on the way to the ack. The
  // path is compared as Bolt routes it, so `/slack/./events` is checked like `/slack/events`.
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || routedPath(req.url) !== eventsPath) {
      bolt(req, res);
      return;
    }
    // Every line written while this request is handled, and by the work it queues, names it.
    withRequest(() => {
      if (datedAhead(req, now())) {
        warn(
          `Refused a request dated more than ${REQUEST_TIMESTAMP_SKEW_S / 60} minutes ahead of this server's clock`,
        );
        res.writeHead(401);
        res.end();
        return;
      }
      bolt(req, res);
    });
  };
  return receiver;
}
