/**
 * A group's saved default split as `/split` uses it and as messages name it. Pure: the groups
 * feature saves a default, the `/split` booking and the expense form read it through here.
 */
import type { Split } from '../../core/split.js';
import type { SplitDefault } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { BLOCKS } from '../ids.js';
import { contextBlock, mrkdwnObject } from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mention, mrkdwn } from '../kit/text.js';

/**
 * "60/40" for percentages, "2:1 shares" for shares: the short form an answer quotes, its numbers
 * written the reader's way (as the form's note writes them).
 */
export function defaultShort(voice: Voice, saved: SplitDefault): string {
  return saved.kind === 'percent'
    ? saved.parts.map((p) => voice.number(p.value / 100)).join('/')
    : voice.t('groups.default_short_shares', {
        ratio: saved.parts.map((p) => voice.number(p.value)).join(':'),
      });
}

/** "<@U1> 60%, <@U2> 40%" ("60 %" in German), or with shares "<@U1> 2x, <@U2> 1x". */
export function defaultParts(voice: Voice, saved: SplitDefault): string {
  return saved.parts
    .map(
      (p) =>
        `${mention(p.slack_id)} ${saved.kind === 'percent' ? voice.percent(p.value) : `${voice.number(p.value)}x`}`,
    )
    .join(', ');
}

/**
 * Whether an expense names nobody but the person booking it: then, going into a group, the
 * group's default split decides who shares it (a `/split` typed without names, "Split this" on a
 * message that mentions nobody, the form opened in the group's channel).
 */
export function namesNobody(named: readonly string[], booker: string): boolean {
  return named.every((id) => id === booker);
}

/** The default as an expense's participants (Slack ids, in the saved order) and split. */
export function defaultAsSplit(saved: SplitDefault): { participants: string[]; split: Split } {
  const participants = saved.parts.map((p) => p.slack_id);
  const split: Split =
    saved.kind === 'percent'
      ? {
          kind: 'percent',
          percents: saved.parts.map((p) => ({ id: p.slack_id, basisPoints: p.value })),
        }
      : { kind: 'shares', shares: saved.parts.map((p) => ({ id: p.slack_id, shares: p.value })) };
  return { participants, split };
}

/** People in the default who are no longer members of the group. */
export function leftTheGroup(
  saved: SplitDefault,
  members: ReadonlyArray<{ id: number }>,
): SplitDefault['parts'] {
  const ids = new Set(members.map((m) => m.id));
  return saved.parts.filter((p) => !ids.has(p.service_user_id));
}

/** What the person is told when someone in the default has left the group; nothing is booked. */
export function leftTheGroupText(
  voice: Voice,
  saved: SplitDefault,
  gone: SplitDefault['parts'],
): string {
  return voice.t('split.default_left_group', {
    people: voice.list(gone.map((p) => mention(p.slack_id))),
    count: gone.length,
    group: mrkdwn(clip(saved.group_name, 100)),
  });
}

/** A booked expense's message saying it was split by the group's default, above its buttons. */
export function withDefaultNote(
  voice: Voice,
  message: SlackMessage,
  saved: SplitDefault,
  groupName: string,
): SlackMessage {
  const note = voice.t('split.default_note', {
    group: mrkdwn(clip(groupName, 100)),
    short: defaultShort(voice, saved),
  });
  const blocks = [...message.blocks];
  const at = blocks.findIndex((b) => b.block_id === BLOCKS.expenseActions);
  const block = contextBlock({ elements: [mrkdwnObject({ text: note })] });
  blocks.splice(at < 0 ? blocks.length : at, 0, block);
  return { text: clip(`${message.text} ${note}`, LIMITS.fallbackText), blocks };
}
