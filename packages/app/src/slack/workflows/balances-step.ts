/**
 * Post balances, as a workflow's step: a person's balances posted in a channel as `/split balance`
 * shows them (the balances feature renders them, through the hook slack/app.ts hands over), Settle
 * up buttons included; a click on one acts only on the clicker's own account, as everywhere.
 * Run by a person, the step posts that person's balances only. On a schedule nobody runs it:
 * the person whose balances were posted is told where, by DM, so that nothing is shown of them
 * without their knowing.
 */
import { lookupBudget } from '../../accounts/lookups.js';
import type { SlackDeps } from '../deps.js';
import { context } from '../kit/blocks.js';
import { LIMITS } from '../kit/limits.js';
import { mrkdwn } from '../kit/text.js';
import { plainNotice } from '../shared/notices.js';
import { defaultVoice, voiceOf } from '../shared/voice.js';
import { readBalancesInputs } from './inputs.js';
import { askToConnect, nameOf, noticeText } from './notices.js';
import type { StepRun } from './run.js';

export async function balancesStep(deps: SlackDeps, run: StepRun): Promise<void> {
  const { job, client, logger } = run;
  const inputs = readBalancesInputs(job.inputs);
  if ('refused' in inputs) return run.fail((await defaultVoice()).t(inputs.refused));
  const user = { team_id: job.team_id, user_id: inputs.user };
  const lookups = lookupBudget(2);
  const voice = await voiceOf(deps, user, logger, lookups);
  if (inputs.runner && inputs.runner !== inputs.user) {
    return run.fail(voice.t('workflows.balances_not_runner'));
  }
  const answer = await deps.hooks.balances(user, logger);
  if (answer.kind === 'not_linked') {
    await askToConnect(deps, run, user, voice);
    const name = await nameOf(deps, user, lookups);
    return run.fail(voice.t('workflows.balances_not_connected', { name: mrkdwn(name) }));
  }
  if (answer.kind === 'failed') return run.fail(noticeText(plainNotice(answer.text)));
  // Written to the person ("you are owed…"): the channel is told whose balances these are.
  const whose = context(voice.t('workflows.balances_of', { person: `<@${inputs.user}>` }));
  const blocks =
    answer.message.blocks.length < LIMITS.messageBlocks
      ? [whose, ...answer.message.blocks]
      : answer.message.blocks;
  const posted = await client.chat.postMessage({
    channel: inputs.channel,
    text: answer.message.text,
    blocks,
  });
  if (!inputs.runner) {
    await client.chat
      .postMessage({
        channel: inputs.user,
        ...plainNotice(
          voice.t('workflows.posted_by_workflow', { channel: `<#${inputs.channel}>` }),
        ),
      })
      .catch((error: Error) =>
        logger.warn({ msg: 'post_balances: the DM failed: {error}', error: error.message }),
      );
  }
  await run.succeed({ message_ts: posted.ts ?? '' });
}
