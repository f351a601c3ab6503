/**
 * The buttons under `/split list`: Older and Newer replace the list with the page their value
 * names; Export sends the list's filters as a CSV file to the clicker's DM. Answers are in the
 * clicker's voice.
 */
import type { SlackDeps } from '../deps.js';
import { buttonListener } from '../runtime/click.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { told } from '../shared/told.js';
import { exportExpenses } from './export.js';
import { listPage } from './list-page.js';
import { parseListRef } from './list-ref.js';

export const listPageClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: (ref) => `list page ${ref.starts.length}`,
    parse: parseListRef,
    damaged: (voice) => voice.t('split.list_damaged'),
    queued: true,
    relinks: true,
    failureText: (error, voice) => describeServiceFailure(voice, error, '').text,
    work: async ({ ref, user, args, linked, voice }) => {
      const record = await linked();
      if (told(record)) return;
      const message = await listPage({
        deps,
        user,
        client: deps.service.forLink(record),
        me: record.service_user_id,
        query: ref.query,
        starts: ref.starts,
        voice,
      });
      await args.respond({ response_type: 'ephemeral', replace_original: true, ...message });
    },
  });

export const listExportClicked = (deps: SlackDeps) =>
  buttonListener(deps, {
    name: () => 'list export',
    parse: parseListRef,
    damaged: (voice) => voice.t('split.list_damaged'),
    // A second click while the first file is on its way sends nothing more.
    claim: {
      key: ({ user }) => `export:${user.team_id}:${user.user_id}`,
      ttlMs: 60_000,
      keep: false,
    },
    queued: true,
    relinks: true,
    failureText: (error, voice) =>
      describeServiceFailure(voice, error, voice.t('split.no_file_sent')).text,
    work: async ({ ref, user, reply, args, linked, voice }) => {
      const record = await linked();
      if (told(record)) return;
      await reply.ephemeral(
        await exportExpenses({
          deps,
          user,
          client: deps.service.forLink(record),
          query: ref.query,
          voice,
          logger: args.logger,
        }),
      );
    },
  });
