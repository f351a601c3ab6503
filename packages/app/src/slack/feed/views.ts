/**
 * The channel feed's messages. Pure: data and a voice in, Block Kit out.
 *
 * A feed posts to a channel, where everyone reads the same message: it is written in the voice of
 * the person who turned the feed on (the feed is theirs: their account's notifications are read),
 * so that the channel reads it in one language, the one its owner chose.
 *
 * Names, descriptions and group names come from the expense service, where people outside Slack
 * write them: each goes through `mrkdwn()` in the blocks and in the fallback text alike, so that
 * none of them can ping the channel, show a link under another label, or turn into formatting.
 */
import type { types } from '@slack/bolt';
import type { Voice } from '../../voice/index.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mention, mrkdwn } from '../kit/text.js';

/** What happened to an expense, as the service's notification types say it. */
export type FeedVerb = 'added' | 'edited' | 'deleted' | 'restored';

interface FeedChange {
  verb: FeedVerb;
  /** The person who made the change, as the service names them; undefined when it does not. */
  who: string | undefined;
  description: string;
  /**
   * A payment between two people: named as one in the reader's words, whatever description the
   * app or another client gave it ("Payment", in the language of whoever recorded it).
   */
  payment?: boolean | undefined;
  /** Minor units. */
  cost: number;
  currency: string;
  group: string;
}

function context(text: string): types.KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

function section(text: string): types.KnownBlock {
  // A section's text is at most 3000 characters: a description can be long.
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } };
}

/** A short note in the channel (feed turned on or off), from text already written as mrkdwn. */
export function feedNotice(text: string): SlackMessage {
  return { text: clip(text, LIMITS.fallbackText), blocks: [section(text)] };
}

/** A refusal, with a command that works; `example` is a command as the person would type it. */
export function feedError(voice: Voice, text: string, example: string): SlackMessage {
  const tryThis = voice.t('feed.example', { example: `\`${mrkdwn(example)}\`` });
  const full = `:warning: ${text}\n${tryThis}`;
  return { text: clip(full, LIMITS.fallbackText), blocks: [section(full)] };
}

/** "Ann Lee added “Dinner” €60.00 in Roommates." Names, not mentions: a feed pings nobody. */
export function feedChangeMessage(voice: Voice, change: FeedChange): SlackMessage {
  const who = change.who === undefined ? voice.t('feed.someone') : mrkdwn(change.who);
  const quoted = change.payment
    ? voice.t('feed.payment')
    : voice.t('feed.quoted', { description: mrkdwn(change.description) });
  const group = mrkdwn(change.group);
  const amount = voice.money(change.cost, change.currency);
  const sentence = (what: string, where: string) =>
    voice.t('feed.change', { verb: change.verb, who, what, amount, group: where });
  const title = change.verb === 'deleted' ? `~${quoted}~` : `*${quoted}*`;
  return {
    text: clip(sentence(quoted, group), LIMITS.fallbackText),
    blocks: [section(sentence(title, `*${group}*`)), context(voice.t('feed.footer'))],
  };
}

/** Told once, in the channel, when the feed stops because its owner's account is gone. */
export function feedStoppedMessage(voice: Voice, owner: string, group: string): SlackMessage {
  return feedNotice(voice.t('feed.stopped', { owner: mention(owner), group: mrkdwn(group) }));
}
