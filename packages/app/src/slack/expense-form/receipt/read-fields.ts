/**
 * The form's fields a receipt's reading fills, and how they report each change while it runs, so
 * that the reading keeps what the person typed meanwhile.
 */
import type { types } from '@slack/bolt';
import { FORM } from '../../ids.js';

/** The inputs a receipt's reading may fill, which report their changes while it runs. */
export const READ_FIELDS = [FORM.amount, FORM.currency, FORM.description, FORM.date] as const;

/** While reading: each change of a field the reading fills is sent (every character typed). */
export function tracked(block: types.InputBlock): types.InputBlock {
  const element = block.element as { type: string };
  return {
    ...block,
    dispatch_action: true,
    ...(element.type === 'plain_text_input'
      ? {
          element: {
            ...block.element,
            dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
          } as types.InputBlock['element'],
        }
      : {}),
  };
}

const READ = new Set<string>(READ_FIELDS);

export function isRead(b: types.KnownBlock): b is types.InputBlock {
  return b.type === 'input' && READ.has(b.block_id ?? '');
}
