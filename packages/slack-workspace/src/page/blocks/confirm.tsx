// Slack's confirm objects: an element that carries one asks before its action is sent.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConfirmObject } from '../types.js';
import { domId, type RenderContext } from './context.js';
import { plain, Text } from './text.js';

let dialogs = 0;

function ConfirmDialog(props: {
  confirm: ConfirmObject;
  ctx: RenderContext;
  onConfirm: () => void;
  onDeny: () => void;
}) {
  const { confirm, ctx } = props;
  const [n] = useState(() => ++dialogs);
  const titleId = domId(ctx, 'confirm', String(n), 'title');
  const textId = domId(ctx, 'confirm', String(n), 'text');
  const denyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => denyRef.current?.focus(), []);
  return (
    <div class="bk-confirm-backdrop">
      <div
        class="bk-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onDeny();
        }}
      >
        <h2 id={titleId} class="bk-confirm-title">
          {plain(confirm.title) || 'Are you sure?'}
        </h2>
        <div id={textId} class="bk-confirm-text">
          <Text text={confirm.text} ctx={ctx} />
        </div>
        <div class="bk-confirm-buttons">
          <button type="button" class="bk-button" ref={denyRef} onClick={props.onDeny}>
            {plain(confirm.deny) || 'Cancel'}
          </button>
          <button
            type="button"
            class={`bk-button bk-button-${confirm.style === 'danger' ? 'danger' : 'primary'}`}
            onClick={props.onConfirm}
          >
            {plain(confirm.confirm) || 'Yes'}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Returns the dialog to render (or null) and a guard that runs `action` once confirmed. */
export function useConfirm(
  ctx: RenderContext,
): [ComponentChildren, (confirm: unknown, action: () => void) => void] {
  const [pending, setPending] = useState<{ confirm: ConfirmObject; action: () => void } | null>(
    null,
  );
  const guard = (confirm: unknown, action: () => void) => {
    if (confirm && typeof confirm === 'object') {
      setPending({ confirm: confirm as ConfirmObject, action });
    } else {
      action();
    }
  };
  const dialog = pending ? (
    <ConfirmDialog
      confirm={pending.confirm}
      ctx={ctx}
      onDeny={() => setPending(null)}
      onConfirm={() => {
        setPending(null);
        pending.action();
      }}
    />
  ) : null;
  return [dialog, guard];
}
