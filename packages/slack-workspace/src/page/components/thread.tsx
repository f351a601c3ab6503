// The thread panel: the parent message, its replies, and a composer that replies in the thread.
import { CloseIcon } from '../icons.js';
import { type SurfaceHooks, type SurfaceValues, wordsOf } from '../surface.js';
import type { AttachedFile, Message, State } from '../types.js';
import { Composer } from './composer.js';
import { continuesGroup, MessageView } from './message.js';

export function Thread(props: {
  state: State;
  parent: Message;
  replies: Message[];
  values: SurfaceValues;
  hooks: SurfaceHooks;
  onSend: (text: string, file?: AttachedFile) => Promise<void>;
  onClose: () => void;
}) {
  const { state, parent, replies, values, hooks } = props;
  const words = wordsOf(state);
  return (
    <aside class="thread" aria-label={words.thread}>
      <header class="thread-head">
        <h2>{words.thread}</h2>
        <button
          type="button"
          class="icon-button"
          aria-label={words.closeThread}
          onClick={props.onClose}
        >
          <CloseIcon />
        </button>
      </header>
      <div class="thread-list">
        <MessageView state={state} message={parent} values={values} hooks={hooks} />
        <div class="thread-count">{words.replies(replies.length)}</div>
        {replies.map((m, i) => (
          <MessageView
            key={m.ts}
            state={state}
            message={m}
            values={values}
            hooks={hooks}
            continued={continuesGroup(replies[i - 1], m)}
          />
        ))}
      </div>
      <Composer
        app={state.app}
        people={state.people}
        label={words.reply}
        placeholder={words.replyPlaceholder}
        idPrefix="thread"
        words={words}
        onSend={props.onSend}
      />
    </aside>
  );
}
