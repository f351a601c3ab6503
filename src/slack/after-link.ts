/**
 * What happens once someone has linked their account: a DM "Connected as <name>", then the
 * command that sent them to link is carried out where they typed it. When its response_url is too
 * old to use, the DM offers it with one click instead (ACTIONS.runPending).
 */
import type { Logger, webApi } from '@slack/bolt';
import { z } from 'zod';
import type { PendingCommand } from '../accounts/link-states.js';
import type { ServiceTokenRecord, SlackUserKey } from '../store/index.js';
import type { SlackDeps } from './deps.js';
import { replyInChannel, replyViaResponseUrl, withFallback } from './reply.js';
import { runSplit } from './split/run.js';
import { LIMITS } from './views/limits.js';
import { linkedDm } from './views/notices.js';

/** response_urls live 30 minutes; past this age one is not worth trying. */
const RESPONSE_URL_FRESH_MS = 25 * 60_000;

/** The Book-it-now button's value: the command text and the channel it was typed in. */
export const PendingRun = z.object({ v: z.literal(1), t: z.string().min(1), c: z.string().min(1) });
export type PendingRun = z.infer<typeof PendingRun>;

export function encodePendingRun(text: string, channel: string): string | undefined {
  const value = JSON.stringify({ v: 1, t: text, c: channel } satisfies PendingRun);
  return value.length <= LIMITS.buttonValue ? value : undefined;
}

export function parsePendingRun(value: string | undefined): PendingRun | undefined {
  try {
    const parsed = PendingRun.safeParse(JSON.parse(value ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function afterLink(deps: SlackDeps, client: () => webApi.WebClient, logger: Logger) {
  return async (user: SlackUserKey, record: ServiceTokenRecord, pending?: PendingCommand) => {
    const web = client();
    const fresh =
      pending?.response_url !== undefined &&
      deps.now().getTime() - pending.at < RESPONSE_URL_FRESH_MS;
    const runValue =
      pending && !fresh ? encodePendingRun(pending.text, pending.channel_id) : undefined;
    try {
      await web.chat.postMessage({
        channel: user.user_id,
        ...linkedDm({
          name: record.name,
          pendingText: runValue ? pending?.text : undefined,
          runValue,
        }),
      });
    } catch (error) {
      logger.warn(`could not DM ${user.user_id} after linking: ${(error as Error).message}`);
    }
    if (!pending || !fresh || !pending.response_url) return;
    const reply = withFallback(
      replyViaResponseUrl(pending.response_url),
      replyInChannel(web, pending.channel_id, user.user_id),
      logger,
    );
    try {
      await runSplit(
        deps,
        {
          ...user,
          channel_id: pending.channel_id,
          text: pending.text,
          response_url: pending.response_url,
        },
        reply,
        logger,
      );
    } catch (error) {
      logger.error(`carrying out the pending /split failed: ${(error as Error).message}`);
    }
  };
}
