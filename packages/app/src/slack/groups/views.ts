/**
 * Groups as Block Kit: the list, what a group command did, and the delete confirmation. Pure
 * functions; they keep within Slack's limits (50 blocks a message, 3000 characters a section).
 */
import type { types } from '@slack/bolt';
import type { Money } from '../../core/balances.js';
import { type Infer, int, object, string } from '../../core/schema.js';
import { LEDGER_ACTIONS } from '../ids.js';
import { clipLines, positionText } from '../shared/balance-blocks.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';

/** What the Delete button carries. */
const groupRefSchema = object({ g: int({ min: 1 }), n: string({ max: 100 }) });
type GroupRef = Infer<typeof groupRefSchema>;

export function parseGroupRef(value: string | undefined): GroupRef | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = groupRefSchema.safeParse(JSON.parse(value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

function section(text: string): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

const bold = (name: string) => `*${mrkdwnEscape(clip(name, 100))}*`;

interface GroupLine {
  id: number;
  name: string;
  members: number;
  /** My position, positive = I am owed. */
  balance: Money[];
}

export function groupsMessage(input: {
  groups: GroupLine[];
  /** The group this channel books into, if any. */
  boundId?: number | undefined;
  locale?: string | undefined;
}): SlackMessage {
  if (input.groups.length === 0) {
    return {
      text: "You're in no groups yet.",
      blocks: [
        section("You're in no groups yet."),
        context('`/split group create Roommates @ann @bob` makes one.'),
      ],
    };
  }
  // One section holds the whole list (clipped with "…and N more"): a list of 200 groups would
  // otherwise pass the 50 blocks of a message.
  const lines = input.groups.map(
    (g) =>
      `• ${bold(g.name)} (${g.members} ${g.members === 1 ? 'member' : 'members'}): ${positionText(g.balance, input.locale)}${
        g.id === input.boundId ? ' · _this channel books into it_' : ''
      }`,
  );
  return {
    text: `Your groups: ${input.groups.map((g) => g.name).join(', ')}`.slice(
      0,
      LIMITS.fallbackText,
    ),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Your groups', emoji: true } },
      section(clipLines(lines, 2900)),
      context(
        '`/split balance <group>` shows its debts · `/split group use <group>` makes this channel book into it · `/split group add @someone <group>` · `/split group delete <group>`',
      ),
    ],
  };
}

export function deleteGroupConfirm(ref: GroupRef): SlackMessage {
  const name = bold(ref.n);
  return {
    text: `Delete the group ${ref.n}?`,
    blocks: [
      section(
        `Delete the group ${name}? Its expenses stop counting in everyone's balances (the service keeps them, so it can be restored on the service's website).`,
      ),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.groupDelete,
            style: 'danger',
            text: { type: 'plain_text', text: 'Delete group', emoji: true },
            value: JSON.stringify(groupRefSchema.parse({ g: ref.g, n: ref.n.slice(0, 100) })),
            confirm: {
              title: { type: 'plain_text', text: 'Delete this group?' },
              text: {
                type: 'mrkdwn',
                text: clip(`The group ${name} will be deleted for all its members.`, 300),
              },
              confirm: { type: 'plain_text', text: 'Delete' },
              deny: { type: 'plain_text', text: 'Keep it' },
              style: 'danger',
            },
          },
        ],
      },
    ],
  };
}

export function groupDoneMessage(text: string, detail?: string): SlackMessage {
  return {
    text: clip(text, LIMITS.fallbackText),
    blocks: [section(text), ...(detail ? [context(detail)] : [])],
  };
}
