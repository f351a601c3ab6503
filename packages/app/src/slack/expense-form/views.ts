/**
 * The expense form: the first step (every field of an expense), the second step (one value per
 * person), the small notice views a form turns into while loading or when it cannot go on, and
 * the options its two searchable selects load. Pure: data in, Block Kit out, within Slack's
 * limits (shared/modal.ts).
 */
import type { types } from '@slack/bolt';
import type { RepeatInterval } from '../../service/index.js';
import type { MessageKey } from '../../voice/index.js';
import { ACTIONS, EXPENSE_CALLBACKS, FORM } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  checkboxes,
  context,
  contextBlock,
  datePicker,
  externalSelect,
  fileInput,
  modalView,
  mrkdwnObject,
  multiUsersSelect,
  option,
  radioButtons,
  section,
  staticSelect,
  textInput,
  usersSelect,
} from '../kit/blocks.js';
import { clip } from '../kit/limits.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { input, type ModalView, metadata, plain, title, VIEW_LIMITS } from '../shared/modal.js';
import type { Voice } from '../shared/voice.js';
import { amountExample } from './amount.js';
import { defaultNoteBlock, type GroupDefaultFill } from './default-view.js';
import {
  DESCRIPTION_MAX,
  MAX_PARTICIPANTS,
  MAX_PAYERS,
  NOTES_MAX,
  paidBlockId,
  type SplitMethod,
  type StepBase,
} from './form.js';
import type { MessageReceipt } from './receipt/message-receipt.js';
import { isRead, tracked } from './receipt/read-fields.js';
import { megabytes } from './receipt/receipt.js';

export { type ModalView, VIEW_LIMITS };

type Option = types.PlainTextOption;

/** A people picker's pre-selection: Slack refuses an empty `initial_users`, so none is left out. */
function initialUsers(ids: string[]): { initial_users?: string[] } {
  return ids.length > 0 ? { initial_users: ids } : {};
}

const SPLIT_LABELS = {
  equal: 'form.method_equal',
  exact: 'form.method_exact',
  percent: 'form.method_percent',
  shares: 'form.method_shares',
  itemise: 'form.method_itemise',
} as const satisfies Record<SplitMethod, MessageKey>;

const REPEAT_LABELS = {
  never: 'form.repeat_never',
  weekly: 'form.repeat_weekly',
  fortnightly: 'form.repeat_fortnightly',
  monthly: 'form.repeat_monthly',
  yearly: 'form.repeat_yearly',
} as const satisfies Record<RepeatInterval, MessageKey>;

export interface FormInitial {
  /** As the field shows it, written the person's way (amountInput). */
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
  /** `copy`: a new expense filled in from a booked one (Duplicate). */
  mode: 'new' | 'edit' | 'copy';
  /** Encoded FormMeta. */
  meta: string;
  initial: FormInitial;
  /** The person's groups; undefined while they are still loading. */
  groups?: Array<{ id: number; name: string }> | undefined;
  /** The currency symbol for the initial currency ("€"), when known. */
  currencyUnit?: string | undefined;
  /** Edit of an expense with people who are not in this workspace: amount and people stay. */
  peopleEditable?: boolean;
  /** Who is on it (mrkdwn: mentions, names through mrkdwn()), when the people can't be edited. */
  people?: string[] | undefined;
  /** A line at the top, mrkdwn the caller wrote (what the form was filled from). */
  note?: string | undefined;
  /** Edit of an itemised bill: its breakdown line, kept out of the notes and named under them. */
  breakdown?: string | undefined;
  /** The group default the people and method were filled in from, named in a note. */
  byDefault?: GroupDefaultFill | undefined;
  /** "Split this": the message's image offered as the receipt, or why its file can't be one. */
  messageReceipt?: MessageReceipt | undefined;
  /**
   * A photo is being read: a line says so, and the fields the reading fills tell the app of each
   * change (dispatch), so that the reading keeps what the person typed meanwhile.
   */
  reading?: boolean | undefined;
}

/** The message's image, checked to be attached; or why the message's file can't be the receipt. */
function messageReceiptBlock(r: MessageReceipt, voice: Voice): types.KnownBlock {
  if (r.kind === 'refused') {
    const problem = r.problem;
    return context(
      voice.t('form.message_receipt_refused', {
        name: r.name === '' ? voice.t('form.the_file') : mrkdwn(clip(r.name, 200)),
        problem: problem.kind,
        max: problem.kind === 'too_large' ? megabytes(problem.max, voice) : '',
        type:
          problem.kind === 'not_image' && problem.mimetype
            ? mrkdwn(clip(problem.mimetype, 100))
            : voice.t('form.unknown_type'),
      }),
    );
  }
  const attach = option(
    voice.t('form.attach', { name: r.name === '' ? voice.t('form.the_file') : r.name }),
    r.id,
  );
  return input(
    FORM.messageReceipt,
    voice.t('form.receipt_from_message'),
    checkboxes({ options: [attach], initial_options: [attach] }),
    { optional: true, hint: voice.t('form.message_receipt_hint') },
  );
}

export function currencyOption(code: string, unit: string | undefined): Option {
  return option(unit && unit !== code ? `${code} · ${unit}` : code, code);
}

const FORM_TITLES = {
  new: 'form.title_new',
  edit: 'form.title_edit',
  copy: 'form.title_duplicate',
} as const satisfies Record<FormViewInput['mode'], MessageKey>;

/** The title of the form in each mode, for the views it turns into while loading. */
export function formTitle(mode: FormViewInput['mode'], voice: Voice): string {
  return voice.t(FORM_TITLES[mode]);
}

/** The notes above the fields: what the form was filled from, and the group default used. */
function formNotes(v: FormViewInput, voice: Voice): types.KnownBlock[] {
  return [
    ...(v.note ? [context(v.note)] : []),
    ...(v.byDefault ? [defaultNoteBlock(v.byDefault, voice)] : []),
    ...(v.reading
      ? [
          contextBlock({
            block_id: FORM.receiptNote,
            elements: [mrkdwnObject({ text: voice.t('receipt.reading') })],
          }),
        ]
      : []),
  ];
}

/** Amount and currency: left out of an edit whose people can't be edited here. */
function amountFields(v: FormViewInput, voice: Voice): types.KnownBlock[] {
  const { t } = voice;
  const i = v.initial;
  return [
    input(
      FORM.amount,
      t('form.amount'),
      textInput({
        placeholder: plain(amountExample(voice), VIEW_LIMITS.placeholder),
        ...(i.amountText ? { initial_value: clip(plainText(i.amountText), 40) } : {}),
      }),
    ),
    input(
      FORM.currency,
      t('form.currency'),
      externalSelect({
        min_query_length: 1,
        placeholder: plain(t('form.currency_placeholder'), VIEW_LIMITS.placeholder),
        ...(i.currency ? { initial_option: currencyOption(i.currency, v.currencyUnit) } : {}),
      }),
    ),
  ];
}

/** What it was for, when, and its category. */
function aboutFields(i: FormInitial, voice: Voice): types.KnownBlock[] {
  const { t } = voice;
  return [
    input(
      FORM.description,
      t('form.what_for'),
      textInput({
        max_length: DESCRIPTION_MAX,
        placeholder: plain(t('form.what_placeholder'), VIEW_LIMITS.placeholder),
        // plain_text: the description as it was typed, with no escape or entity in it.
        ...(i.description
          ? { initial_value: clip(plainText(i.description), DESCRIPTION_MAX) }
          : {}),
      }),
    ),
    input(FORM.date, t('form.date'), datePicker({ initial_date: i.date })),
    input(
      FORM.category,
      t('form.category'),
      externalSelect({
        min_query_length: 0,
        placeholder: plain(t('form.category_placeholder'), VIEW_LIMITS.placeholder),
        ...(i.category ? { initial_option: option(i.category.name, String(i.category.id)) } : {}),
      }),
      { optional: true },
    ),
  ];
}

/** The group, sent as soon as it is picked, so that its default split can fill the form. */
function groupField(v: FormViewInput, voice: Voice): types.KnownBlock {
  const { t } = voice;
  const groups = v.groups ?? [];
  // A static select holds 100 options: "None" and the first 99 groups.
  const groupOptions = [
    option(t('form.group_none'), '0'),
    ...groups.slice(0, VIEW_LIMITS.options - 1).map((g) => option(g.name, String(g.id))),
  ];
  const initialGroup =
    groupOptions.find((o) => o.value === String(v.initial.group_id ?? 0)) ?? groupOptions[0];
  return {
    ...input(
      FORM.group,
      t('form.group'),
      staticSelect({
        options: groupOptions,
        ...(initialGroup ? { initial_option: initialGroup } : {}),
      }),
      {
        optional: true,
        ...(v.groups === undefined ? { hint: t('form.groups_loading') } : {}),
      },
    ),
    dispatch_action: true,
  };
}

/** Who shares it, who paid, and how it is split; or who is on it, when that can't change here. */
function peopleFields(v: FormViewInput, voice: Voice): types.KnownBlock[] {
  const { t } = voice;
  const i = v.initial;
  if (v.peopleEditable === false) {
    return [
      section(
        v.people && v.people.length > 0
          ? t('form.people_fixed', { people: voice.list(v.people) })
          : t('form.people_stay'),
      ),
    ];
  }
  const method = i.method ?? 'equal';
  const methodOptions = (Object.keys(SPLIT_LABELS) as SplitMethod[]).map((m) =>
    option(t(SPLIT_LABELS[m]), m),
  );
  return [
    input(
      FORM.participants,
      t('form.shared_by'),
      multiUsersSelect({
        max_selected_items: MAX_PARTICIPANTS,
        ...initialUsers(i.participants.slice(0, MAX_PARTICIPANTS)),
        placeholder: plain(t('form.people_placeholder'), VIEW_LIMITS.placeholder),
      }),
      { optional: true, hint: t('form.shared_hint') },
    ),
    input(FORM.payer, t('form.paid_by'), usersSelect({ initial_user: i.payer })),
    input(
      FORM.alsoPaid,
      t('form.also_paid'),
      multiUsersSelect({
        max_selected_items: MAX_PAYERS - 1,
        ...initialUsers((i.alsoPaid ?? []).slice(0, MAX_PAYERS - 1)),
        placeholder: plain(t('form.others_placeholder'), VIEW_LIMITS.placeholder),
      }),
      { optional: true, hint: t('form.also_hint') },
    ),
    input(
      FORM.split,
      t('form.how'),
      radioButtons({
        options: methodOptions,
        initial_option: methodOptions.find((o) => o.value === method) ?? methodOptions[0],
      }),
      { hint: t('form.how_hint') },
    ),
  ];
}

/** Notes, repeat, and the receipt (the message's image offered first, for "Split this"). */
function moreFields(v: FormViewInput, voice: Voice): types.KnownBlock[] {
  const { t } = voice;
  const i = v.initial;
  const repeatOptions = (Object.keys(REPEAT_LABELS) as RepeatInterval[]).map((r) =>
    option(t(REPEAT_LABELS[r]), r),
  );
  return [
    input(
      FORM.notes,
      t('form.notes'),
      textInput({
        multiline: true,
        max_length: NOTES_MAX,
        // plain_text: the notes as they were written, with no escape or entity in them.
        ...(i.notes ? { initial_value: clip(plainText(i.notes), NOTES_MAX) } : {}),
      }),
      {
        optional: true,
        ...(v.breakdown
          ? { hint: t('form.breakdown_hint', { breakdown: plainText(v.breakdown) }) }
          : {}),
      },
    ),
    input(
      FORM.repeat,
      t('form.repeat'),
      staticSelect({
        options: repeatOptions,
        initial_option: repeatOptions.find((o) => o.value === (i.repeat ?? 'never')),
      }),
      { optional: true },
    ),
    ...(v.messageReceipt ? [messageReceiptBlock(v.messageReceipt, voice)] : []),
    input(
      FORM.receipt,
      t('form.receipt'),
      fileInput({ max_files: 1, filetypes: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'heic'] }),
      { optional: true },
    ),
  ];
}

/** The form's first step: every field of an expense, in the order a person fills them in. */
export function expenseFormView(v: FormViewInput, voice: Voice): ModalView {
  const { t } = voice;
  const editablePeople = v.peopleEditable !== false;
  const blocks: types.KnownBlock[] = [
    ...formNotes(v, voice),
    ...(editablePeople ? amountFields(v, voice) : []),
    ...aboutFields(v.initial, voice),
    groupField(v, voice),
    ...peopleFields(v, voice),
    ...moreFields(v, voice),
  ];
  return modalView({
    callback_id: EXPENSE_CALLBACKS.form,
    title: title(formTitle(v.mode, voice)),
    submit: title(v.mode === 'edit' ? t('form.submit_edit') : t('form.submit_new')),
    close: title(t('form.cancel')),
    private_metadata: metadata(v.meta),
    blocks: v.reading ? blocks.map((b) => (isRead(b) ? tracked(b) : b)) : blocks,
  });
}

/** The step for each method that has one; Itemise has its own (itemise-view.ts). */
type StepMethod = Exclude<SplitMethod, 'itemise'>;

const STEP_TITLES = {
  equal: 'form.step_equal',
  exact: 'form.step_exact',
  percent: 'form.step_percent',
  shares: 'form.step_shares',
} as const satisfies Record<StepMethod, MessageKey>;

interface SplitStepInput extends StepBase {
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
}

export function splitStepView(s: SplitStepInput, voice: Voice): ModalView {
  const { t } = voice;
  const total = voice.money(s.cost, s.currency);
  const nameOf = (id: string) => s.names[id] ?? t('expense.someone');
  const blocks: types.KnownBlock[] = [];
  const payers = (s.payers ?? []).slice(0, MAX_PAYERS);
  if (payers.length > 0) {
    blocks.push(
      contextBlock({
        block_id: FORM.paidInfo,
        elements: [mrkdwnObject({ text: t('form.paid_info', { total }) })],
      }),
    );
    payers.forEach((id, index) => {
      const initial = s.paidValues?.[id];
      blocks.push(
        input(
          paidBlockId(index),
          t('form.payer_paid', { name: nameOf(id) }),
          textInput({
            placeholder: plain(amountExample(voice), VIEW_LIMITS.placeholder),
            ...(initial ? { initial_value: clip(initial, 40) } : {}),
          }),
        ),
      );
    });
  }
  if (s.method !== 'equal') {
    const rule =
      s.method === 'exact'
        ? t('form.rule_exact', { total })
        : s.method === 'percent'
          ? t('form.rule_percent', { total })
          : t('form.rule_shares', { total });
    const placeholder =
      s.method === 'exact' ? amountExample(voice) : s.method === 'percent' ? '25' : '1';
    blocks.push(
      contextBlock({ block_id: FORM.splitInfo, elements: [mrkdwnObject({ text: rule })] }),
    );
    // One input per person; the first step caps people at 50 and payers at 10, within 100 blocks.
    s.participants.slice(0, VIEW_LIMITS.viewBlocks - blocks.length).forEach((id, index) => {
      const initial = s.values?.[id];
      blocks.push(
        input(
          `${FORM.valuePrefix}${index}`,
          nameOf(id),
          textInput({
            placeholder: plain(placeholder, VIEW_LIMITS.placeholder),
            ...(initial ? { initial_value: clip(initial, 40) } : {}),
          }),
          { optional: true },
        ),
      );
    });
  }
  return modalView({
    callback_id: EXPENSE_CALLBACKS.splitStep,
    title: title(t(STEP_TITLES[s.method])),
    submit: title(t(s.edit ? 'form.submit_edit' : 'form.submit_new')),
    close: title(t('form.back')),
    private_metadata: metadata(s.meta),
    blocks,
  });
}

/**
 * A form that can't go on (not connected, not allowed, failed to load), or is loading. `text` is
 * mrkdwn the caller wrote (text a person or the service wrote inside it through mrkdwn()).
 */
export function noticeView(
  n: { title: string; text: string; connectUrl?: string | undefined },
  voice: Voice,
): ModalView {
  const blocks: types.KnownBlock[] = [section(n.text)];
  if (n.connectUrl) {
    blocks.push(
      actionsBlock({
        elements: [
          buttonElement({
            action_id: ACTIONS.connect,
            style: 'primary',
            text: plain(voice.t('form.connect')),
            url: n.connectUrl,
          }),
        ],
      }),
    );
  }
  return modalView({
    callback_id: EXPENSE_CALLBACKS.form,
    title: title(n.title),
    close: title(voice.t('form.close')),
    blocks,
  });
}
