import { minorOf } from '../../core/balances.js';
import type { SlackDeps } from '../deps.js';
import { buttonListener } from '../shared/button.js';
import { plainNotice } from '../shared/notices.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { settleConfirmMessage } from '../shared/settle-views.js';
import { parseSettleUpValue } from './views.js';

const NOTHING = 'Nothing was recorded.';

/**
 * Settle up in the daily DM: the DM's button names the friend and currency only, so the debt is
 * read as it stands now and offered for confirmation.
 */
export const digestSettleUpClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: () => 'DM settle up',
    parse: parseSettleUpValue,
    damaged: `This Settle up button is damaged. ${NOTHING} \`/split balance\` has working ones.`,
    queued: false,
    relinks: true,
    failureText: (error, voice) => describeServiceFailure(voice, error, NOTHING).text,
    work: async ({ ref: value, reply, linked, user }) => {
      const record = await linked();
      if (!record) return;
      const [friend, me] = await Promise.all([
        deps.service.forLink(record).getFriend(value.friend_id),
        deps.directory.slackUser(user.team_id, user.user_id).catch(() => undefined),
      ]);
      const name = [friend.first_name, friend.last_name].filter(Boolean).join(' ');
      const owed = friend.balance
        .filter((b) => b.currency_code.toUpperCase() === value.currency)
        .reduce((sum, b) => sum + minorOf(b), 0);
      if (owed === 0) {
        await reply.ephemeral(
          plainNotice(`You and ${name} are already settled up in ${value.currency}.`),
        );
        return;
      }
      await reply.ephemeral(
        settleConfirmMessage(
          {
            k: 'f',
            id: friend.id,
            c: value.currency,
            a: Math.abs(owed),
            p: owed < 0 ? 1 : 0,
            v: 'f',
            n: name.slice(0, 60),
          },
          me?.locale,
        ),
      );
    },
  });
