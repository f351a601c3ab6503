/**
 * `/split feed on|off`: in a channel bound to a group, posts the group's expense activity made
 * anywhere (the service's own app included). The feed reads the notifications of the person who
 * turned it on, so it starts from what their account has seen so far and reports only what comes
 * after.
 */
import type { ChannelFeed } from '../../store/index.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import {
  linked,
  type SplitContext,
  type SplitHandler,
  tellFailure,
} from '../shared/split-context.js';
import { startingPoint } from './cursor.js';

const BIND_FIRST = 'This channel books into no group: bind it to one first, then turn the feed on.';

// Group names go into these notices as they are called: plainNotice escapes the whole text once.
export const channelFeed: SplitHandler<'feed'> = async (c) => {
  const channel = { team_id: c.user.team_id, channel_id: c.inv.channel_id };
  const current = await c.deps.feeds.get(channel);
  if (c.parsed.action === 'status') {
    await c.reply.ephemeral(
      plainNotice(
        current
          ? `This channel shows the activity of *${current.group_name}*, read through <@${current.user_id}>'s account. \`/split feed off\` stops it.`
          : 'This channel shows no group activity. In a channel bound to a group, `/split feed on` posts its expenses added, edited or deleted anywhere.',
      ),
    );
    return;
  }
  if (c.parsed.action === 'off') {
    if (!current) {
      await c.reply.ephemeral(plainNotice('The feed is not on in this channel: nothing to stop.'));
      return;
    }
    await c.deps.feeds.delete(channel);
    await c.reply.inChannel(
      plainNotice(`<@${c.inv.user_id}> stopped the activity feed of *${current.group_name}* here.`),
    );
    return;
  }
  await turnOn(c, current);
};

async function turnOn(c: SplitContext<'feed'>, current: ChannelFeed | undefined): Promise<void> {
  const binding = await c.deps.bindings.get({
    team_id: c.user.team_id,
    channel_id: c.inv.channel_id,
  });
  if (!binding) {
    await c.reply.ephemeral(errorNotice(c.voice, BIND_FIRST, '/split group use Roommates'));
    return;
  }
  if (current?.group_id === binding.group_id && current.user_id === c.inv.user_id) {
    await c.reply.ephemeral(
      plainNotice(`The activity feed of *${binding.group_name}* is on already.`),
    );
    return;
  }
  const link = await linked(c);
  if (!link) return;
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
      plainNotice(
        `<@${c.inv.user_id}> turned on the activity feed of *${binding.group_name}*: expenses added, edited or deleted in it, here or in the expense service's own app, are posted here (what <@${c.inv.user_id}>'s account is notified of). \`/split feed off\` stops it.`,
      ),
    );
  } catch (error) {
    await tellFailure(c, error, 'The feed was not turned on.');
  }
}
