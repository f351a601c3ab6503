/** What a step says to people: the Connect prompt by DM, names, and an error as plain text. */
import type { LookupBudget } from '../../accounts/lookups.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
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
    run.logger.warn({
      msg: 'workflow step: the Connect prompt was not sent: {error}',
      error: (error as Error).message,
    });
  }
}

/**
 * The person's Slack name as they wrote it (a step's error or summary shows no mentions): escape
 * it for where it goes.
 */
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

/** A mention without a label, as the app writes one (`<@U1>`). */
const BARE_MENTION = /<@([UW][A-Z0-9]{2,20})>/g;

/**
 * A notice as a step's error (noticeText), each person it mentions named: a step's error is plain
 * text, where a mention would show as an id.
 */
export async function stepError(
  deps: SlackDeps,
  team_id: string,
  message: SlackMessage,
  lookups: LookupBudget,
): Promise<string> {
  const text = noticeText(message);
  const ids = [...new Set(Array.from(text.matchAll(BARE_MENTION), (m) => m[1]!))].slice(0, 5);
  const names = new Map<string, string>();
  for (const id of ids) {
    names.set(id, mrkdwn(await nameOf(deps, { team_id, user_id: id }, lookups)));
  }
  return text.replace(BARE_MENTION, (whole, id: string) => names.get(id) ?? whole);
}

/** Slack's markup for a mention, a channel, a link (`<@U1>`, `<#C1|x>`, `<https://…|label>`). */
const MARKUP = /<[@#!]?([^<>|]{1,200})(?:\|([^<>]{0,200}))?>/g;

/**
 * A notice as a step's error: its first paragraph (the reason, without the example that
 * follows it), links and channels turned into their labels, bold dropped. What people wrote in it
 * stays escaped as the notice had it: Slack's message carrying the error reads mrkdwn.
 */
export function noticeText(message: SlackMessage): string {
  // Mentions are kept whole here: stepError names them.
  const first = message.blocks[0];
  const raw =
    first?.type === 'section' && first.text?.type === 'mrkdwn' ? first.text.text : message.text;
  return raw
    .slice(0, 3_000)
    .split('\n')[0]!
    .replace(/^:warning:\s*/, '')
    .replace(MARKUP, (whole, target: string, label: string | undefined) =>
      whole.startsWith('<@') && label === undefined ? whole : (label ?? target),
    )
    .replace(/\*/g, '')
    .trim();
}
