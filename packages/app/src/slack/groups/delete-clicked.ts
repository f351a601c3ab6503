import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { buttonListener } from '../shared/button.js';
import { mrkdwnEscape } from '../shared/limits.js';
import { plainNotice } from '../shared/notices.js';
import { describeServiceFailure, refusedText } from '../shared/service-failure.js';
import { voiceOf } from '../shared/voice.js';
import { groupDoneMessage, parseGroupRef } from './views.js';

const NOTHING = 'Nothing was deleted.';

/**
 * The confirmed Delete under `/split group delete <name>`: deletes the group with the clicking
 * person's own link, unbinds this channel if it booked into it, and replaces the confirmation.
 */
export const groupDeleteClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `group delete ${ref.g}`,
    parse: parseGroupRef,
    damaged: `This Delete button is damaged. ${NOTHING}`,
    claim: {
      key: ({ ref, user }) => `group-delete:${user.team_id}:${ref.g}`,
      ttlMs: DEDUPE_TTL_MS,
      keep: true,
    },
    queued: false,
    relinks: true,
    failureText: (error, voice) => describeServiceFailure(voice, error, NOTHING).text,
    work: async ({ ref, user, reply, args, giveBack, linked }) => {
      const record = await linked();
      if (!record) return;
      const client = deps.service.forLink(record);
      const result = await client.deleteGroup(ref.g);
      if (!result.success) {
        await giveBack();
        const voice = await voiceOf(deps, user, args.logger);
        await reply.ephemeral(plainNotice(refusedText(voice, result.errors, NOTHING)));
        return;
      }
      const channel = args.body.channel?.id;
      if (channel) {
        const bound = await deps.bindings.get({ team_id: user.team_id, channel_id: channel });
        if (bound?.group_id === ref.g)
          await deps.bindings.delete({ team_id: user.team_id, channel_id: channel });
      }
      await deps.preferences.clearGroup(user, ref.g);
      await deps.directory.groups(user, client, true).catch(() => undefined);
      await args.respond({
        replace_original: true,
        ...groupDoneMessage(`Deleted the group *${mrkdwnEscape(ref.n)}*.`),
      });
    },
  });
