/**
 * `/split export` and the Export button under a list: the matching expenses as a CSV file,
 * uploaded to the person's DM with the app (files.uploadV2: an upload URL, the bytes, then the
 * file shared into the DM; scope files:write). The file's headers, name and comment, and the
 * answer, are in the person's language.
 */
import type { Logger } from '@slack/bolt';
import type { ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import { todayIn } from '../shared/dates.js';
import { plainNotice } from '../shared/notices.js';
import type { Voice } from '../shared/voice.js';
import { csvHeaders, expensesCsv } from './expense-csv.js';
import { describeQuery, type ExpenseQuery, scanExpenses } from './expense-query.js';
import { groupNames } from './list-page.js';

/** Expenses in one file at most: enough for years of a household, small enough to open anywhere. */
const MAX_EXPORT = 1000;
/** Expenses read from the service for one file at most, when filters it can't apply are used. */
const MAX_EXPORT_READ = 10_000;

/** The Slack error code of a failed Web API call, if it is one. */
function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** A file name from a translated word: letters, digits and dashes only. */
function fileName(word: string, today: string): string {
  const safe = word
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return `${safe || 'expenses'}-${today}.csv`;
}

export async function exportExpenses(input: {
  deps: Pick<SlackDeps, 'directory' | 'slack' | 'now'>;
  user: SlackUserKey;
  client: ServiceClient;
  query: ExpenseQuery;
  voice: Voice;
  logger: Logger;
  /** Said first in the answer (mrkdwn), e.g. that words were searched for. */
  note?: string | undefined;
}): Promise<SlackMessage> {
  const { deps, user, client, query, voice } = input;
  const notice = (text: string) => plainNotice(input.note ? `${input.note} ${text}` : text);
  const [scan, names] = await Promise.all([
    scanExpenses(client, query, { offset: 0, want: MAX_EXPORT, maxRead: MAX_EXPORT_READ }),
    groupNames(deps, user, client),
  ]);
  if (scan.items.length === 0) {
    return notice(
      scan.stoppedEarly
        ? voice.t('split.export_none_read', { count: scan.read })
        : voice.t('split.export_none'),
    );
  }
  const count = scan.items.length;
  const cut =
    scan.next === null
      ? ''
      : scan.stoppedEarly
        ? ` ${voice.t('split.export_cut_read', { count: scan.read })}`
        : ` ${voice.t('split.export_cut_most', { count: MAX_EXPORT })}`;
  const today = todayIn(voice.timeZone, deps.now());
  const csv = expensesCsv(scan.items, names, csvHeaders(voice));
  const asked = describeQuery(query, voice);
  try {
    const slack = await deps.slack.forTeam(user.team_id);
    const dm = await slack.conversations.open({ users: user.user_id });
    const channel = dm.channel?.id;
    if (!channel) throw new Error('conversations.open gave no channel');
    await slack.files.uploadV2({
      channel_id: channel,
      file: Buffer.from(csv, 'utf8'),
      filename: fileName(voice.t('split.export_file'), today),
      title: voice.t('split.export_title', { date: voice.date(today) }),
      initial_comment: `${
        asked
          ? voice.t('split.export_comment_filtered', { count, filters: asked })
          : voice.t('split.export_comment', { count })
      }${cut}`,
    });
  } catch (error) {
    const code = slackErrorCode(error);
    input.logger.warn({
      msg: '/split export: upload failed: {code}',
      code: code ?? (error as Error).message,
    });
    return notice(
      code === 'missing_scope'
        ? voice.t('split.export_missing_scope')
        : code
          ? voice.t('split.export_refused', { code: mrkdwn(code) })
          : voice.t('split.export_not_taken'),
    );
  }
  return notice(`${voice.t('split.export_sent', { count })}${cut}`);
}
