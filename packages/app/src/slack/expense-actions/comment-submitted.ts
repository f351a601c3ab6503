import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ServiceBaseException } from '../../service/index.js';
import type { SlackDeps } from '../deps.js';
import { FORM } from '../ids.js';
import { formAnswer } from '../runtime/answer.js';
import { accessFailure, notice, refusal, sentences } from '../shared/expense-access.js';
import { metaRefusal, parseMeta } from '../shared/modal.js';
import { connectPrompt } from '../shared/notices.js';
import { carriedVoice, voiceIn } from '../shared/voice.js';

/** The comment form's Post: an empty comment is refused in the form; the rest after the ack. */
export function commentSubmitted(deps: SlackDeps) {
  return async ({
    ack,
    body,
    view,
    client,
    logger,
    context,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs): Promise<void> => {
    const team_id = body.team?.id ?? view.team_id;
    const user = { team_id, user_id: body.user.id };
    const meta = parseMeta(deps.offers, user, view.private_metadata);
    const content = (view.state.values?.[FORM.comment]?.[FORM.comment]?.value ?? '').trim();
    if (typeof meta !== 'object' || !meta.e) {
      const refused = await metaRefusal(context, meta === 'expired' ? meta : undefined, logger);
      await ack({ response_action: 'errors', errors: { [FORM.comment]: refused } });
      return;
    }
    // The voice the form opened in, kept in it: no lookup within the submission's 3 seconds.
    const voice = await carriedVoice(meta);
    if (content === '') {
      await ack({
        response_action: 'errors',
        errors: { [FORM.comment]: voice.t('actions.comment_empty') },
      });
      return;
    }
    await ack();
    const expenseId = meta.e;
    const answer = formAnswer({
      client,
      user: user.user_id,
      channel: meta.c,
      thread_ts: meta.t,
      logger,
      voice,
    });
    const notAdded = voice.t('actions.comment_not_added');
    deps.work.push(async () => {
      try {
        const record = await deps.tokens.get(user);
        if (!record) {
          const url = await deps.linking.connectUrl(user);
          await answer.ephemeral(
            connectPrompt(await voiceIn(context), { url, reason: 'first_time' }),
          );
          return;
        }
        const result = await deps.service.forLink(record).createComment(expenseId, content);
        await answer.ephemeral(
          notice(
            result.comment
              ? voice.t('actions.comment_added')
              : refusal(voice, result.errors, notAdded),
          ),
        );
      } catch (error) {
        logger.warn({
          msg: 'comment on {expenseId} failed: {error}',
          expenseId,
          error: (error as Error).message,
        });
        if (!(error instanceof ServiceBaseException)) {
          await answer.ephemeral(notice(sentences(voice, voice.t('expense.our_side'), notAdded)));
          return;
        }
        await answer.ephemeral(notice(accessFailure(error, notAdded, voice)));
      }
    });
  };
}
