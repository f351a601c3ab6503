/**
 * Book an expense, as a workflow's step: the inputs are checked, the payer must be the person who
 * ran the workflow and have connected their own account, and the expense is then booked by the one
 * booking path `/split` takes (through the hook slack/app.ts hands over): the people resolved,
 * exact shares, the marker and its reconciling, the answer posted in the channel. The step
 * completes with the expense's id, link and a one-line summary, or fails saying why, in the
 * payer's language; nothing is kept to be booked later.
 */
import { lookupBudget } from '../../accounts/lookups.js';
import { bookingMarker } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import type { Reply } from '../runtime/reply.js';
import type { BookedSummary } from '../shared/split-context.js';
import { defaultVoice, voiceOf } from '../shared/voice.js';
import { payerOf, readBookInputs, splitText } from './inputs.js';
import { askToConnect, nameOf, stepError } from './notices.js';
import type { StepRun } from './run.js';

/** Where the service shows an expense (the links the app's unfurling reads back). */
export const expenseUrl = (id: number) => `https://secure.splitwise.com/expenses/${id}`;

export async function bookStep(deps: SlackDeps, run: StepRun): Promise<void> {
  const { job, client, logger } = run;
  const inputs = readBookInputs(job.inputs);
  const payer = payerOf(job.inputs);
  const user = { team_id: job.team_id, user_id: payer ?? '' };
  const lookups = lookupBudget(2);
  const voice = payer ? await voiceOf(deps, user, logger, lookups) : await defaultVoice();
  if ('refused' in inputs) return run.fail(voice.t(inputs.refused, inputs.values));
  // The payer's account is what the booking uses: only the payer may start it, by running the
  // workflow themselves. A schedule has nobody behind it, and a builder's fixed payer is a claim.
  if (!inputs.runner) return run.fail(voice.t('workflows.needs_runner'));
  if (inputs.runner !== inputs.payer) return run.fail(voice.t('workflows.payer_not_runner'));
  if (!(await deps.tokens.get(user))) {
    await askToConnect(deps, run, user, voice);
    const name = await nameOf(deps, user, lookups);
    return run.fail(voice.t('workflows.not_connected', { name: mrkdwn(name) }));
  }
  let booked: BookedSummary | undefined;
  let said: SlackMessage | undefined;
  const answerIn = inputs.channel ?? inputs.payer;
  const reply = stepReply(client, inputs.payer, answerIn, (message) => {
    said = message;
  });
  try {
    await deps.hooks.runSplit(
      {
        team_id: job.team_id,
        user_id: inputs.payer,
        channel_id: answerIn,
        text: splitText(inputs),
        once: {
          marker: bookingMarker(run.id),
          sentAt: run.progress.sentAt,
          sending: (at) => run.save({ sentAt: at }),
        },
        carry: false,
        booked: (expense) => {
          booked = expense;
        },
      },
      reply,
      logger,
    );
  } catch (error) {
    // Booked, then the answer could not be posted: the step still hands the expense on.
    if (!booked) throw error;
    logger.warn({
      msg: 'book_expense: booked, but the answer failed: {error}',
      error: (error as Error).message,
    });
  }
  if (!booked) {
    return run.fail(
      said
        ? await stepError(deps, job.team_id, said, lookupBudget(5))
        : voice.t('workflows.failed'),
    );
  }
  const payerName = await nameOf(deps, user, lookups);
  await run.succeed({
    expense_id: String(booked.id),
    expense_url: expenseUrl(booked.id),
    summary: voice.t('workflows.summary', {
      // Later steps may post it as a message: what people wrote is escaped as mrkdwn.
      payer: mrkdwn(payerName),
      amount: voice.money(booked.cost, booked.currency),
      what: mrkdwn(booked.description),
      count: booked.participants.length,
    }),
  });
}

/**
 * Where the booking's answers go for a step: the answer in `answerIn`. What `/split` tells the
 * person privately (why nothing was booked, or that it is still being checked) is handed to
 * `said`, the last one being the step's error; one with a button goes to the payer too.
 */
function stepReply(
  client: StepRun['client'],
  payer: string,
  answerIn: string,
  said: (message: SlackMessage) => void,
): Reply {
  return {
    ephemeral: async (message) => {
      said(message);
      if (message.blocks.some((block) => block.type === 'actions')) {
        await client.chat.postMessage({ channel: payer, ...message });
      }
    },
    inChannel: async (message) => {
      await client.chat.postMessage({ channel: answerIn, ...message });
    },
  };
}
