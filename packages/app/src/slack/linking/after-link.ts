/**
 * What happens once someone has linked their account: a DM names the expense account now linked,
 * with an Unlink button, and says what becomes of the command that sent them to link (kept as
 * `/split` work by the split feature, before the page promised it).
 */
import type { Logger, webApi } from '@slack/bolt';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import { linkedDm } from './views.js';

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
