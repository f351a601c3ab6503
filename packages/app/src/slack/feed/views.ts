/** The channel feed's messages. Pure: data in, Block Kit out. */
import type { types } from '@slack/bolt';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';

/** What happened to an expense, as the service's notification types say it. */
export type FeedVerb = 'added' | 'edited' | 'deleted' | 'restored';

interface FeedChange {
  verb: FeedVerb;
  /** The person who made the change, as the service names them. */
  who: string;
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  group: string;
  locale?: string | undefined;
}

function context(text: string): types.KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

function section(text: string): types.KnownBlock {
  // A section's text is at most 3000 characters: a description can be long.
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

/** "Ann Lee added “Dinner” €60.00 in Roommates." Names, not mentions: a feed pings nobody. */
export function feedChangeMessage(change: FeedChange): SlackMessage {
  const what = `“${change.description}”`;
  const amount = money(change.cost, change.currency, change.locale);
  const plain = `${change.who} ${change.verb} ${what} ${amount} in ${change.group}.`;
  const title = change.verb === 'deleted' ? `~${mrkdwnEscape(what)}~` : `*${mrkdwnEscape(what)}*`;
  return {
    text: clip(plain, LIMITS.fallbackText),
    blocks: [
      section(
        `${mrkdwnEscape(change.who)} ${change.verb} ${title} ${amount} in *${mrkdwnEscape(change.group)}*.`,
      ),
      context('Group activity · `/split feed off` stops these'),
    ],
  };
}

/** Told once, in the channel, when the feed stops because its owner's account is gone. */
export function feedStoppedMessage(owner: string, group: string): SlackMessage {
  const text = `The activity feed of *${mrkdwnEscape(group)}* here has stopped: <@${owner}>, who turned it on, no longer has an expense account connected. \`/split feed on\` starts it again with yours.`;
  return { text: clip(text, LIMITS.fallbackText), blocks: [section(text)] };
}
