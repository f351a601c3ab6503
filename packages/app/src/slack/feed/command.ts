/**
 * `/split feed on|off`: in a channel bound to a group, posts the group's expense activity made
 * anywhere (the service's own app included). The feed reads the notifications of the person who
 * turned it on, so it starts from what their account has seen so far and reports only what comes
 * after. Its answers are in the voice of the person who typed the command.
 */
import type { ChannelFeed } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { mention, mrkdwn } from '../kit/text.js';
import {
  linked,
  type SplitContext,
  type SplitHandler,
  tellFailure,
} from '../shared/split-context.js';
import { told } from '../shared/told.js';
import { startingPoint } from './cursor.js';
import { feedError, feedNotice } from './views.js';

export const channelFeed: SplitHandler<'feed'> = async (c) => {
  const voice = c.voice;
  const channel = { team_id: c.user.team_id, channel_id: c.inv.channel_id };
  const current = await c.deps.feeds.get(channel);
  if (c.parsed.action === 'status') {
    await c.reply.ephemeral(
      feedNotice(
        current
          ? voice.t('feed.status_on', {
              group: mrkdwn(current.group_name),
              owner: mention(current.user_id),
            })
          : voice.t('feed.status_off'),
      ),
    );
    return;
  }
  if (c.parsed.action === 'off') {
    if (!current) {
      await c.reply.ephemeral(feedNotice(voice.t('feed.nothing_to_stop')));
      return;
    }
    await c.deps.feeds.delete(channel);
    await c.reply.inChannel(
      feedNotice(
        voice.t('feed.turned_off', {
          person: mention(c.inv.user_id),
          group: mrkdwn(current.group_name),
        }),
      ),
    );
    return;
  }
  await turnOn(c, voice, current);
};

async function turnOn(
  c: SplitContext<'feed'>,
  voice: Voice,
  current: ChannelFeed | undefined,
): Promise<void> {
  const binding = await c.deps.bindings.get({
    team_id: c.user.team_id,
    channel_id: c.inv.channel_id,
  });
  if (!binding) {
    await c.reply.ephemeral(
      feedError(voice, voice.t('feed.bind_first'), voice.t('feed.bind_example')),
    );
    return;
  }
  if (current?.group_id === binding.group_id && current.user_id === c.inv.user_id) {
    await c.reply.ephemeral(
      feedNotice(voice.t('feed.already_on', { group: mrkdwn(binding.group_name) })),
    );
    return;
  }
  const link = await linked(c);
  if (told(link)) return;
  try {
    const start = await startingPoint(link.client);
    await c.deps.feeds.set({
      team_id: c.user.team_id,
      channel_id: c.inv.channel_id,
      group_id: binding.group_id,
      group_name: binding.group_name,
      user_id: c.inv.user_id,
      started_at: c.deps.now().toISOString(),
      ...start,
    });
    await c.reply.inChannel(
      feedNotice(
        voice.t('feed.turned_on', {
          person: mention(c.inv.user_id),
          group: mrkdwn(binding.group_name),
        }),
      ),
    );
  } catch (error) {
    await tellFailure(c, error, voice.t('feed.not_turned_on'));
  }
}
