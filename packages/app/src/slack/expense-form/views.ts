/**
 * The expense form: the first step (every field of an expense), the second step (one value per
 * person), the small notice views a form turns into while loading or when it cannot go on, and
 * the options its two searchable selects load. Pure: data in, Block Kit out, within Slack's
 * limits (shared/modal.ts).
 */
import type { types } from '@slack/bolt';
import type { Category, Currency, RepeatInterval } from '../../service/index.js';
import { ACTIONS, EXPENSE_CALLBACKS, FORM } from '../ids.js';
import { money } from '../shared/format.js';
import { clip, mrkdwnEscape } from '../shared/limits.js';
import { input, type ModalView, metadata, plain, title, VIEW_LIMITS } from '../shared/modal.js';
import { defaultNoteBlock, type GroupDefaultFill } from './default-view.js';
import {
  DESCRIPTION_MAX,
  MAX_PARTICIPANTS,
  MAX_PAYERS,
  NOTES_MAX,
  paidBlockId,
  type SplitMethod,
} from './form.js';
import type { MessageReceipt } from './message-receipt.js';

export { type ModalView, VIEW_LIMITS };

type Option = { text: types.PlainTextElement; value: string };

/** A people picker's pre-selection: Slack refuses an empty `initial_users`, so none is left out. */
function initialUsers(ids: string[]): { initial_users?: string[] } {
  return ids.length > 0 ? { initial_users: ids } : {};
}

function option(text: string, value: string): Option {
  // Values are ids and codes, far below 150 characters; the text is what may run long.
  return { text: plain(text), value: clip(value, VIEW_LIMITS.optionValue) };
}

const SPLIT_LABELS: Record<SplitMethod, string> = {
  equal: 'Equally',
  exact: 'Exact amounts',
  percent: 'Percentages',
  shares: 'Shares',
  itemise: 'Itemise (items, tip, tax)',
};

const REPEAT_LABELS: Record<RepeatInterval, string> = {
  never: 'Never',
  weekly: 'Every week',
  fortnightly: 'Every two weeks',
  monthly: 'Every month',
  yearly: 'Every year',
};

interface FormInitial {
  amountText?: string | undefined;
  currency?: string | undefined;
  description?: string | undefined;
  /** yyyy-MM-dd */
  date: string;
  category?: { id: number; name: string } | null | undefined;
  group_id?: number | null | undefined;
  participants: string[];
  payer: string;
  /** Others who paid part of it. */
  alsoPaid?: string[] | undefined;
  method?: SplitMethod | undefined;
  notes?: string | undefined;
  repeat?: RepeatInterval | undefined;
}

interface FormViewInput {
  mode: 'new' | 'edit';
  /** Encoded FormMeta. */
  meta: string;
  initial: FormInitial;
  /** The person's groups; undefined while they are still loading. */
  groups?: Array<{ id: number; name: string }> | undefined;
  /** The currency symbol for the initial currency ("€"), when known. */
  currencyUnit?: string | undefined;
  /** Edit of an expense with people who are not in this workspace: amount and people stay. */
  peopleEditable?: boolean;
  /** Who is on it, as mrkdwn, when the people can't be edited. */
  peopleText?: string | undefined;
  /** A line at the top (loading, what the form was filled from). */
  note?: string | undefined;
  /** Edit of an itemised bill: its breakdown line, kept out of the notes and named under them. */
  breakdown?: string | undefined;
  /** The group default the people and method were filled in from, named in a note. */
  byDefault?: GroupDefaultFill | undefined;
  /** "Split this": the message's image offered as the receipt, or why its file can't be one. */
  messageReceipt?: MessageReceipt | undefined;
}

/** The message's image, checked to be attached; or why the message's file can't be the receipt. */
function messageReceiptBlock(r: MessageReceipt): types.KnownBlock {
  if (r.kind === 'refused') {
    return {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: clip(
            `:warning: “${mrkdwnEscape(r.name)}” from the message can't be the receipt: ${mrkdwnEscape(r.problem)}. You can choose an image below.`,
            3000,
          ),
        },
      ],
    };
  }
  const attach = option(`Attach “${r.name}” from the message`, r.id);
  return input(
    FORM.messageReceipt,
    'Receipt from the message',
    { type: 'checkboxes', options: [attach], initial_options: [attach] },
    { optional: true, hint: 'Untick it to book without it. A file chosen below is used instead.' },
  );
}

function currencyOption(code: string, unit: string | undefined): Option {
  return option(unit && unit !== code ? `${code} · ${unit}` : code, code);
}

export function expenseFormView(v: FormViewInput): ModalView {
  const i = v.initial;
  const editablePeople = v.peopleEditable !== false;
  const blocks: types.KnownBlock[] = [];
  if (v.note) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(v.note, 3000) }] });
  }
  if (v.byDefault) blocks.push(defaultNoteBlock(v.byDefault));
  if (editablePeople) {
    blocks.push(
      input(FORM.amount, 'Amount', {
        type: 'plain_text_input',
        placeholder: plain('12.50', VIEW_LIMITS.placeholder),
        ...(i.amountText ? { initial_value: clip(i.amountText, 40) } : {}),
      }),
      input(FORM.currency, 'Currency', {
        type: 'external_select',
        min_query_length: 1,
        placeholder: plain('Type a code: EUR, USD…', VIEW_LIMITS.placeholder),
        ...(i.currency ? { initial_option: currencyOption(i.currency, v.currencyUnit) } : {}),
      }),
    );
  }
  blocks.push(
    input(FORM.description, 'What for', {
      type: 'plain_text_input',
      max_length: DESCRIPTION_MAX,
      placeholder: plain('Lunch, taxi, groceries…', VIEW_LIMITS.placeholder),
      ...(i.description ? { initial_value: clip(i.description, DESCRIPTION_MAX) } : {}),
    }),
    input(FORM.date, 'Date', { type: 'datepicker', initial_date: i.date }),
    input(
      FORM.category,
      'Category',
      {
        type: 'external_select',
        min_query_length: 0,
        placeholder: plain('General', VIEW_LIMITS.placeholder),
        ...(i.category ? { initial_option: option(i.category.name, String(i.category.id)) } : {}),
      },
      { optional: true },
    ),
  );
  const groups = v.groups ?? [];
  // A static select holds 100 options: "None" and the first 99 groups.
  const groupOptions = [
    option('None', '0'),
    ...groups.slice(0, VIEW_LIMITS.options - 1).map((g) => option(g.name, String(g.id))),
  ];
  const initialGroup =
    groupOptions.find((o) => o.value === String(i.group_id ?? 0)) ?? groupOptions[0];
  blocks.push({
    ...input(
      FORM.group,
      'Group',
      {
        type: 'static_select',
        options: groupOptions,
        ...(initialGroup ? { initial_option: initialGroup } : {}),
      },
      { optional: true, ...(v.groups === undefined ? { hint: 'Loading your groups…' } : {}) },
    ),
    // Picking a group is sent at once, so that the group's default split can fill the form.
    dispatch_action: true,
  });
  if (editablePeople) {
    const method = i.method ?? 'equal';
    const methodOptions = (Object.keys(SPLIT_LABELS) as SplitMethod[]).map((m) =>
      option(SPLIT_LABELS[m], m),
    );
    blocks.push(
      input(
        FORM.participants,
        'Shared by',
        {
          type: 'multi_users_select',
          max_selected_items: MAX_PARTICIPANTS,
          ...initialUsers(i.participants.slice(0, MAX_PARTICIPANTS)),
          placeholder: plain('The people who share it', VIEW_LIMITS.placeholder),
        },
        { optional: true, hint: 'Include yourself if you share it too.' },
      ),
      input(FORM.payer, 'Paid by', { type: 'users_select', initial_user: i.payer }),
      input(
        FORM.alsoPaid,
        'Also paid by',
        {
          type: 'multi_users_select',
          max_selected_items: MAX_PAYERS - 1,
          ...initialUsers((i.alsoPaid ?? []).slice(0, MAX_PAYERS - 1)),
          placeholder: plain('Others who paid part of it', VIEW_LIMITS.placeholder),
        },
        { optional: true, hint: 'With several payers, the next step asks what each one paid.' },
      ),
      input(
        FORM.split,
        'How to split',
        {
          type: 'radio_buttons',
          options: methodOptions,
          initial_option: methodOptions.find((o) => o.value === method) ?? methodOptions[0],
        },
        {
          hint: 'For anything but equally, the next step asks for each person’s part. To itemise, the amount is the bill before tip and tax.',
        },
      ),
    );
  } else {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: clip(v.peopleText ?? 'Who shares it stays as it is.', 3000) },
    });
  }
  const repeatOptions = (Object.keys(REPEAT_LABELS) as RepeatInterval[]).map((r) =>
    option(REPEAT_LABELS[r], r),
  );
  blocks.push(
    input(
      FORM.notes,
      'Notes',
      {
        type: 'plain_text_input',
        multiline: true,
        max_length: NOTES_MAX,
        ...(i.notes ? { initial_value: clip(i.notes, NOTES_MAX) } : {}),
      },
      {
        optional: true,
        ...(v.breakdown
          ? {
              hint: `Also kept in the notes while the amounts stay as they are: “${v.breakdown}”. Changing the amount or who owes what drops it.`,
            }
          : {}),
      },
    ),
    input(
      FORM.repeat,
      'Repeat',
      {
        type: 'static_select',
        options: repeatOptions,
        initial_option: repeatOptions.find((o) => o.value === (i.repeat ?? 'never')),
      },
      { optional: true },
    ),
    ...(v.messageReceipt ? [messageReceiptBlock(v.messageReceipt)] : []),
    input(
      FORM.receipt,
      'Receipt',
      { type: 'file_input', max_files: 1, filetypes: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'heic'] },
      { optional: true },
    ),
  );
  return {
    type: 'modal',
    callback_id: EXPENSE_CALLBACKS.form,
    title: title(v.mode === 'edit' ? 'Edit expense' : 'Split an expense'),
    submit: title(v.mode === 'edit' ? 'Save' : 'Book it'),
    close: title('Cancel'),
    private_metadata: metadata(v.meta),
    blocks,
  };
}

/** The step for each method that has one; Itemise has its own (itemise-view.ts). */
type StepMethod = Exclude<SplitMethod, 'itemise'>;

const STEP_TITLES: Record<StepMethod, string> = {
  equal: 'Who paid what',
  exact: 'Exact amounts',
  percent: 'Percentages',
  shares: 'Shares',
};

interface SplitStepInput {
  /** Equal only with several payers: then the step asks only what each paid. */
  method: StepMethod;
  cost: number;
  currency: string;
  participants: string[];
  /** Display names by Slack id (labels are plain text, so mentions would not render). */
  names: Record<string, string>;
  /** Values typed before, by Slack id. */
  values?: Record<string, string> | undefined;
  /** Several payers (the first step's payer first): each gets an input for what they paid. */
  payers?: string[] | undefined;
  /** Paid amounts typed before, by Slack id. */
  paidValues?: Record<string, string> | undefined;
  meta: string;
  locale?: string | undefined;
}

export function splitStepView(s: SplitStepInput): ModalView {
  const total = money(s.cost, s.currency, s.locale);
  const blocks: types.KnownBlock[] = [];
  const payers = (s.payers ?? []).slice(0, MAX_PAYERS);
  if (payers.length > 0) {
    blocks.push({
      type: 'context',
      block_id: FORM.paidInfo,
      elements: [
        { type: 'mrkdwn', text: `What each one paid of *${total}*: together, the whole cost.` },
      ],
    });
    payers.forEach((id, index) => {
      const initial = s.paidValues?.[id];
      blocks.push(
        input(paidBlockId(index), `${s.names[id] ?? 'Someone'} paid`, {
          type: 'plain_text_input',
          placeholder: plain('12.50', VIEW_LIMITS.placeholder),
          ...(initial ? { initial_value: clip(initial, 40) } : {}),
        }),
      );
    });
  }
  if (s.method !== 'equal') {
    const rule =
      s.method === 'exact'
        ? `Each person's part of *${total}*. Leave someone empty to give them an equal part of what's left.`
        : s.method === 'percent'
          ? `Percentages of *${total}*, making 100%. Leave someone empty to give them an equal part of what's left.`
          : `Whole shares of *${total}*: 2 pays twice as much as 1. Empty counts as 1.`;
    const placeholder = s.method === 'exact' ? '12.50' : s.method === 'percent' ? '25' : '1';
    blocks.push({
      type: 'context',
      block_id: FORM.splitInfo,
      elements: [{ type: 'mrkdwn', text: rule }],
    });
    // One input per person; the first step caps people at 50 and payers at 10, within 100 blocks.
    s.participants.slice(0, VIEW_LIMITS.viewBlocks - blocks.length).forEach((id, index) => {
      const initial = s.values?.[id];
      blocks.push(
        input(
          `${FORM.valuePrefix}${index}`,
          s.names[id] ?? 'Someone',
          {
            type: 'plain_text_input',
            placeholder: plain(placeholder, VIEW_LIMITS.placeholder),
            ...(initial ? { initial_value: clip(initial, 40) } : {}),
          },
          { optional: true },
        ),
      );
    });
  }
  return {
    type: 'modal',
    callback_id: EXPENSE_CALLBACKS.splitStep,
    title: title(STEP_TITLES[s.method]),
    submit: title('Book it'),
    close: title('Back'),
    private_metadata: metadata(s.meta),
    blocks,
  };
}

/** A form that can't go on (not connected, not allowed, failed to load), or is loading. */
export function noticeView(n: {
  title: string;
  text: string;
  connectUrl?: string | undefined;
}): ModalView {
  const blocks: types.KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: clip(mrkdwnEscape(n.text), 3000) } },
  ];
  if (n.connectUrl) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.connect,
          style: 'primary',
          text: plain('Connect account'),
          url: n.connectUrl,
        },
      ],
    });
  }
  return {
    type: 'modal',
    callback_id: EXPENSE_CALLBACKS.form,
    title: title(n.title),
    close: title('Close'),
    blocks,
  };
}

/** Currencies for the external select: codes that start with the query first, then the rest. */
export function currencyOptions(currencies: readonly Currency[], query: string): Option[] {
  const q = query.trim().toUpperCase();
  const score = (c: Currency) =>
    c.currency_code === q
      ? 0
      : c.currency_code.startsWith(q)
        ? 1
        : c.unit.toUpperCase() === q
          ? 2
          : c.currency_code.includes(q) || c.unit.toUpperCase().includes(q)
            ? 3
            : 9;
  return currencies
    .map((c) => ({ c, s: q === '' ? 3 : score(c) }))
    .filter((x) => x.s < 9)
    .sort((a, b) => a.s - b.s || a.c.currency_code.localeCompare(b.c.currency_code))
    .slice(0, VIEW_LIMITS.options) // an external select's answer holds 100 options at most
    .map((x) => currencyOption(x.c.currency_code, x.c.unit));
}

/** Subcategories grouped by their parent, matching the query; 100 options in all at most. */
export function categoryOptionGroups(
  categories: readonly Category[],
  query: string,
): Array<{ label: types.PlainTextElement; options: Option[] }> {
  const q = query.trim().toLowerCase();
  const groups: Array<{ label: types.PlainTextElement; options: Option[] }> = [];
  let left: number = VIEW_LIMITS.options; // the whole answer counts against Slack's 100
  for (const parent of categories) {
    if (left <= 0) break;
    const matches = (parent.subcategories ?? []).filter(
      (s) => q === '' || s.name.toLowerCase().includes(q) || parent.name.toLowerCase().includes(q),
    );
    if (matches.length === 0) continue;
    const options = matches.slice(0, left).map((s) => option(s.name, String(s.id)));
    left -= options.length;
    groups.push({ label: plain(parent.name), options });
  }
  return groups;
}
