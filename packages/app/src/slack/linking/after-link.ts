/**
 * What happens once someone has linked their account: a DM names the expense account now linked,
 * with an Unlink button, and says what becomes of the command that sent them to link (kept as
 * `/split` work by the split feature, before the page promised it); the Connect prompt they
 * clicked is replaced by the account it linked; and App Home, which offered Connect, is published
 * again. All in the person's voice.
 */
import type { Logger, webApi } from '@slack/bolt';
import type { Directory } from '../../accounts/directory.js';
import type { FetchLike } from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import { postToResponseUrl } from '../runtime/reply.js';
import { type Voice, voiceOf } from '../shared/voice.js';
import { linkedDm, promptConnectedMessage } from './views.js';

export function afterLink(parts: {
  client: (team_id: string) => Promise<webApi.WebClient>;
  directory: Pick<Directory, 'slackUser'>;
  /** Publishes the person's App Home again (set once the listeners exist). */
  publishHome: () =>
    | ((client: webApi.WebClient, user: SlackUserKey, voice: Voice) => Promise<void>)
    | undefined;
  logger: Logger;
  /** The app's HTTP client, for the response_url of the Connect prompt. */
  http: FetchLike;
}) {
  const { logger } = parts;
  return {
    async onLinked(
      user: SlackUserKey,
      record: ServiceTokenRecord,
      pending?: { text: string; kept: boolean },
      serviceEmail?: string,
    ): Promise<void> {
      const voice = await voiceOf(parts, user, logger);
      let web: webApi.WebClient;
      try {
        web = await parts.client(user.team_id);
        await web.chat.postMessage({
          channel: user.user_id,
          ...linkedDm(voice, {
            name: record.name,
            email: serviceEmail,
            serviceUserId: record.service_user_id,
            pendingText: pending?.kept ? pending.text : undefined,
            failedText: pending && !pending.kept ? pending.text : undefined,
          }),
        });
      } catch (error) {
        logger.warn({
          msg: 'could not DM {user_id} after linking: {error}',
          user_id: user.user_id,
          error: (error as Error).message,
        });
        return;
      }
      await parts
        .publishHome()?.(web, user, voice)
        .catch((error: Error) =>
          logger.warn({ msg: 'Home after linking: {error}', error: error.message }),
        );
    },

    async replacePrompt(
      user: SlackUserKey,
      responseUrl: string,
      record: ServiceTokenRecord,
    ): Promise<void> {
      const voice = await voiceOf(parts, user, logger);
      await postToResponseUrl(parts.http, responseUrl, {
        replace_original: true,
        ...promptConnectedMessage(voice, record.name),
      });
    },
  };
}
