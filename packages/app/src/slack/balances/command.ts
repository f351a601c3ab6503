import type { Friend } from '../../service/index.js';
import { groupMatchProblem, matchGroup } from '../shared/ledger.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { linked, type SplitHandler, tellFailure } from '../shared/split-context.js';
import { allFrom, friendFrom, groupFrom } from './render.js';

const NOTHING = 'Nothing was shown.';

/**
 * `/split balance`, `/split balance @ann`, `/split balance Roommates`, `... in EUR`: a private
 * message with every currency, per friend and per group, and Settle up buttons.
 */
export const balanceCommand: SplitHandler<'balance'> = async (c) => {
  const { mention, group: typedGroup, currency } = c.parsed;
  const link = await linked(c);
  if (!link) return;
  const { record, client } = link;
  const me = record.service_user_id;
  try {
    const profile = await c.deps.directory.profile(c.user, client).catch(() => undefined);
    const options = {
      currency,
      locale: c.me?.locale,
      preferredCurrency: profile?.default_currency,
    };
    if (mention) {
      if (mention === c.inv.user_id) {
        await c.reply.ephemeral(
          errorNotice(
            c.voice,
            "That's you. Mention someone else, or leave the mention out for all your balances.",
            '/split balance @ann',
          ),
        );
        return;
      }
      const [friends, groups, their, slack] = await Promise.all([
        client.getFriends(),
        client.getGroups(),
        c.deps.tokens.get({ team_id: c.user.team_id, user_id: mention }),
        c.deps.directory.slackUser(c.user.team_id, mention).catch(() => undefined),
      ]);
      const email = slack?.email?.toLowerCase();
      const friend: Friend | undefined =
        friends.find((f) => their && f.id === their.service_user_id) ??
        (email ? friends.find((f) => f.email?.toLowerCase() === email) : undefined);
      if (!friend) {
        await c.reply.ephemeral(
          plainNotice(
            `You and ${slack?.name ?? 'they'} share no expenses in your expense account yet, so there is no balance to show.`,
          ),
        );
        return;
      }
      await c.reply.ephemeral(friendFrom(friend, groups, options));
      return;
    }
    if (typedGroup) {
      const groups = await client.getGroups();
      const match = matchGroup(groups, typedGroup);
      if (match.kind !== 'found') {
        await c.reply.ephemeral(
          errorNotice(c.voice, groupMatchProblem(typedGroup, match), '/split balance Roommates'),
        );
        return;
      }
      await c.reply.ephemeral(groupFrom(match.group, me, options));
      return;
    }
    const [friends, groups] = await Promise.all([client.getFriends(), client.getGroups()]);
    await c.reply.ephemeral(allFrom(friends, groups, me, options));
  } catch (error) {
    await tellFailure(c, error, NOTHING);
  }
};
