/**
 * Private (ephemeral) notices and DMs: connecting, errors with a working example, help, whoami.
 * Pure functions from data to Block Kit.
 */
import type { types } from '@slack/bolt';
import type { HelpSection } from '../../core/command/index.js';
import type { Voice } from '../../voice/index.js';
import { ACTIONS, BLOCKS } from '../ids.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';
import type { SlackMessage } from './message.js';

function section(text: string): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

/**
 * A command's text as the person saw it when typing: Slack sends mentions, channels and links in
 * its markup (`<@U0ANN|ann>`) with `&`, `<`, `>` escaped; inside backticks Slack renders none of
 * that, so the markup would reach the person raw.
 */
export function typedCommand(text: string): string {
  const shown = text
    .replace(/<([@#!])([^|>]*)\|([^>]*)>/g, (_, sigil: string, _id: string, label: string) =>
      sigil === '!' ? label : `${sigil}${label}`,
    )
    .replace(/<!(here|channel|everyone)>/g, '@$1')
    .replace(/<([@#])([^>]*)>/g, '$1$2')
    .replace(/<([^|>]*)\|([^>]*)>/g, '$2')
    .replace(/<([^>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return mrkdwnEscape(clip(shown, 200));
}

export type ConnectReason = 'first_time' | 'revoked' | 'asked';

/**
 * Asks the person to connect their expense account, in their voice; `pendingText` is what they
 * typed, carried out once they have. The button's block is the prompt's own (BLOCKS.connectActions):
 * a click on it lets linking replace the whole prompt once it is done.
 */
export function connectPrompt(
  voice: Voice,
  input: {
    url: string;
    reason: ConnectReason;
    pendingText?: string | undefined;
  },
): SlackMessage {
  const intro = voice.t('linking.connect_intro', { reason: input.reason });
  const after = input.pendingText
    ? `\n${voice.t('linking.connect_after', { command: `\`/split ${typedCommand(input.pendingText)}\`` })}`
    : '';
  return {
    text: voice.t('linking.connect_fallback', { intro, url: input.url }),
    blocks: [
      section(`${intro}${after}`),
      {
        type: 'actions',
        block_id: BLOCKS.connectActions,
        elements: [
          {
            type: 'button',
            action_id: ACTIONS.connect,
            style: 'primary',
            text: { type: 'plain_text', text: voice.t('linking.connect_button'), emoji: true },
            url: input.url,
          },
        ],
      },
      context(voice.t('linking.connect_note')),
    ],
  };
}

/**
 * Escapes a notice for mrkdwn but keeps the user mentions the app wrote into it (`<@U0ANN>`, as
 * in "How much did <@U0ANN> pay?"), so that Slack shows the person's name instead of the markup.
 */
function escapeKeepingMentions(text: string): string {
  return text
    .split(/(<@[UW][A-Z0-9]+>)/)
    .map((part, i) => (i % 2 === 1 ? part : mrkdwnEscape(part)))
    .join('');
}

export function errorNotice(message: string, example?: string): SlackMessage {
  const tryThis = example ? `\nFor example: \`${mrkdwnEscape(example)}\`` : '';
  return {
    text: `${message}${example ? ` For example: ${example}` : ''}`,
    blocks: [
      section(`:warning: ${escapeKeepingMentions(message)}${tryThis}`),
      context('`/split help` shows every form.'),
    ],
  };
}

export function plainNotice(text: string): SlackMessage {
  return { text, blocks: [section(escapeKeepingMentions(text))] };
}

export function helpMessage(sections: readonly HelpSection[]): SlackMessage {
  const blocks: types.KnownBlock[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: 'Split: what you can type', emoji: true },
    },
  ];
  for (const s of sections) {
    const lines = s.lines.map((l) => `\`${mrkdwnEscape(l.example)}\`  ${mrkdwnEscape(l.means)}`);
    blocks.push(section(`*${mrkdwnEscape(s.title)}*\n${lines.join('\n')}`));
  }
  blocks.push(
    context(
      'Amounts take a symbol or a code (€12,50, 12.50 EUR); without one, your default currency applies. Leftover cents go to the first people listed.',
    ),
  );
  return {
    text: 'Split help: /split 40 lunch @ann books a lunch that you paid and share with Ann.',
    blocks: blocks.slice(0, LIMITS.messageBlocks),
  };
}

export function whoamiMessage(input: {
  name: string;
  serviceUserId: number;
  linkedAt: string;
}): SlackMessage {
  const since = input.linkedAt.slice(0, 10);
  return {
    text: `You're connected as ${input.name}.`,
    blocks: [
      section(
        `You're connected as *${mrkdwnEscape(input.name)}* (account #${input.serviceUserId}) since ${since}.`,
      ),
      context('`/split disconnect` unlinks it.'),
    ],
  };
}

export function linkedDm(input: {
  name: string;
  /** The command about to be carried out. */
  pendingText?: string | undefined;
  /** The command that could not be carried out after all. */
  failedText?: string | undefined;
}): SlackMessage {
  const blocks: types.KnownBlock[] = [
    section(
      `:white_check_mark: Connected as *${mrkdwnEscape(input.name)}*. You can now use \`/split\` anywhere.`,
    ),
  ];
  if (input.failedText) {
    blocks.push(
      section(
        `I couldn't carry out \`/split ${typedCommand(input.failedText)}\` just now: please type it again.`,
      ),
    );
  } else if (input.pendingText) {
    blocks.push(
      context(`Now carrying out \`/split ${typedCommand(input.pendingText)}\` where you typed it.`),
    );
  } else {
    blocks.push(context('Try `/split 40 lunch @ann`, or `/split help` for every form.'));
  }
  return { text: `Connected as ${input.name}`, blocks };
}
