/**
 * Helpers for the expense form's end-to-end tests: opening the form as a person would, reading
 * the view the app put up, and submitting it with chosen values (state shaped as Slack sends it).
 */

import type { Loose } from '@split/service-emulator/testing';
import { expect } from 'vitest';
import { viewErrors } from './block-kit-limits.js';
import type { RecordedCall } from './fake-slack.js';
import type { Harness } from './harness.js';

export interface FormFields {
  amount?: string | null;
  currency?: string | null;
  description?: string | null;
  date?: string | null;
  category?: string | null;
  group?: string | null;
  participants?: string[];
  payer?: string | null;
  split?: string;
  notes?: string | null;
  repeat?: string;
  files?: Array<{ id: string; name?: string; size?: number }>;
}

const option = (value: string | null | undefined) =>
  value
    ? { selected_option: { text: { type: 'plain_text', text: value }, value } }
    : { selected_option: null };

export function formValues(f: FormFields): Record<string, Record<string, Record<string, unknown>>> {
  const leaf = (id: string, v: Record<string, unknown>) => ({ [id]: { [id]: v } });
  return {
    ...leaf('form_amount', { type: 'plain_text_input', value: f.amount ?? null }),
    ...leaf('form_currency', { type: 'external_select', ...option(f.currency) }),
    ...leaf('form_description', { type: 'plain_text_input', value: f.description ?? null }),
    ...leaf('form_date', { type: 'datepicker', selected_date: f.date ?? null }),
    ...leaf('form_category', { type: 'external_select', ...option(f.category) }),
    ...leaf('form_group', { type: 'static_select', ...option(f.group) }),
    ...leaf('form_participants', {
      type: 'multi_users_select',
      selected_users: f.participants ?? [],
    }),
    ...leaf('form_payer', { type: 'users_select', selected_user: f.payer ?? null }),
    ...leaf('form_split', { type: 'radio_buttons', ...option(f.split ?? 'equal') }),
    ...leaf('form_notes', { type: 'plain_text_input', value: f.notes ?? null }),
    ...leaf('form_repeat', { type: 'static_select', ...option(f.repeat ?? 'never') }),
    ...leaf('form_receipt', { type: 'file_input', files: f.files ?? [] }),
  };
}

export function stepValues(values: Array<string | null>) {
  return Object.fromEntries(
    values.map((v, i) => [
      `form_value_${i}`,
      { [`form_value_${i}`]: { type: 'plain_text_input', value: v } },
    ]),
  );
}

export interface OpenedForm {
  viewId: string;
  /** The view as last put up (views.update). */
  view: Loose;
  meta: string;
}

/** Waits for views.open and the views.update that fills it; checks both against Slack's limits. */
export async function formOpened(h: Harness, since: number): Promise<OpenedForm> {
  const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since && c.status === 200);
  const viewId = (opened.response as Loose).view.id as string;
  expect(viewErrors(opened.args.view)).toEqual([]);
  const updated: RecordedCall = await h.slack.waitForCall(
    'views.update',
    (c) => c.args.view_id === viewId,
  );
  expect(updated.status).toBe(200);
  const view = updated.args.view as Loose;
  expect(viewErrors(view)).toEqual([]);
  return { viewId, view, meta: view.private_metadata ?? '' };
}

/** An input block's element in a view. */
export function element(view: Loose, blockId: string): Loose {
  const block = (view.blocks as Loose[]).find((b) => b.block_id === blockId);
  return block?.element;
}

/** Sends a submission and returns the ack's JSON (or null for an empty ack). */
export async function submit(
  h: Harness,
  o: {
    viewId: string;
    meta: string;
    values: Record<string, Record<string, Record<string, unknown>>>;
    user_id?: string;
    callback_id?: string;
    root_view_id?: string;
    previous_view_id?: string;
  },
): Promise<Loose> {
  const response = await h.sender.viewSubmission({
    id: o.viewId,
    callback_id: o.callback_id ?? 'expense_form',
    private_metadata: o.meta,
    values: o.values,
    ...(o.user_id ? { user_id: o.user_id } : {}),
    ...(o.root_view_id ? { root_view_id: o.root_view_id } : {}),
    ...(o.previous_view_id ? { previous_view_id: o.previous_view_id } : {}),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return text === '' ? null : JSON.parse(text);
}

/** The expense id carried by the buttons of an expense message. */
export function expenseIdIn(blocks: unknown): number {
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(blocks));
  if (!match) throw new Error('no expense buttons in the message');
  return Number(match[1]);
}
