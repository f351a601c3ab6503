/** What a step says to people: the Connect prompt by DM, names, and an error as plain text. */
import type { LookupBudget } from '../../accounts/lookups.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../shared/message.js';
import { connectPrompt } from '../shared/notices.js';
import type { Voice } from '../shared/voice.js';
import type { StepRun } from './run.js';

/**
 * The person's DM gets the Connect button an unlinked `/split` shows, with nothing kept to carry
 * out afterwards: the step has already reported that nothing was done.
 */
export async function askToConnect(
  deps: SlackDeps,
  run: StepRun,
  user: SlackUserKey,
  voice: Voice,
): Promise<void> {
  try {
    const url = await deps.linking.connectUrl(user);
    await run.client.chat.postMessage({
      channel: user.user_id,
      ...connectPrompt(voice, { url, reason: 'first_time' }),
    });
  } catch (error) {
    run.logger.warn(`workflow step: the Connect prompt was not sent: ${(error as Error).message}`);
  }
}

/** The person's Slack name, for plain text (a step's error or summary shows no mentions). */
export async function nameOf(
  deps: SlackDeps,
  user: SlackUserKey,
  lookups: LookupBudget,
): Promise<string> {
  const person = await deps.directory
    .slackUser(user.team_id, user.user_id, lookups)
    .catch(() => undefined);
  return person?.name || user.user_id;
}

/** Slack's markup for a mention, a channel, a link (`<@U1>`, `<#C1|x>`, `<https://…|label>`). */
const MARKUP = /<[@#!]?([^<>|]{1,200})(?:\|([^<>]{0,200}))?>/g;

/**
 * A notice as a step's error: its first paragraph (the reason, without the example that
 * follows it), markup turned into its label, entities back into their characters.
 */
export function noticeText(message: SlackMessage): string {
  const first = message.blocks[0];
  const raw =
    first?.type === 'section' && first.text?.type === 'mrkdwn' ? first.text.text : message.text;
  return raw
    .slice(0, 3_000)
    .split('\n')[0]!
    .replace(/^:warning:\s*/, '')
    .replace(MARKUP, (_whole, target: string, label: string | undefined) => label ?? target)
    .replace(/\*/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}
