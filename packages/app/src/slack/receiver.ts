/**
 * Bolt's HTTP receiver, with the request signature checked here rather than by Bolt
 * (request-signature.ts says why), and with the half of Slack's timestamp rule Bolt leaves out: a
 * signed request is good for five minutes either side of our clock, where Bolt takes one dated any
 * time ahead, so that a request signed for the future would stay replayable until that future had
 * passed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPReceiver, type HTTPReceiverOptions } from '@slack/bolt';
import { withRequest } from '../observe/context.js';
import { BodyTooLarge, isSslCheck, readBody, signatureCheck } from './request-signature.js';
import { routedPath } from './runtime/routed-path.js';

interface SlackReceiverOptions
  extends Omit<HTTPReceiverOptions, 'signatureVerification' | 'bodyLimit'> {
  /** Where events arrive: the requests this checks. */
  eventsPath: string;
  /** Told of each refusal (a function: the App's logger exists only once the receiver does). */
  warn: (message: string) => void;
  now?: () => number;
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

export function createSlackReceiver(options: SlackReceiverOptions): HTTPReceiver {
  const { eventsPath, warn, now = Date.now, ...rest } = options;
  const signed = signatureCheck(rest.signingSecret);
  // Every request Bolt would serve as an event passes the check below first (same path, same
  // method), so Bolt's own check, which would repeat it, is off.
  const receiver = new HTTPReceiver({
    ...rest,
    endpoints: [eventsPath],
    signatureVerification: false,
  });
  const bolt = receiver.requestListener;

  /** Hands Bolt the body already read (it reads `rawBody` instead of the stream) once checked. */
  const checked = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        warn(error.message);
        // The rest of the body is not read: the connection goes with the answer.
        res.setHeader('connection', 'close');
        refuse(res, 413);
      } else {
        refuse(res, 400);
      }
      return;
    }
    const refusal = signed(req.headers, body, now());
    if (refusal !== undefined) {
      // Slack's certificate check comes unsigned; only its one field goes on to Bolt.
      if (isSslCheck(req.headers, body)) {
        Object.assign(req, { rawBody: Buffer.from('ssl_check=1') });
        bolt(req, res);
        return;
      }
      warn(`Refused a request: ${refusal}`);
      refuse(res, 401);
      return;
    }
    Object.assign(req, { rawBody: body });
    bolt(req, res);
  };

  // The path is compared as Bolt routes it, so `/slack/./events` is checked like `/slack/events`.
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method?.toUpperCase() !== 'POST' || routedPath(req.url) !== eventsPath) {
      bolt(req, res);
      return;
    }
    // Every line written while this request is handled, and by the work it queues, names it.
    withRequest(() => {
      checked(req, res).catch((error: Error) => {
        warn(`Could not read a request: ${error.message}`);
        if (!res.headersSent) refuse(res, 500);
      });
    });
  };
  return receiver;
}
