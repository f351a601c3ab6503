import type { Money } from '../../core/balances.js';
import { type Infer, int, object, string } from '../../core/schema.js';
import type { Voice } from '../../voice/index.js';
import { LEDGER_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  headerBlock,
  mrkdwnObject,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { clipLines, position } from '../shared/balance-blocks.js';
import { inOwnWords } from '../shared/examples.js';

/** What the Delete button carries. */
const groupRefSchema = object({ g: int({ min: 1 }), n: string({ max: 100 }) });
type GroupRef = Infer<typeof groupRefSchema>;

export function parseGroupRef(value: string | undefined): GroupRef | undefined {
  return groupRefSchema.readJson(value);
}

/** A group's name for mrkdwn, cut to what a line can hold. */
export const groupName = (name: string) => mrkdwn(clip(name, 100));

/** A command as the person would type it, in a code span. */
export const typed = (command: string) => `\`${mrkdwn(command)}\``;

interface GroupLine {
  id: number;
  name: string;
  members: number;
  /** My position, positive = I am owed. */
  balance: Money[];
}

export function groupsMessage(
  voice: Voice,
  input: {
    groups: GroupLine[];
    /** The group this channel books into, if any. */
    boundId?: number | undefined;
  },
): SlackMessage {
  if (input.groups.length === 0) {
    return {
      text: voice.t('groups.none_yet'),
      blocks: [
        section(voice.t('groups.none_yet')),
        context(inOwnWords(voice, voice.t('groups.none_yet_hint'))),
      ],
    };
  }
  // One section holds the whole list (clipped with "…and N more"): a list of 200 groups would
  // otherwise pass the 50 blocks of a message.
  const lines = input.groups.map((g) =>
    voice.t('groups.list_line', {
      name: groupName(g.name),
      members: g.members,
      position: position(voice, g.balance),
      bound: g.id === input.boundId ? 'yes' : 'no',
    }),
  );
  return {
    text: clip(
      voice.t('groups.list_fallback', {
        names: voice.list(input.groups.map((g) => mrkdwn(g.name))),
      }),
      LIMITS.fallbackText,
    ),
    blocks: [
      headerBlock({
        text: plainTextObject({
          text: clip(voice.t('groups.list_header'), LIMITS.headerText),
          emoji: true,
        }),
      }),
      section(clipLines(lines, 2900, voice)),
      context(voice.t('groups.list_footer')),
    ],
  };
}

export function deleteGroupConfirm(voice: Voice, ref: GroupRef): SlackMessage {
  const name = `*${groupName(ref.n)}*`;
  return {
    text: clip(voice.t('groups.delete_fallback', { group: groupName(ref.n) }), LIMITS.fallbackText),
    blocks: [
      section(voice.t('groups.delete_question', { group: name })),
      actionsBlock({
        elements: [
          buttonElement({
            action_id: LEDGER_ACTIONS.groupDelete,
            style: 'danger',
            text: plainTextObject({
              text: plainText(voice.t('groups.delete_button')),
              emoji: true,
            }),
            value: JSON.stringify(groupRefSchema.parse({ g: ref.g, n: ref.n.slice(0, 100) })),
            confirm: {
              title: plainTextObject({ text: plainText(voice.t('groups.delete_confirm_title')) }),
              text: mrkdwnObject({
                text: clip(voice.t('groups.delete_confirm_text', { group: name }), 300),
              }),
              confirm: plainTextObject({ text: plainText(voice.t('groups.delete_confirm')) }),
              deny: plainTextObject({ text: plainText(voice.t('groups.delete_keep')) }),
              style: 'danger',
            },
          }),
        ],
      }),
    ],
  };
}

/** What a group command did, from text already written as mrkdwn, with an optional hint below. */
export function groupNotice(text: string, detail?: string): SlackMessage {
  return {
    text: clip(text, LIMITS.fallbackText),
    blocks: [section(text), ...(detail ? [context(detail)] : [])],
  };
}

/** A refusal, with a command that works; `example` is a command as the person would type it. */
export function groupError(voice: Voice, text: string, example: string): SlackMessage {
  const full = `:warning: ${text}\n${voice.t('groups.example', { example: typed(example) })}`;
  return { text: clip(full, LIMITS.fallbackText), blocks: [section(full)] };
}
