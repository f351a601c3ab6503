/**
 * What linking says in Slack: the DM after linking, naming the expense account now linked with an
 * Unlink button (someone who finds an account there that is not theirs can undo it at once), and
 * what Unlink leaves in its place. Pure functions from data to Block Kit. The DM keeps the shared
 * "Connected as" notice's own lines (what happens next) under its first one.
 */
import type { types } from '@slack/bolt';
import { type Infer, int, object } from '../../core/schema.js';
import { LINKING_ACTIONS } from '../ids.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';
import { linkedDm as connectedNotice } from '../shared/notices.js';

function section(text: string): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

/** The Unlink button's value: the service account it unlinks, so an old DM cannot unlink a newer one. */
const unlinkRefSchema = object({ s: int({ min: 1 }) });
type UnlinkRef = Infer<typeof unlinkRefSchema>;

export function parseUnlinkRef(value: string | undefined): UnlinkRef | undefined {
  try {
    const parsed = unlinkRefSchema.safeParse(JSON.parse(value ?? ''));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/** The account as a person recognises it: its name, and its e-mail when the service gave one. */
function account(name: string, email: string | undefined): string {
  return email ? `*${mrkdwnEscape(name)}* (${mrkdwnEscape(email)})` : `*${mrkdwnEscape(name)}*`;
}

export function linkedDm(input: {
  name: string;
  email?: string | undefined;
  serviceUserId: number;
  /** The command about to be carried out. */
  pendingText?: string | undefined;
  /** The command that could not be kept, to be typed again. */
  failedText?: string | undefined;
}): SlackMessage {
  const notice = connectedNotice({
    name: input.name,
    pendingText: input.pendingText,
    failedText: input.failedText,
  });
  return {
    text: notice.text,
    blocks: [
      section(
        `:white_check_mark: Connected as ${account(input.name, input.email)}: your Slack account now books into this expense account. You can now use \`/split\` anywhere.`,
      ),
      ...notice.blocks.slice(1),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: LINKING_ACTIONS.unlink,
            style: 'danger',
            text: { type: 'plain_text', text: 'Unlink', emoji: true },
            value: JSON.stringify(unlinkRefSchema.parse({ s: input.serviceUserId })),
            confirm: {
              title: { type: 'plain_text', text: 'Unlink this account?' },
              text: {
                type: 'mrkdwn',
                text: clip(
                  `I'll forget my token for ${account(input.name, input.email)}; nothing more is booked through it.`,
                  300,
                ),
              },
              confirm: { type: 'plain_text', text: 'Unlink' },
              deny: { type: 'plain_text', text: 'Keep it' },
              style: 'danger',
            },
          },
        ],
      },
      context('Not your account, or not the one you meant? Unlink it, then `/split connect`.'),
    ],
  };
}

/** Replaces the DM once Unlink has removed the link. */
export function unlinkedMessage(name: string): SlackMessage {
  return {
    text: `Unlinked ${name}`,
    blocks: [
      section(
        `Unlinked: I no longer hold a token for the expense account *${mrkdwnEscape(name)}*. \`/split connect\` links an account again.`,
      ),
    ],
  };
}

/** Unlink pressed on a DM whose account is no longer the one linked. */
export function unlinkStaleText(current: string | undefined): string {
  return current
    ? `That account is no longer linked: you're connected as ${current} now. /split disconnect unlinks it.`
    : "That account is no longer linked: you aren't connected. /split connect links your expense account.";
}
