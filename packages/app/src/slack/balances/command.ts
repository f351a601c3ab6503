import type { Friend } from '../../service/index.js';
import { mrkdwn } from '../kit/text.js';
import { notice, problem } from '../shared/balance-blocks.js';
import { matchGroup, unmatchedGroupText } from '../shared/ledger.js';
import { linked, type SplitHandler, tellFailure } from '../shared/split-context.js';
import { told } from '../shared/told.js';
import { allFrom, friendFrom, groupFrom } from './render.js';

/**
 * `/split balance`, `/split balance @ann`, `/split balance Roommates`, `... in EUR`: a private
 * message with every currency, per friend and per group, and Settle up buttons, in the voice of
 * the person who asked.
 */
export const balanceCommand: SplitHandler<'balance'> = async (c) => {
  const { mention, group: typedGroup, currency } = c.parsed;
  const voice = c.voice;
  const link = await linked(c);
  if (told(link)) return;
  const { record, client } = link;
  const me = record.service_user_id;
  try {
    const profile = await c.deps.directory.profile(c.user, client).catch(() => undefined);
    const options = { currency, preferredCurrency: profile?.default_currency };
    if (mention) {
      if (mention === c.inv.user_id) {
        await c.reply.ephemeral(problem(voice, voice.t('balances.self'), '/split balance @ann'));
        return;
      }
      const [friends, groups, their, slack] = await Promise.all([
        client.getFriends(),
        client.getGroups(),
        c.deps.tokens.get({ team_id: c.user.team_id, user_id: mention }),
        c.deps.directory.slackUser(c.user.team_id, mention, c.lookups).catch(() => undefined),
      ]);
      const email = slack?.email?.toLowerCase();
      const friend: Friend | undefined =
        friends.find((f) => their && f.id === their.service_user_id) ??
        (email ? friends.find((f) => f.email?.toLowerCase() === email) : undefined);
      if (!friend) {
        await c.reply.ephemeral(
          notice(
            slack?.name
              ? voice.t('balances.no_shared_expenses', { name: mrkdwn(slack.name) })
              : voice.t('balances.no_shared_expenses_someone'),
          ),
        );
        return;
      }
      await c.reply.ephemeral(friendFrom(friend, groups, options, voice));
      return;
    }
    if (typedGroup) {
      const groups = await client.getGroups();
      const match = matchGroup(groups, typedGroup);
      if (match.kind !== 'found') {
        await c.reply.ephemeral(
          problem(voice, unmatchedGroupText(voice, typedGroup, match), '/split balance Roommates'),
        );
        return;
      }
      await c.reply.ephemeral(groupFrom(match.group, me, options, voice));
      return;
    }
    const [friends, groups] = await Promise.all([client.getFriends(), client.getGroups()]);
    await c.reply.ephemeral(allFrom(friends, groups, me, options, voice));
  } catch (error) {
    await tellFailure(c, error, voice.t('balances.nothing_shown'));
  }
};
