/**
 * What happens once someone has linked their account. The command that sent them to link is kept
 * as durable work before the page tells them it will be carried out, so that a crash or a restart
 * after the page does not lose it, and it is booked once like any `/split`. Then a DM names the
 * expense account now linked, with an Unlink button, and says what becomes of that command.
 */
import { createHash } from 'node:crypto';
import type { Logger, webApi } from '@slack/bolt';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { PendingCommand } from '../../store/link-states.js';
import type { SlackDeps } from '../deps.js';
import { SPLIT_JOB, type SplitJob } from '../split/command.js';
import { linkedDm } from './views.js';

/**
 * Queues the pending command as a `/split` job. Its id comes from the linking's one-use state,
 * hashed so that the state itself never appears where job ids do (logs).
 */
export function keepPending(deps: Pick<SlackDeps, 'durable'>) {
  return async (user: SlackUserKey, pending: PendingCommand, key: string): Promise<void> => {
    const id = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    const job: SplitJob = {
      team_id: user.team_id,
      user_id: user.user_id,
      channel_id: pending.channel_id,
      text: pending.text,
      response_url: pending.response_url,
      typed_at: pending.at,
    };
    await deps.durable.submit(`linked:${user.team_id}:${id}`, SPLIT_JOB, job);
  };
}

export function afterLink(client: (team_id: string) => Promise<webApi.WebClient>, logger: Logger) {
  return async (
    user: SlackUserKey,
    record: ServiceTokenRecord,
    pending?: { text: string; kept: boolean },
    serviceEmail?: string,
  ) => {
    try {
      const web = await client(user.team_id);
      await web.chat.postMessage({
        channel: user.user_id,
        ...linkedDm({
          name: record.name,
          email: serviceEmail,
          serviceUserId: record.service_user_id,
          pendingText: pending?.kept ? pending.text : undefined,
          failedText: pending && !pending.kept ? pending.text : undefined,
        }),
      });
    } catch (error) {
      logger.warn(`could not DM ${user.user_id} after linking: ${(error as Error).message}`);
    }
  };
}
