/**
 * What linking says in Slack: the DM after linking, naming the expense account now linked with an
 * Unlink button (someone who finds an account there that is not theirs can undo it at once), the
 * line that takes the place of a Connect prompt once it is done, and what Unlink leaves in the
 * DM's place, and what `/split whoami` answers. Pure functions of data and the reader's voice.
 * Account names and e-mails come from the expense service: they go through `mrkdwn()`; a command
 * the person typed is shown as they typed it (quotedCommand).
 */
import type { types } from '@slack/bolt';
import { type Infer, int, object } from '../../core/schema.js';
import type { Voice } from '../../voice/index.js';
import { LINKING_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  mrkdwnObject,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { quotedCommand } from '../shared/notices.js';

/** Text already written as mrkdwn, as a message of one section. */
export function linkingNotice(text: string): SlackMessage {
  return { text: clip(text, LIMITS.fallbackText), blocks: [section(text)] };
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
function account(voice: Voice, name: string, email: string | undefined): string {
  return email
    ? voice.t('linking.account_with_email', { name: mrkdwn(name), email: mrkdwn(email) })
    : voice.t('linking.account', { name: mrkdwn(name) });
}

export function linkedDm(
  voice: Voice,
  input: {
    name: string;
    email?: string | undefined;
    serviceUserId: number;
    /** The command about to be carried out. */
    pendingText?: string | undefined;
    /** The command that could not be kept, to be typed again. */
    failedText?: string | undefined;
  },
): SlackMessage {
  const named = account(voice, input.name, input.email);
  return {
    text: clip(voice.t('linking.connected_as', { name: mrkdwn(input.name) }), LIMITS.fallbackText),
    blocks: [
      section(voice.t('linking.dm_connected', { account: named })),
      whatNext(voice, input),
      actionsBlock({
        elements: [
          buttonElement({
            action_id: LINKING_ACTIONS.unlink,
            style: 'danger',
            text: plainTextObject({
              text: plainText(voice.t('linking.unlink_button')),
              emoji: true,
            }),
            value: JSON.stringify(unlinkRefSchema.parse({ s: input.serviceUserId })),
            confirm: {
              title: plainTextObject({ text: plainText(voice.t('linking.unlink_confirm_title')) }),
              text: mrkdwnObject({
                text: clip(voice.t('linking.unlink_confirm_text', { account: named }), 300),
              }),
              confirm: plainTextObject({ text: plainText(voice.t('linking.unlink_button')) }),
              deny: plainTextObject({ text: plainText(voice.t('linking.unlink_keep')) }),
              style: 'danger',
            },
          }),
        ],
      }),
      context(voice.t('linking.dm_not_yours')),
    ],
  };
}

/** The DM's second line: the command that could not be kept, the one carried out now, or a hint. */
function whatNext(
  voice: Voice,
  input: { pendingText?: string | undefined; failedText?: string | undefined },
): types.SectionBlock | types.ContextBlock {
  if (input.failedText) {
    return section(
      voice.t('linking.dm_failed_command', { command: quotedCommand(input.failedText) }),
    );
  }
  if (input.pendingText) {
    return context(
      voice.t('linking.dm_pending_command', { command: quotedCommand(input.pendingText) }),
    );
  }
  return context(voice.t('linking.dm_try'));
}

/** What `/split whoami` answers: the linked account, and since when. */
export function whoamiMessage(
  voice: Voice,
  input: { name: string; serviceUserId: number; linkedAt: string },
): SlackMessage {
  const name = mrkdwn(input.name);
  return {
    text: clip(voice.t('linking.whoami_fallback', { name }), LIMITS.fallbackText),
    blocks: [
      section(
        voice.t('linking.whoami', {
          name,
          id: String(input.serviceUserId),
          date: voice.date(input.linkedAt.slice(0, 10)),
        }),
      ),
      context(voice.t('linking.whoami_disconnect')),
    ],
  };
}

/**
 * Takes the place of a Connect prompt once the person is linked: the prompt's button is used up,
 * and the line says what it did.
 */
export function promptConnectedMessage(voice: Voice, name: string): SlackMessage {
  return linkingNotice(voice.t('linking.prompt_connected', { name: mrkdwn(name) }));
}

/** Replaces the DM once Unlink has removed the link. */
export function unlinkedMessage(voice: Voice, name: string): SlackMessage {
  return {
    text: clip(voice.t('linking.unlinked_fallback', { name: mrkdwn(name) }), LIMITS.fallbackText),
    blocks: [section(voice.t('linking.unlinked', { name: mrkdwn(name) }))],
  };
}

/**
 * Replaces the DM when its Unlink was pressed after its account stopped being the one linked:
 * the button has nothing left to do.
 */
export function unlinkStaleMessage(voice: Voice, current: string | undefined): SlackMessage {
  return linkingNotice(
    current
      ? voice.t('linking.unlink_stale_other', { name: mrkdwn(current) })
      : voice.t('linking.unlink_stale_none'),
  );
}
