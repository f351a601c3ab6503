/**
 * Reading the photo of a receipt into the open expense form. The form opens at once, saying the
 * photo is being read; the reading is a durable job (written before anything else happens, so
 * that with several replicas it runs once, on whichever holds it), and its end fills the form
 * with views.update and the view's hash. Nothing is ever booked from here: the person submits.
 *
 * While it runs, the fields it fills report each change (views.ts, READ_FIELDS): the last state
 * is kept with the form's draft, so that the filled form keeps what the person typed meanwhile
 * (receipt-fill.ts). A replica that dies mid-reading leaves the job to another one, which does
 * not read again (the photo may be what stopped it) and tells the person instead.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  Logger,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { type Infer, int, literal, object, optional, string } from '../../../core/schema.js';
import type { ReceiptLanguage } from '../../../receipts/index.js';
import type { SlackUserKey } from '../../../store/index.js';
import { languageOf, type Voice } from '../../../voice/index.js';
import type { SlackDeps } from '../../deps.js';
import { EXPENSE_CALLBACKS, FORM } from '../../ids.js';
import { mrkdwn } from '../../kit/text.js';
import type { JobHandler } from '../../runtime/durable.js';
import { todayIn } from '../../shared/dates.js';
import type { ModalView } from '../../shared/modal.js';
import { carriedVoice } from '../../shared/voice.js';
import { type ReadingDraft, type StateValues, versioned } from '../form.js';
import { fetchReceipt, RECEIPT_MAX_BYTES, ReceiptError, receiptProblem } from './receipt.js';
import { filledForm, type ReadingOutcome, readingForm } from './receipt-fill.js';

export const READ_JOB = 'receipt-read';

/** What the job carries: all it needs on any replica, nothing in closures. */
const ReadJob = object({
  v: literal(1),
  team_id: string({ max: 40 }),
  user_id: string({ max: 40 }),
  view_id: string({ max: 40 }),
  file_id: string({ max: 24, regex: /^F[A-Z0-9]{2,23}$/ }),
  /** 1: the form offered this file (the message's); else only the person's own file is read. */
  offered: int({ min: 0, max: 1 }),
  locale: optional(string({ max: 35 })),
  tz: optional(string({ max: 64 })),
  /** The currency the form opened with: the reader's choice for a receipt that names none. */
  currency: optional(string({ max: 4 })),
});

/** The OCR model of each language the app speaks; Japanese receipts get the English one. */
const MODELS: Record<string, ReceiptLanguage> = { de: 'deu', fr: 'fra', es: 'spa', 'pt-BR': 'por' };

/** The attempts at putting the filled form up when the person's changes keep moving its hash. */
const UPDATE_ATTEMPTS = 4;

export interface ReadingRequest {
  user: SlackUserKey;
  viewId: string;
  /** The hash Slack gave the form put up with its reading line. */
  hash: string | undefined;
  fileId: string;
  offered: boolean;
  locale: string | undefined;
  tz: string | undefined;
  currency: string | undefined;
}

function shown(view: {
  blocks: unknown[];
  title: unknown;
  submit?: unknown;
  close?: unknown;
  private_metadata?: string | undefined;
}): ReadingDraft['view'] {
  return {
    blocks: view.blocks,
    title: view.title,
    ...(view.submit ? { submit: view.submit } : {}),
    ...(view.close ? { close: view.close } : {}),
    meta: view.private_metadata ?? '',
  };
}

/**
 * Keeps the form about to be put up, before it is: a change the person makes as soon as it shows
 * finds it, and is kept.
 */
export async function prepareReading(
  deps: SlackDeps,
  user: SlackUserKey,
  viewId: string,
  view: ModalView,
  kept: string[],
): Promise<boolean> {
  if (!deps.receipts) return false;
  const draft = await deps.expenses.draft(user, viewId);
  await deps.expenses.saveDraft(user, viewId, {
    ...draft,
    reading: { view: shown(view), hash: undefined, kept },
  });
  return true;
}

/**
 * Queues the reading of the form put up (prepareReading first). False when the app reads no
 * receipts or the store could not take the job: the form then says nothing more than it does.
 */
export async function startReading(
  deps: SlackDeps,
  r: ReadingRequest,
  logger: Logger,
): Promise<boolean> {
  if (!deps.receipts) return false;
  try {
    const draft = await deps.expenses.draft(r.user, r.viewId);
    // A change made meanwhile came with the newest hash; otherwise the form's own is kept.
    if (draft?.reading && draft.reading.hash === undefined) {
      await deps.expenses.saveDraft(r.user, r.viewId, {
        ...draft,
        reading: { ...draft.reading, hash: r.hash },
      });
    }
    return await deps.durable.submit(
      `receipt:${r.user.team_id}:${r.viewId}`,
      READ_JOB,
      {
        v: 1,
        team_id: r.user.team_id,
        user_id: r.user.user_id,
        view_id: r.viewId,
        file_id: r.fileId,
        offered: r.offered ? 1 : 0,
        ...(r.locale ? { locale: r.locale } : {}),
        ...(r.tz ? { tz: r.tz } : {}),
        ...(r.currency ? { currency: r.currency } : {}),
      },
      r.user,
    );
  } catch (error) {
    logger.warn({
      msg: 'receipt: the reading was not queued: {error}',
      error: (error as Error).message,
    });
    return false;
  }
}

/** Fetches the photo from Slack (the receipt download's rules) and reads it. */
async function readPhoto(
  deps: SlackDeps,
  job: Infer<typeof ReadJob>,
  voice: Voice,
  logger: Logger,
): Promise<ReadingOutcome> {
  const reader = deps.receipts;
  if (!reader) return { kind: 'failed', reason: 'closed', maxBytes: RECEIPT_MAX_BYTES };
  let fetched: Awaited<ReturnType<typeof fetchReceipt>>;
  try {
    const client = await deps.slack.forTeam(job.team_id);
    if (!client.token) throw new ReceiptError({ kind: 'no_token' });
    fetched = await fetchReceipt(client, client.token, job.file_id, {
      hosts: deps.fileHosts,
      // The file the form offered them, or one they shared themselves: nothing else is read.
      mayRead: (file) =>
        file.id === job.file_id && (job.offered === 1 || file.user === job.user_id),
      thumbnail: true,
    });
  } catch (error) {
    logger.warn({
      msg: 'receipt: {file} not fetched: {error}',
      file: job.file_id,
      error: (error as Error).message,
    });
    if (error instanceof ReceiptError) {
      return { kind: 'not_fetched', problem: mrkdwn(receiptProblem(error.problem, voice)) };
    }
    return { kind: 'failed', reason: 'unreadable', maxBytes: RECEIPT_MAX_BYTES };
  }
  try {
    const result = await reader.read(fetched.path, {
      languages: [MODELS[languageOf(job.locale)] ?? 'eng'],
      ...(job.currency ? { currency: job.currency } : {}),
    });
    if (result.ok) return { kind: 'read', reading: result };
    logger.info({
      msg: 'receipt: {file} not read: {reason}: {detail}',
      file: job.file_id,
      reason: result.reason,
      detail: result.detail,
    });
    return { kind: 'failed', reason: result.reason, maxBytes: RECEIPT_MAX_BYTES };
  } finally {
    await fetched.remove();
  }
}

const errorCode = (error: unknown) => (error as { data?: { error?: unknown } }).data?.error;

/** Puts the filled form up, with the hash of the form as last seen; a newer one is read again. */
async function putUp(
  deps: SlackDeps,
  job: Infer<typeof ReadJob>,
  outcome: ReadingOutcome,
  voice: Voice,
  logger: Logger,
): Promise<void> {
  const user = { team_id: job.team_id, user_id: job.user_id };
  const client = await deps.slack.forTeam(job.team_id);
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
    const draft = await deps.expenses.draft(user, job.view_id);
    const reading = draft?.reading;
    if (!draft || !reading) return;
    const filled = filledForm(reading, outcome, voice, {
      today: todayIn(job.tz, deps.now()),
      unit: (code) => deps.reference.unit(code),
    });
    // The last attempt goes without the hash: the form as last seen, filled, rather than a form
    // left saying it is being read.
    const hash = attempt < UPDATE_ATTEMPTS ? reading.hash : undefined;
    try {
      await client.views.update({
        view_id: job.view_id,
        ...(hash ? { hash } : {}),
        view: filled.view,
      });
    } catch (error) {
      if (errorCode(error) === 'hash_conflict' && attempt < UPDATE_ATTEMPTS) {
        // The form changed meanwhile (a group's default filled it): its new hash comes with the
        // change, kept by fieldChanged or the group's fill.
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        continue;
      }
      // Closed, or submitted: there is no form left to fill.
      logger.warn({
        msg: 'receipt: the form was not filled: {error}',
        error: (error as Error).message,
      });
      return;
    }
    const { reading: _, ...rest } = draft;
    await deps.expenses.saveDraft(user, job.view_id, {
      ...rest,
      ...(filled.receipt ? { receipt: filled.receipt } : {}),
    });
    return;
  }
}

/** The durable job: reads the photo once, and fills the form or says why it could not. */
export function readJob(deps: SlackDeps): JobHandler {
  return async (payload, run, logger) => {
    const parsed = ReadJob.safeParse(payload);
    if (!parsed.ok) {
      logger.error('receipt: a reading job that is not one; dropped');
      return;
    }
    const job = parsed.value;
    const voice = await carriedVoice({ l: job.locale, z: job.tz });
    let outcome: ReadingOutcome;
    if (run.progress === 'reading') {
      logger.warn({
        msg: 'receipt: {file}: its reading stopped on another replica',
        file: job.file_id,
      });
      outcome = { kind: 'stopped' };
    } else {
      await run.save('reading');
      outcome = await readPhoto(deps, job, voice, logger);
    }
    await putUp(deps, job, outcome, voice, logger);
  };
}

/**
 * A field the reading fills was changed while it runs: the form's state and hash are kept with
 * its draft, so that the filled form keeps the person's text.
 */
export function fieldChanged(deps: SlackDeps) {
  return async ({
    ack,
    body,
    logger,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view || view.callback_id !== EXPENSE_CALLBACKS.form) return;
    const user = { team_id: body.team?.id ?? view.team_id, user_id: body.user.id };
    try {
      const draft = await deps.expenses.draft(user, view.id);
      if (!draft?.reading) return;
      await deps.expenses.saveDraft(user, view.id, {
        ...draft,
        reading: {
          ...draft.reading,
          view: shown(view as unknown as Parameters<typeof shown>[0]),
          hash: view.hash,
          state: (view.state?.values ?? {}) as StateValues,
        },
      });
    } catch (error) {
      logger.warn({
        msg: 'receipt: a change in the form was not kept: {error}',
        error: (error as Error).message,
      });
    }
  };
}

/** The form was put up again while its photo is read (a group's default): its hash is kept. */
export async function formMoved(
  deps: SlackDeps,
  user: SlackUserKey,
  viewId: string,
  view: Parameters<typeof shown>[0],
  hash: string | undefined,
): Promise<void> {
  const draft = await deps.expenses.draft(user, viewId);
  if (!draft?.reading) return;
  await deps.expenses.saveDraft(user, viewId, {
    ...draft,
    reading: { ...draft.reading, view: shown(view), hash },
  });
}

/** The image chosen in the form's receipt input, when the form was submitted without an amount. */
export function photoToRead(values: StateValues): { id: string } | undefined {
  const amount = versioned(values, FORM.amount).leaf?.value ?? '';
  if (amount.trim() !== '') return undefined;
  const chosen = values[FORM.receipt]?.[FORM.receipt]?.files?.[0] as
    | { id?: unknown; mimetype?: unknown }
    | undefined;
  if (typeof chosen?.id !== 'string' || !/^F[A-Z0-9]{2,23}$/.test(chosen.id)) return undefined;
  const type = typeof chosen.mimetype === 'string' ? chosen.mimetype : 'image/';
  return type.startsWith('image/') ? { id: chosen.id } : undefined;
}

/**
 * A form submitted with a photo chosen and no amount: nothing is booked; the form stays, saying
 * the photo is being read, and the reading fills it. Undefined when there is nothing to read
 * (no reader, an amount typed, no image chosen, or this photo was read already).
 */
export async function readChosenPhoto(
  deps: SlackDeps,
  s: {
    user: SlackUserKey;
    view: Parameters<typeof shown>[0] & { id: string };
    values: StateValues;
    meta: { l?: string | undefined; z?: string | undefined };
    voice: Voice;
  },
  logger: Logger,
): Promise<ModalView | undefined> {
  const photo = photoToRead(s.values);
  if (!deps.receipts || !photo) return undefined;
  const draft = await deps.expenses.draft(s.user, s.view.id);
  if (draft?.read === photo.id) return undefined;
  const view = readingForm(s.view, s.view.private_metadata ?? '', s.voice);
  await deps.expenses.saveDraft(s.user, s.view.id, {
    ...draft,
    read: photo.id,
    reading: { view: shown(view), hash: undefined, state: s.values, kept: [] },
  });
  const currency = versioned(s.values, FORM.currency).leaf?.selected_option?.value;
  const queued = await startReading(
    deps,
    {
      user: s.user,
      viewId: s.view.id,
      hash: undefined,
      fileId: photo.id,
      // Chosen in the form: read only when it is the person's own file.
      offered: false,
      locale: s.meta.l,
      tz: s.meta.z,
      currency,
    },
    logger,
  );
  return queued ? view : undefined;
}
