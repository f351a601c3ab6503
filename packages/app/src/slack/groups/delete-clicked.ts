import type { Voice } from '../../voice/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { type ButtonArgs, buttonListener } from '../runtime/click.js';
import { plainNotice } from '../shared/notices.js';
import { describeServiceFailure, refusedText } from '../shared/service-failure.js';
import { told } from '../shared/told.js';
import { voiceIn } from '../shared/voice.js';
import { groupName, groupNotice, parseGroupRef } from './views.js';

/**
 * The confirmed Delete under `/split group delete <name>`: deletes the group with the clicking
 * person's own link, unbinds this channel if it booked into it, and replaces the confirmation.
 */
const deleteGroup = (deps: SlackDeps, voice: Voice) =>
  buttonListener(deps, {
    name: (ref) => `group delete ${ref.g}`,
    parse: parseGroupRef,
    damaged: voice.t('groups.delete_damaged'),
    claim: {
      key: ({ ref, user }) => `group-delete:${user.team_id}:${ref.g}`,
      ttlMs: DEDUPE_TTL_MS,
      keep: true,
    },
    queued: false,
    relinks: true,
    failureText: (error, voice) =>
      describeServiceFailure(voice, error, voice.t('groups.nothing_deleted')).text,
    work: async ({ ref, user, reply, args, giveBack, linked }) => {
      const record = await linked();
      if (told(record)) return;
      const client = deps.service.forLink(record);
      const result = await client.deleteGroup(ref.g);
      if (!result.success) {
        await giveBack();
        await reply.ephemeral(
          plainNotice(refusedText(voice, result.errors, voice.t('groups.nothing_deleted'))),
        );
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
        ...groupNotice(voice.t('groups.deleted', { group: groupName(ref.n) })),
      });
    },
  });

/**
 * The click is acknowledged first (Slack waits three seconds for it), then the button's words are
 * written in the voice of the person who clicked.
 */
export const groupDeleteClicked =
  (deps: SlackDeps) =>
  async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const voice = await voiceIn(args.context);
    await deleteGroup(deps, voice)({ ...args, ack: async () => undefined });
  };
