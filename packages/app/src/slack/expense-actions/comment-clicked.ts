import { headerOf, parseExpenseRef } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { type ButtonArgs, readClick } from '../runtime/click.js';
import { notice } from '../shared/expense-access.js';
import { encodeMeta } from '../shared/modal.js';
import { told } from '../shared/told.js';
import { voiceIn } from '../shared/voice.js';
import { commentFormView } from './comment-view.js';

/** Comment on a booked expense: a small form, opened at once with the click's trigger. */
export const commentClicked =
  (deps: SlackDeps) =>
  async (args: ButtonArgs): Promise<void> => {
    const click = await readClick(args, parseExpenseRef, (voice) => voice.t('actions.damaged'));
    if (told(click)) return;
    const { body, client, logger } = args;
    const voice = await voiceIn(args.context, { quick: true });
    try {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: commentFormView(
          {
            meta: encodeMeta(deps.offers, click.user, {
              e: click.ref.e,
              ...(body.channel?.id ? { c: body.channel.id } : {}),
              // The answers to the form are written in the voice it opened in.
              l: voice.locale,
              z: voice.timeZone,
            }),
            description:
              headerOf(body.message?.blocks) ||
              voice.t('expense.number', { id: String(click.ref.e) }),
          },
          voice,
        ),
      });
    } catch (error) {
      logger.warn({
        msg: 'comment form: views.open failed: {error}',
        error: (error as Error).message,
      });
      await click.reply
        .ephemeral(notice(voice.t('actions.comment_not_opened')))
        .catch(() => undefined);
    }
  };
