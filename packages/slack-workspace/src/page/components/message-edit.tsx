// Editing and deleting one's own message, in place as Slack does it: the message's text becomes
// an editable box (mentions and links shown as typed) with Cancel and Save; deleting asks first.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { type SurfaceHooks, wordsOf } from '../surface.js';
import type { Message, State } from '../types.js';
import { encodeMessage } from './composer.js';

/** A message's text as its writer typed it: mentions by name, links bare, entities undone. */
export function textForEditing(text: string, state: State): string {
  const name = (id: string) => {
    if (id === state.app.bot_user_id) return state.app.name;
    const person = state.people.find((p) => p.id === id);
    return person ? person.display_name || person.real_name || person.name : id;
  };
  return text
    .replace(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, (_m, id: string) => `@${name(id)}`)
    .replace(/<(https?:\/\/[^>|]+)(?:\|[^>]*)?>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function EditMessage(props: {
  state: State;
  message: Message;
  hooks: SurfaceHooks;
  onDone: () => void;
}) {
  const { state, message, hooks } = props;
  const words = wordsOf(state);
  const [text, setText] = useState(() => textForEditing(message.text, state));
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const save = async () => {
    if (!text.trim() || saving) return;
    setSaving(true);
    try {
      const encoded = encodeMessage(text.trim(), state.people, {
        bot: { id: state.app.bot_user_id, name: state.app.name },
        labels: false,
      });
      await api.editMessage(state.acting, message.channel, message.ts, encoded);
      props.onDone();
    } catch (error) {
      hooks.fail(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div class="msg-edit">
      <textarea
        ref={box}
        class="composer-input"
        aria-label={words.editMessage}
        value={text}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onDone();
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void save();
          }
        }}
      />
      <div class="msg-edit-actions">
        <button type="button" class="btn" onClick={props.onDone}>
          {words.cancel}
        </button>
        <button
          type="button"
          class="btn btn-primary"
          disabled={!text.trim() || saving}
          onClick={() => void save()}
        >
          {words.save}
        </button>
      </div>
    </div>
  );
}

export function ConfirmDelete(props: {
  state: State;
  message: Message;
  hooks: SurfaceHooks;
  onDone: () => void;
}) {
  const { state, message, hooks } = props;
  const words = wordsOf(state);
  return (
    <fieldset class="msg-confirm">
      <legend>{words.deleteConfirm}</legend>
      <div class="msg-edit-actions">
        <button type="button" class="btn" onClick={props.onDone}>
          {words.cancel}
        </button>
        <button
          type="button"
          class="btn btn-danger"
          onClick={() => {
            api
              .deleteMessage(state.acting, message.channel, message.ts)
              .then(props.onDone)
              .catch(hooks.fail);
          }}
        >
          {words.delete}
        </button>
      </div>
    </fieldset>
  );
}
