// The top modal of the person's stack, as a dialog named by its title, closed by its × or its
// close button alike (the workspace sends view_closed if the view asked for it). Values live in a
// store per view id, so a views.update that keeps block and action ids keeps what was typed, as
// in Slack; a pushed view is a new id and starts empty.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Blocks } from '../blocks/blocks.js';
import { collectValues } from '../blocks/context.js';
import { plain } from '../blocks/text.js';
import { CloseIcon } from '../icons.js';
import { type SurfaceHooks, type SurfaceValues, surfaceContext, wordsOf } from '../surface.js';
import type { State, View } from '../types.js';

export function Modal(props: {
  state: State;
  view: View;
  depth: number;
  values: SurfaceValues;
  hooks: SurfaceHooks;
}) {
  const { state, view, values, hooks } = props;
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  // Counts the submissions answered with errors, so that each one brings its first into view.
  const [failedSubmits, setFailedSubmits] = useState(0);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = `modal-${view.id}-title`.replace(/[^A-Za-z0-9_-]/g, '_');

  // A new version of the view (new hash) brings its own errors, or none.
  useEffect(() => setErrors(null), [view.hash]);
  // An error below the fold would go unseen: the first erroring field is scrolled into view.
  useEffect(() => {
    dialog.current
      ?.querySelector('.bk-input-block-error')
      ?.scrollIntoView({ block: 'center', behavior: 'instant' });
  }, [failedSubmits, view.hash]);
  useEffect(() => {
    const first = dialog.current?.querySelector<HTMLElement>(
      'input:not([type=hidden]), textarea, select, button.bk-button',
    );
    first?.focus();
  }, [view.id]);

  const ctx = surfaceContext({
    state,
    surface: 'modal',
    container: { type: 'view', view_id: view.id },
    blocks: view.blocks,
    values,
    hooks,
    errors: errors ?? view.errors,
  });

  const close = () => {
    api.viewClose(state.acting, view.id).catch(hooks.fail);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await api.viewSubmit(
        state.acting,
        view.id,
        collectValues(view.blocks, ctx.values),
      );
      if (answer.errors && Object.keys(answer.errors).length) {
        setErrors(answer.errors);
        setFailedSubmits((n) => n + 1);
      }
    } catch (error) {
      hooks.fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="modal-backdrop">
      <div
        class="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={dialog}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !event.defaultPrevented) close();
        }}
      >
        <form class="modal-form" onSubmit={submit} noValidate>
          <header class="modal-head">
            <h2 id={titleId}>{plain(view.title) || state.app.name}</h2>
            {props.depth > 1 ? <span class="modal-depth">Step {props.depth}</span> : null}
            <button
              type="button"
              class="icon-button modal-close"
              aria-label={wordsOf(state).close}
              onClick={close}
            >
              <CloseIcon />
            </button>
          </header>
          <div class="modal-body">
            <Blocks blocks={view.blocks} ctx={ctx} />
          </div>
          <footer class="modal-foot">
            <button type="button" class="btn" onClick={close}>
              {plain(view.close) || wordsOf(state).cancel}
            </button>
            {view.submit ? (
              <button type="submit" class="btn btn-primary" disabled={busy}>
                {plain(view.submit)}
              </button>
            ) : null}
          </footer>
        </form>
      </div>
    </div>
  );
}
