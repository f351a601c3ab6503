/**
 * `/split export` and the Export button under a list: the matching expenses as a CSV file,
 * uploaded to the person's DM with the app (files.uploadV2: an upload URL, the bytes, then the
 * file shared into the DM; scope files:write).
 */
import type { Logger } from '@slack/bolt';
import type { ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { todayIn } from '../shared/dates.js';
import { mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';
import { plainNotice } from '../shared/notices.js';
import { expensesCsv } from './expense-csv.js';
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

export async function exportExpenses(input: {
  deps: Pick<SlackDeps, 'directory' | 'slack' | 'now'>;
  user: SlackUserKey;
  client: ServiceClient;
  query: ExpenseQuery;
  tz: string | undefined;
  logger: Logger;
}): Promise<SlackMessage> {
  const { deps, user, client, query } = input;
  const [scan, names] = await Promise.all([
    scanExpenses(client, query, { offset: 0, want: MAX_EXPORT, maxRead: MAX_EXPORT_READ }),
    groupNames(deps, user, client),
  ]);
  const asked = describeQuery(query, mrkdwnEscape);
  if (scan.items.length === 0) {
    return plainNotice(
      scan.stoppedEarly
        ? `I read the ${scan.read} most recent expenses and none matched, so there is nothing to export. Narrow the dates to look further back.`
        : 'No expenses match, so there is nothing to export.',
    );
  }
  const count = `${scan.items.length} expense${scan.items.length === 1 ? '' : 's'}`;
  const cut =
    scan.next === null
      ? ''
      : scan.stoppedEarly
        ? ` I read the ${scan.read} most recent expenses and stopped: older ones are not in it; narrow the dates to reach them.`
        : ` It holds the ${MAX_EXPORT} most recent (the most one file takes): narrow the dates for older ones.`;
  const today = todayIn(input.tz, deps.now());
  const csv = expensesCsv(scan.items, names);
  try {
    const slack = await deps.slack.forTeam(user.team_id);
    const dm = await slack.conversations.open({ users: user.user_id });
    const channel = dm.channel?.id;
    if (!channel) throw new Error('conversations.open gave no channel');
    await slack.files.uploadV2({
      channel_id: channel,
      file: Buffer.from(csv, 'utf8'),
      filename: `expenses-${today}.csv`,
      title: `Expenses ${today}`,
      initial_comment: `${count}${asked ? ` ${asked}` : ''}, newest first.${cut}`,
    });
  } catch (error) {
    const code = slackErrorCode(error);
    input.logger.warn(`/split export: upload failed: ${code ?? (error as Error).message}`);
    return plainNotice(
      code === 'missing_scope'
        ? 'I can’t send files in this workspace yet: the app needs the files:write permission. Ask an admin to reinstall it, then export again.'
        : `I couldn’t send the CSV file to our DM (${code ?? 'Slack did not take it'}). Nothing was lost; try /split export again.`,
    );
  }
  return plainNotice(`I sent you a CSV file of ${count} in our DM.${cut}`);
}
