import type { Voice } from '../../voice/index.js';
import { context, section } from '../kit/blocks.js';
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
