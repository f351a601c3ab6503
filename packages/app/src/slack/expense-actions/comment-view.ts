import { EXPENSE_CALLBACKS, FORM } from '../ids.js';
import { clip, mrkdwnEscape } from '../shared/limits.js';
import { input, type ModalView, metadata, title } from '../shared/modal.js';

export function commentFormView(c: { meta: string; description: string }): ModalView {
  return {
    type: 'modal',
    callback_id: EXPENSE_CALLBACKS.comment,
    title: title('Comment'),
    submit: title('Post'),
    close: title('Cancel'),
    private_metadata: metadata(c.meta),
    blocks: [
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: clip(`On “${mrkdwnEscape(c.description)}”`, 3000) }],
      },
      input(FORM.comment, 'Your comment', {
        type: 'plain_text_input',
        multiline: true,
        max_length: 2000,
      }),
    ],
  };
}
