/**
 * The expense form refilled from a group's default split when the group is picked in it: the
 * default's people under "Shared by", its kind under "How to split", and a note naming the
 * default. Pure: the view as Slack sent it in, the view to put up out.
 *
 * Slack keeps whatever a person chose in an input across views.update unless the input's
 * block_id changes, so the two refilled inputs get the next version of their block_id; every
 * other input keeps its block_id, and with it what the person typed.
 */
import type { types } from '@slack/bolt';
import type { SplitDefault } from '../../store/index.js';
import { FORM } from '../ids.js';
import { contextBlock, modalView, mrkdwnObject } from '../kit/blocks.js';
import { clip } from '../kit/limits.js';
import { mention, mrkdwn } from '../kit/text.js';
import { sentences } from '../shared/expense-access.js';
import { type ModalView, VIEW_LIMITS } from '../shared/modal.js';
import type { Voice } from '../shared/voice.js';
import { blockVersion, MAX_PARTICIPANTS, versionedBlockId } from './form.js';

export interface GroupDefaultFill {
  saved: SplitDefault;
  /** The group's name as the form shows it. */
  groupName: string;
  /** People in the default who have left the group since: left out, and named in the note. */
  gone: SplitDefault['parts'];
}

/** "60/40", "2:1": the parts of a default, numbers written the reader's way. */
function shortParts(saved: SplitDefault, voice: Voice): string {
  return saved.kind === 'percent'
    ? saved.parts.map((p) => voice.number(p.value / 100)).join('/')
    : saved.parts.map((p) => voice.number(p.value)).join(':');
}

/** "Filled in from the default split of Roommates: 60/40.", naming anyone left out. */
export function defaultNoteText(f: GroupDefaultFill, voice: Voice): string {
  const group = mrkdwn(clip(f.groupName, 200));
  const note = voice.t('form.default_note', {
    group,
    kind: f.saved.kind,
    parts: shortParts(f.saved, voice),
  });
  const gone =
    f.gone.length > 0
      ? voice.t('form.default_gone', {
          count: f.gone.length,
          who: voice.list(f.gone.map((p) => mention(p.slack_id))),
          group,
        })
      : '';
  return clip(sentences(voice, note, gone), 3000);
}

/** The note as the form shows it, above the fields. */
export function defaultNoteBlock(f: GroupDefaultFill, voice: Voice): types.ContextBlock {
  return contextBlock({
    block_id: FORM.defaultNote,
    elements: [mrkdwnObject({ text: defaultNoteText(f, voice) })],
  });
}

/** Who the default shares it among, without those who left the group. */
export function defaultPeople(f: GroupDefaultFill): string[] {
  const gone = new Set(f.gone.map((p) => p.slack_id));
  return f.saved.parts
    .map((p) => p.slack_id)
    .filter((id) => !gone.has(id))
    .slice(0, MAX_PARTICIPANTS);
}

/** The parts of a view Slack sent that views.update takes back. */
export interface ShownForm {
  callback_id?: string | undefined;
  title: types.PlainTextElement;
  submit?: types.PlainTextElement | null | undefined;
  close?: types.PlainTextElement | null | undefined;
  private_metadata?: string | undefined;
  blocks: ReadonlyArray<{ type: string; block_id?: string | undefined }>;
}

type Block = { type: string; block_id?: string | undefined; element?: Record<string, unknown> };

function findInput(blocks: readonly Block[], base: string): number {
  return blocks.findIndex(
    (b) =>
      b.type === 'input' &&
      b.block_id !== undefined &&
      blockVersion(b.block_id, base) !== undefined,
  );
}

/** The same input under its next block_id, with `element` fields replacing the old ones. */
function refilled(block: Block, base: string, element: Record<string, unknown>): Block {
  const version = blockVersion(block.block_id ?? base, base) ?? 0;
  return {
    ...block,
    block_id: versionedBlockId(base, version + 1),
    element: { ...block.element, ...element },
  };
}

/**
 * The form with the default applied; undefined when it has no inputs for who shares it (an edit
 * of an expense with people outside this workspace), so there is nothing to fill.
 */
export function withGroupDefault(
  view: ShownForm,
  f: GroupDefaultFill,
  voice: Voice,
): ModalView | undefined {
  const blocks = view.blocks.map((b) => ({ ...b })) as Block[];
  const people = findInput(blocks, FORM.participants);
  const method = findInput(blocks, FORM.split);
  const peopleBlock = blocks[people];
  const methodBlock = blocks[method];
  if (!peopleBlock || !methodBlock) return undefined;
  blocks[people] = refilled(peopleBlock, FORM.participants, { initial_users: defaultPeople(f) });
  const options = (methodBlock.element?.options ?? []) as Array<{ value?: string }>;
  const kind = options.find((o) => o.value === f.saved.kind);
  if (kind) blocks[method] = refilled(methodBlock, FORM.split, { initial_option: kind });
  const note = defaultNoteBlock(f, voice) as Block;
  const at = blocks.findIndex((b) => b.block_id === FORM.defaultNote);
  if (at >= 0) blocks[at] = note;
  // The form has a few dozen blocks at most; the note is left out rather than break the limit.
  else if (blocks.length < VIEW_LIMITS.viewBlocks) blocks.unshift(note);
  return modalView({
    ...(view.callback_id ? { callback_id: view.callback_id } : {}),
    title: view.title,
    ...(view.submit ? { submit: view.submit } : {}),
    ...(view.close ? { close: view.close } : {}),
    ...(view.private_metadata ? { private_metadata: view.private_metadata } : {}),
    blocks: blocks as unknown as types.KnownBlock[],
  });
}
