import { EXPENSE_CALLBACKS, FORM } from '../ids.js';
import { context, modalView, textInput } from '../kit/blocks.js';
import { clip } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import { input, type ModalView, metadata, title } from '../shared/modal.js';
import type { Voice } from '../shared/voice.js';

/** The most a comment holds here, well within what the service keeps. */
export const COMMENT_MAX = 2000;

/**
 * The comment form. `description` is what the expense is called, as written (the expense
 * message's header): shown as text, whatever it holds.
 */
export function commentFormView(c: { meta: string; description: string }, voice: Voice): ModalView {
  return modalView({
    callback_id: EXPENSE_CALLBACKS.comment,
    title: title(voice.t('actions.comment_title')),
    submit: title(voice.t('actions.comment_post')),
    close: title(voice.t('actions.cancel')),
    private_metadata: metadata(c.meta),
    blocks: [
      context(voice.t('actions.comment_on', { description: mrkdwn(clip(c.description, 500)) })),
      input(
        FORM.comment,
        voice.t('actions.comment_label'),
        textInput({ multiline: true, max_length: COMMENT_MAX }),
      ),
    ],
  });
}
