/**
 * Opening the expense form. Trigger ids die within 3 seconds and work once, so the form opens at
 * once as a small "opening" view with nothing to type into, and only then are the person's link,
 * profile, groups and names read; the full form replaces it with views.update. Nothing typed is
 * lost, since nothing could be typed before.
 */
import type { Context, Logger, webApi } from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import { cutToCommandCap } from '../../core/command/index.js';
import { ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { MessageKey } from '../../voice/index.js';
import { boundGroup, groupStartCurrency, namesNobody, notesOf, whoText } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { FORM } from '../ids.js';
import { formAnswer } from '../runtime/answer.js';
import { splitBreakdown } from '../shared/breakdown.js';
import { todayIn } from '../shared/dates.js';
import { accessExpense, notice } from '../shared/expense-access.js';
import type { SourceMessage } from '../shared/message-files.js';
import { describeServiceFailure, needsRelink } from '../shared/service-failure.js';
import { TOLD, type Told, told } from '../shared/told.js';
import { type Voice, voiceIn } from '../shared/voice.js';
import { defaultStart } from './default-prefill.js';
import { expenseSources } from './expense-sources.js';
import { encodeMeta, MAX_PARTICIPANTS } from './form.js';
import { editBaseOf, formFromExpense, groupChoices, initialOf } from './from-expense.js';
import { fillFromMessage, messagePeople } from './message-prefill.js';
import { messageReceipt } from './receipt/message-receipt.js';
import { prepareReading, startReading } from './receipt/receipt-reading.js';
import { expenseFormView, formTitle, noticeView } from './views.js';

export interface Opened {
  id: string;
  hash: string | undefined;
}

async function openLoading(
  client: webApi.WebClient,
  trigger_id: string,
  title: string,
  voice: Voice,
): Promise<Opened | undefined> {
  const opened = await client.views.open({
    trigger_id,
    view: noticeView({ title, text: voice.t('form.opening') }, voice),
  });
  return opened.view?.id ? { id: opened.view.id, hash: opened.view.hash } : undefined;
}

export async function update(
  client: webApi.WebClient,
  opened: Opened,
  view: ReturnType<typeof noticeView>,
  logger: Logger,
): Promise<Opened | undefined> {
  try {
    const updated = await client.views.update({
      view_id: opened.id,
      ...(opened.hash ? { hash: opened.hash } : {}),
      view,
    });
    return { id: opened.id, hash: updated.view?.hash };
  } catch (error) {
    // hash_conflict: the person already closed or moved on from the form; nothing to show then.
    logger.warn({
      msg: 'expense form: views.update failed: {error}',
      error: (error as Error).message,
    });
    return undefined;
  }
}

function failureView(title: string, error: unknown, voice: Voice): ReturnType<typeof noticeView> {
  const text =
    error instanceof ServiceBaseException
      ? // Already mrkdwn, the service's own words in it written as text.
        describeServiceFailure(voice, error, voice.t('expense.nothing_changed')).text
      : voice.t('form.open_failed');
  return noticeView({ title, text }, voice);
}

/** What opening either form needs; the channel is where the person is answered. */
export interface FormRequest {
  deps: SlackDeps;
  /** The request's: the form opens in the voice of whoever acted in it. */
  context: Context;
  client: webApi.WebClient;
  logger: Logger;
  trigger_id: string;
  user: SlackUserKey;
  channel: string | undefined;
}

/**
 * Opens the "opening" view with the trigger, then fills it on the work queue (a failure there is
 * shown on the form). When Slack refuses to open it, the person is told privately: `cannotOpen`.
 * The fill is handed the person's voice, read in full once the trigger is used.
 */
export async function openThenFill(
  r: FormRequest,
  form: {
    mode: 'new' | 'edit' | 'copy';
    what: string;
    cannotOpen: MessageKey;
    thread_ts: string | undefined;
  },
  fill: (opened: Opened, voice: Voice, lookups: LookupBudget) => Promise<void>,
): Promise<void> {
  const quick = await voiceIn(r.context, { quick: true });
  const title = formTitle(form.mode, quick);
  let opened: Opened | undefined;
  try {
    opened = await openLoading(r.client, r.trigger_id, title, quick);
  } catch (error) {
    r.logger.warn({
      msg: '{what}: views.open failed: {error}',
      what: form.what,
      error: (error as Error).message,
    });
    await formAnswer({ ...r, user: r.user.user_id, thread_ts: form.thread_ts, voice: quick })
      .ephemeral(notice(quick.t(form.cannotOpen)))
      .catch((e: Error) =>
        r.logger.warn({
          msg: '{what}: could not tell the person: {e}',
          what: form.what,
          e: e.message,
        }),
      );
    return;
  }
  if (!opened) return;
  const view = opened;
  r.deps.work.push(async () => {
    const lookups = lookupBudget();
    const voice = await voiceIn(r.context, { lookups });
    await fill(view, voice, lookups).catch(async (error: unknown) => {
      r.logger.error({
        msg: '{what}: filling failed: {error}',
        what: form.what,
        error: (error as Error).stack ?? String(error),
      });
      await update(
        r.client,
        view,
        failureView(formTitle(form.mode, voice), error, voice),
        r.logger,
      );
    });
  });
}

interface NewFormRequest extends FormRequest {
  /** Where the expense will be posted. */
  channel: string | undefined;
  /** "Split this": the message's thread. */
  thread_ts?: string | undefined;
  /** "Split this": the message it was used on. */
  message?: SourceMessage | undefined;
  /** "Split this" written in a thread: reads the message once the form is open. */
  readMessage?: (() => Promise<SourceMessage | undefined>) | undefined;
}

export async function openNewForm(r: NewFormRequest): Promise<void> {
  await openThenFill(
    r,
    {
      mode: 'new',
      what: 'expense form',
      cannotOpen: 'form.not_opened_new',
      thread_ts: r.thread_ts,
    },
    async (view, voice, lookups) => {
      const message = r.readMessage ? await r.readMessage() : r.message;
      await fillNewForm({ ...r, message }, view, voice, lookups);
    },
  );
}

async function fillNewForm(
  r: NewFormRequest,
  opened: Opened,
  voice: Voice,
  lookups: LookupBudget,
): Promise<void> {
  const { deps, user } = r;
  const client = await linkedClient(r, opened, voice);
  if (told(client)) return;
  // A message may hold 40,000 characters; its start is read, as a command would be.
  const typed = r.message ? cutToCommandCap(r.message.text) : '';
  const { mentioned, candidates } = messagePeople(r.message, typed, user.user_id);
  // The group the form opens for, and its currency, are asked for beside the person's profile
  // and groups: the slowest of them, not their sum, is what the person waits for.
  // Only a convenience here: without the store, the form opens without a group.
  const forGroup = boundGroup(deps, user, r.channel).catch(() => undefined);
  const groupCurrency = forGroup.then((group) =>
    groupStartCurrency(deps, user, group?.group_id, r.logger),
  );
  const account = await profileAndGroups(r, opened, voice, client);
  if (told(account)) return;
  const { profile, groups } = account;
  const [[me, people], wanted, groupCode] = await Promise.all([
    lookUpSlackUsers(r, lookups, candidates),
    forGroup,
    groupCurrency,
    // Warms the currency list, so that the submission can check the code without waiting.
    deps.reference.currencies().catch(() => undefined),
  ]);
  const names = new Map<string, string>();
  for (const p of people) if (p) names.set(p.id, p.name);
  // Only a group the person is still in: a default group they have left since is no choice.
  const group = groups.find((g) => wanted && g.id !== 0 && g.id === wanted.group_id);
  const byDefault = await groupDefault(r, mentioned, group);
  const participants = byDefault?.participants ?? namedPeople(user.user_id, people);
  const today = todayIn(me?.tz, deps.now());
  const currency = (group ? groupCode : undefined) ?? (profile.default_currency || 'USD');
  const start = { currency, today, locale: me?.locale };
  const fill = r.message
    ? fillFromMessage(typed, names, start, voice)
    : { currency, amountText: undefined, description: undefined, date: today, repeat: undefined };
  const receipt = messageReceipt(r.message?.files);
  // The message's image is read into the form, when the app reads receipts.
  const reading = receipt?.kind === 'attach' && deps.receipts !== undefined;
  const meta = newFormMeta(r, me, receipt);
  const { amountText, description, date, repeat } = fill;
  const view = expenseFormView(
    {
      mode: 'new',
      meta,
      initial: {
        amountText,
        currency: fill.currency,
        description,
        date,
        ...(repeat ? { repeat } : {}),
        group_id: group?.id ?? null,
        participants,
        payer: user.user_id,
        method: byDefault?.method ?? 'equal',
      },
      groups: groups.filter((g) => g.id !== 0).map((g) => ({ id: g.id, name: g.name })),
      currencyUnit: deps.reference.unit(fill.currency),
      // A message of no words (a photo alone) says what the photo was read as instead.
      ...(r.message && typed.trim() !== '' ? { note: voice.t('form.filled_from_message') } : {}),
      byDefault: byDefault?.fill,
      messageReceipt: receipt,
      reading,
    },
    voice,
  );
  // Fields the message's own words filled stay as they are when the photo is read.
  const kept = [...(amountText ? [FORM.amount] : []), ...(description ? [FORM.description] : [])];
  const read = reading && (await prepareReading(deps, user, opened.id, view, kept));
  const shown = await update(r.client, opened, view, r.logger);
  if (shown && read && receipt?.kind === 'attach') {
    await readMessageReceipt(r, shown, receipt.id, me, fill.currency);
  }
}

/** The person and the people the message names, each as Slack knows them, or undefined. */
function lookUpSlackUsers(r: NewFormRequest, lookups: LookupBudget, candidates: string[]) {
  const { deps, user } = r;
  return Promise.all([
    deps.directory.slackUser(user.team_id, user.user_id, lookups).catch(() => undefined),
    Promise.all(
      candidates.map((id) =>
        deps.directory.slackUser(user.team_id, id, lookups).catch(() => undefined),
      ),
    ),
  ]);
}

type SlackUser = Awaited<ReturnType<typeof lookUpSlackUsers>>[0];

/** Where the new expense goes, and the person's zone and language, signed into the form. */
function newFormMeta(
  r: NewFormRequest,
  me: SlackUser,
  receipt: ReturnType<typeof messageReceipt>,
): string {
  return encodeMeta(r.deps.offers, r.user, {
    ...(r.channel ? { c: r.channel } : {}),
    ...(r.thread_ts ? { t: r.thread_ts } : {}),
    ...(me?.tz ? { z: me.tz } : {}),
    ...(me?.locale ? { l: me.locale } : {}),
    // The one file of someone else's the form may attach: the message's, which the person saw.
    ...(receipt?.kind === 'attach' ? { f: receipt.id } : {}),
  });
}

/** Reads the message's photo into the form now shown. */
async function readMessageReceipt(
  r: NewFormRequest,
  shown: Opened,
  fileId: string,
  me: SlackUser,
  currency: string,
): Promise<void> {
  await startReading(
    r.deps,
    {
      user: r.user,
      viewId: shown.id,
      hash: shown.hash,
      fileId,
      offered: true,
      locale: me?.locale,
      tz: me?.tz,
      currency,
    },
    r.logger,
  );
}

/** The opened form turned into `text` with a Connect button: TOLD. */
async function askToConnect(
  r: NewFormRequest,
  opened: Opened,
  voice: Voice,
  text: string,
): Promise<Told> {
  const connectUrl = await r.deps.linking.connectUrl(r.user);
  const title = formTitle('new', voice);
  await update(r.client, opened, noticeView({ title, text, connectUrl }, voice), r.logger);
  return TOLD;
}

/** The person's client at the service; TOLD when they have no link, once the form says so. */
async function linkedClient(
  r: NewFormRequest,
  opened: Opened,
  voice: Voice,
): Promise<ServiceClient | Told> {
  const record = await r.deps.tokens.get(r.user);
  if (record) return r.deps.service.forLink(record);
  return askToConnect(r, opened, voice, voice.t('form.connect_first_new'));
}

/** The group's default decides who shares it when nobody is named, as for a typed `/split`. */
async function groupDefault(
  r: NewFormRequest,
  mentioned: string[],
  group: Parameters<typeof defaultStart>[2],
) {
  return namesNobody(mentioned, r.user.user_id)
    ? await defaultStart(r.deps, r.user.team_id, group)
    : undefined;
}

/** The person and the people the message names who can share an expense, as many as fit. */
function namedPeople(userId: string, people: SlackUser[]): string[] {
  return [
    userId,
    ...people.filter((p) => p && !p.is_bot && !p.deleted).map((p) => p?.id as string),
  ].slice(0, MAX_PARTICIPANTS);
}

/**
 * The person's profile and groups at the service; TOLD when their link no longer works, once
 * they have been unlinked and the form asks them to connect again.
 */
async function profileAndGroups(
  r: NewFormRequest,
  opened: Opened,
  voice: Voice,
  client: ServiceClient,
) {
  const { deps, user } = r;
  try {
    const [profile, groups] = await Promise.all([
      deps.directory.profile(user, client),
      deps.directory.groups(user, client),
    ]);
    return { profile, groups };
  } catch (error) {
    if (!needsRelink(error)) throw error;
    await deps.unlinking.unlink(user);
    return askToConnect(r, opened, voice, voice.t('form.connect_again_new'));
  }
}

type Refused = Extract<Awaited<ReturnType<typeof accessExpense>>, { ok: false }>;

/**
 * The form turned into why it can't start from the expense: a Connect button (with `connect`,
 * naming the form), or the reason in `text` (`notOnIt`: theirs alone, for a copy).
 */
export function refusedView(
  access: Refused,
  title: string,
  connect: MessageKey,
  voice: Voice,
  notOnIt?: MessageKey,
): ReturnType<typeof noticeView> {
  if (access.kind === 'connect') {
    return noticeView({ title, text: voice.t(connect), connectUrl: access.url }, voice);
  }
  const text = notOnIt && access.notOnIt ? voice.t(notOnIt) : access.text;
  return noticeView({ title, text }, voice);
}

interface EditFormRequest extends FormRequest {
  expenseId: number;
  /** The expense message, to update after saving. */
  channel: string | undefined;
  ts: string | undefined;
}

export async function openEditForm(r: EditFormRequest): Promise<void> {
  await openThenFill(
    r,
    {
      mode: 'edit',
      what: 'edit form',
      cannotOpen: 'form.not_opened_edit',
      thread_ts: undefined,
    },
    (view, voice, lookups) => fillEditForm(r, view, voice, lookups),
  );
}

async function fillEditForm(
  r: EditFormRequest,
  opened: Opened,
  voice: Voice,
  lookups: LookupBudget,
): Promise<void> {
  const { deps, user } = r;
  const title = formTitle('edit', voice);
  const access = await accessExpense(
    deps,
    user,
    r.expenseId,
    voice.t('expense.nothing_changed'),
    voice,
  );
  if (!access.ok) {
    await update(
      r.client,
      opened,
      refusedView(access, title, 'form.connect_first_edit', voice),
      r.logger,
    );
    return;
  }
  const { expense } = access;
  const { who, groups, me, minor, slackOf } = await expenseSources(deps, user, access, lookups);
  const { written, form, base } = await editStart(expense, user.user_id, voice, { minor, slackOf });
  const { peopleEditable } = base;
  await deps.expenses.saveDraft(user, opened.id, { edit: base });
  const people = expense.users.map((u) => whoText(who.get(u.user_id) ?? { name: '' }, voice));
  await update(
    r.client,
    opened,
    expenseFormView(
      {
        mode: 'edit',
        meta: encodeMeta(deps.offers, user, {
          e: expense.id,
          ...(r.channel ? { c: r.channel } : {}),
          ...(r.ts ? { m: r.ts } : {}),
          ...(me?.tz ? { z: me.tz } : {}),
          ...(me?.locale ? { l: me.locale } : {}),
        }),
        initial: initialOf(form, expense, voice),
        groups: groupChoices(groups),
        currencyUnit: deps.reference.unit(form.currency),
        peopleEditable,
        ...(written.breakdown ? { breakdown: written.breakdown } : {}),
        people,
      },
      voice,
    ),
    r.logger,
  );
}

/** The expense as the form's fields, and what the edit keeps of it to compare with on Submit. */
async function editStart(
  expense: Parameters<typeof formFromExpense>[0],
  person: string,
  voice: Voice,
  { minor, slackOf }: Parameters<typeof formFromExpense>[1],
) {
  const written = await splitBreakdown(notesOf(expense.details));
  const { form } = formFromExpense(
    expense,
    { minor, slackOf },
    {
      voice,
      person,
      participants: (sharing) => sharing.map((u) => slackOf(u.user_id) ?? `svc:${u.user_id}`),
      date: expense.date.slice(0, 10),
      notes: written.notes,
      repeat: expense.repeat_interval ?? 'never',
    },
  );
  const base = editBaseOf(expense, form, slackOf, { person, breakdown: written.breakdown });
  return { written, form, base };
}
