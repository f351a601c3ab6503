/**
 * The first time a person opens the app's Messages tab, the app says what it takes there: a
 * `/split` written as a message, with three examples naming people they can mention. Once per
 * person: a claim in the shared store (one replica greets, however many get the event), kept for
 * good and removed with what else is kept about the person or the workspace, so that a person who
 * removed their data is greeted again as someone new.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs, types } from '@slack/bolt';
import { lookupBudget } from '../../accounts/lookups.js';
import { grammarLanguageOf, helpFor } from '../../core/command/index.js';
import type { SlackDeps } from '../deps.js';
import { contextBlock, mrkdwnObject, sectionBlock } from '../kit/blocks.js';
import type { SlackMessage } from '../kit/message.js';
import { mention } from '../kit/text.js';
import { exampleText } from '../shared/examples.js';
import { type Voice, voiceIn } from '../shared/voice.js';
import { examplePeople } from './example-people.js';

/** The claim's life: long enough to mean "ever"; a claim needs one. */
const GREETED_MS = 10 * 365 * 24 * 60 * 60_000;

export const greetedKey = (team_id: string, user_id: string) => `greeted:${team_id}:${user_id}`;

/** The three forms shown, each with the help line that says what it does. */
const SHOWN = [
  { id: 'basic', line: 'help.lines.basic' },
  { id: 'currency_date', line: 'help.lines.currency_date' },
  { id: 'balance', line: 'help.lines.balance' },
] as const;

/**
 * The greeting, in the reader's voice, with `people` in place of the examples' `@ann` (and, with
 * nobody to name, a placeholder that names no one).
 */
export function greetingMessage(
  voice: Voice,
  input: { app: string | undefined; people: readonly string[] },
): SlackMessage {
  const app = input.app ? mention(input.app) : '@Split';
  // The forms of the reader's language, written as a message is: without `/split`.
  const { overview } = helpFor(grammarLanguageOf(voice.locale));
  const exampleOf = (id: (typeof SHOWN)[number]['id']) =>
    overview.find((l) => l.id === id)!.example.replace(/^\/split /, '');
  const intro = voice.t('talk.greeting', {
    app,
    example: exampleText(voice, exampleOf('basic'), input.people),
  });
  const lines = SHOWN.map(
    ({ id, line }) => `• ${exampleText(voice, exampleOf(id), input.people)} — ${voice.t(line)}`,
  );
  const blocks: types.KnownBlock[] = [
    sectionBlock({ text: mrkdwnObject({ text: intro }) }),
    sectionBlock({ text: mrkdwnObject({ text: lines.join('\n') }) }),
    contextBlock({ elements: [mrkdwnObject({ text: voice.t('talk.greeting_more', { app }) })] }),
  ];
  return { text: intro, blocks };
}

/** `app_home_opened` on the Messages tab: the greeting, the first time only. */
export function messagesTabOpened(deps: SlackDeps) {
  return async ({
    event,
    body,
    client,
    context,
    logger,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'messages') return;
    const team = context.teamId ?? body.team_id;
    if (!team) return;
    const user = { team_id: team, user_id: event.user };
    const key = greetedKey(team, event.user);
    deps.work.push(async () => {
      // Whoever comes back to write to the app is answered in the language Slack says now.
      const lookups = lookupBudget();
      await deps.directory.refreshSlackUser(team, event.user, lookups).catch((error: Error) =>
        logger.warn({
          msg: 'users.info for {user}: {error}',
          user: event.user,
          error: error.message,
        }),
      );
      try {
        if (!(await deps.claims.claim(key, GREETED_MS))) return;
      } catch (error) {
        logger.warn({
          msg: 'greeting {user}: claim failed: {error}',
          user: event.user,
          error: (error as Error).message,
        });
        return;
      }
      try {
        const [voice, people] = await Promise.all([
          voiceIn(context, { lookups }),
          examplePeople({ deps, user, lookups, logger }),
        ]);
        await client.chat.postMessage({
          channel: event.channel || event.user,
          ...greetingMessage(voice, { app: context.botUserId, people }),
        });
      } catch (error) {
        // Not greeted: the next opening of the tab tries again.
        await deps.claims.release(key).catch(() => undefined);
        logger.warn({
          msg: 'greeting {user} failed: {error}',
          user: event.user,
          error: (error as Error).message,
        });
      }
    });
  };
}
