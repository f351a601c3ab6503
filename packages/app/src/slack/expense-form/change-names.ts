/**
 * What an edit tells the person it changed: each field of the update in their words ("amount,
 * date and notes"); a field without a name of its own (none today) by its wire name.
 */
import type { ExpenseUpdate } from '../../service/index.js';
import type { MessageKey } from '../../voice/index.js';
import type { Voice } from '../shared/voice.js';

const CHANGE_NAMES = {
  description: 'form.changed_description',
  cost: 'form.changed_amount',
  currency_code: 'form.changed_currency',
  date: 'form.changed_date',
  category_id: 'form.changed_category',
  group_id: 'form.changed_group',
  details: 'form.changed_notes',
  repeat_interval: 'form.changed_repeat',
  users: 'form.changed_shares',
  receipt: 'form.changed_receipt',
} as const satisfies Partial<Record<keyof ExpenseUpdate, MessageKey>>;

export function changeName(key: keyof ExpenseUpdate, voice: Voice): string {
  return key in CHANGE_NAMES ? voice.t(CHANGE_NAMES[key as keyof typeof CHANGE_NAMES]) : key;
}
