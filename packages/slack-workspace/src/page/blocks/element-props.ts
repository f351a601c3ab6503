// What every element component receives, and the one path by which a change is recorded and,
// when Slack would, sent as a block action.
import { useState } from 'preact/hooks';
import type { BlockAction, BlockElement, ElementValue } from '../types.js';
import { initialValue, type RenderContext } from './context.js';

export interface ElementProps {
  el: BlockElement;
  blockId: string;
  actionId: string;
  ctx: RenderContext;
  /** Whether a change sends a block action (false inside a modal's plain input blocks). */
  dispatch: boolean;
  /** Set inside input blocks: the field's DOM id, its label's id, and its error's id. */
  inputId?: string;
  labelId?: string;
  errorId?: string;
}

const SAFE_URL = /^https?:\/\//i;

export function safeUrl(url: unknown): string | undefined {
  return typeof url === 'string' && SAFE_URL.test(url) ? url : undefined;
}

export function actionTs(): string {
  return (Date.now() / 1000).toFixed(6);
}

/** Records the new value and, when the element dispatches, sends it as a block action. */
export function change(props: ElementProps, value: ElementValue, extra?: Partial<BlockAction>) {
  props.ctx.values.set(props.blockId, props.actionId, value);
  if (!props.dispatch) return;
  props.ctx.onAction({
    ...value,
    ...extra,
    action_id: props.actionId,
    block_id: props.blockId,
    action_ts: actionTs(),
  });
}

/**
 * The element's value as shown: what the person chose, else what the app sent. Read from the
 * surface's store on every render, never copied into component state, so an element the person
 * has not touched follows each new version of the view or message the app sends.
 */
export function useElementValue(
  props: ElementProps,
): [ElementValue | undefined, (value: ElementValue, dispatch?: boolean) => void] {
  const [, rerender] = useState(0);
  const value = props.ctx.values.get(props.blockId, props.actionId) ?? initialValue(props.el);
  const set = (next: ElementValue, dispatch = props.dispatch) => {
    change({ ...props, dispatch }, next);
    rerender((n) => n + 1);
  };
  return [value, set];
}

export function fieldAria(props: ElementProps) {
  const invalid = Boolean(props.errorId);
  return {
    id: props.inputId,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': props.errorId,
  } as const;
}
