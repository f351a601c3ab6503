import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ServiceBaseException } from '../../service/index.js';
import type { SlackDeps } from '../deps.js';
import { FORM } from '../ids.js';
import { formAnswer } from '../shared/answer.js';
import { accessFailure } from '../shared/expense-access.js';
import { parseMeta } from '../shared/modal.js';
import { connectPrompt, plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';

/** The comment form's Post: an empty comment is refused in the form; the rest after the ack. */
export function commentSubmitted(deps: SlackDeps) {
  return async ({
    ack,
    body,
    view,
    client,
    logger,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs): Promise<void> => {
    const meta = parseMeta(view.private_metadata);
    const content = (view.state.values?.[FORM.comment]?.[FORM.comment]?.value ?? '').trim();
    if (!meta?.e) {
      await ack();
      return;
    }
    if (content === '') {
      await ack({
        response_action: 'errors',
        errors: { [FORM.comment]: 'Write something first.' },
      });
      return;
    }
    await ack();
    const expenseId = meta.e;
    const team_id = body.team?.id ?? view.team_id;
    const user = { team_id, user_id: body.user.id };
    deps.work.push(async () => {
      const voice = await voiceOf(deps, user, logger);
      const answer = formAnswer({
        client,
        user: user.user_id,
        channel: meta.c,
        thread_ts: meta.t,
        logger,
        voice,
      });
      try {
        const record = await deps.tokens.get(user);
        if (!record) {
          const url = await deps.linking.connectUrl(user);
          await answer.ephemeral(connectPrompt({ url, reason: 'first_time' }));
          return;
        }
        const result = await deps.service.forLink(record).createComment(expenseId, content);
        await answer.ephemeral(
          plainNotice(
            result.comment
              ? 'Your comment is on the expense. Details shows every comment.'
              : refusedText(voice, result.errors, 'The comment was not added.'),
          ),
        );
      } catch (error) {
        logger.warn(`comment on ${expenseId} failed: ${(error as Error).message}`);
        if (!(error instanceof ServiceBaseException)) {
          await answer.ephemeral(
            plainNotice('Something went wrong on my side. The comment was not added.'),
          );
          return;
        }
        await answer.ephemeral(
          plainNotice(accessFailure(voice, error, 'The comment was not added.')),
        );
      }
    });
  };
}
