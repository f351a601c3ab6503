/**
 * The arguments Bolt hands a listener, built typed for a handler test: a slash command and a
 * button click, with every field Bolt's types require, `ack` and `respond` recorded, and the
 * world's client and logger. A test names only what it is about (the text, the button's value).
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlashCommand,
} from '@slack/bolt';
import { putActingVoice } from '../../src/slack/shared/voice.js';
import { type HandlerWorld, recorder, TEAM } from './handler-world.js';

type Recorder = ReturnType<typeof recorder>;

/** What every listener gets besides its payload. */
function common(world: HandlerWorld, rec: Recorder) {
  return {
    ack: rec.ack,
    respond: async (message: Parameters<Recorder['respond']>[0]) => {
      await rec.respond(message);
      return new Response('ok');
    },
    client: world.client,
    logger: world.logger,
    context: { teamId: TEAM, isEnterpriseInstall: false },
    next: async () => undefined,
    say: async () => ({ ok: true }),
  };
}

export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** `/split <text>` as Bolt hands it to the command listener. */
export function commandArgs(
  world: HandlerWorld,
  o: Partial<SlashCommand> & { text: string },
): { args: CommandArgs; rec: Recorder } {
  const rec = recorder();
  const command: SlashCommand = {
    token: 'unused',
    team_id: TEAM,
    team_domain: 'acme',
    user_id: 'U0ANN',
    user_name: 'ann',
    channel_id: 'C0001',
    channel_name: 'general',
    command: '/split',
    trigger_id: '1111.2222.abcd',
    response_url: 'https://hooks.slack.test/commands/T0001/1/abc',
    api_app_id: 'A0FAKEAPP',
    ...o,
  };
  const args = { ...common(world, rec), command, body: command, payload: command };
  // As the app's global middleware does before any listener.
  putActingVoice(world.deps, args);
  return { args, rec };
}

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/**
 * A click on a button (`action_id`, `value`) by `user` (Ann unless given), on a message (its
 * `ts`) or in the Home tab (`home`).
 */
export function buttonArgs(
  world: HandlerWorld,
  o: {
    action_id: string;
    value: string;
    user?: string;
    where?: { home?: boolean; ts?: string; channel?: string };
  },
): { args: ButtonArgs; rec: Recorder } {
  const rec = recorder();
  const action: ButtonAction = {
    type: 'button',
    action_id: o.action_id,
    block_id: 'b',
    value: o.value,
    text: { type: 'plain_text', text: 'button' },
    action_ts: '1700000000.000200',
  };
  const user = o.user ?? 'U0ANN';
  const channel = o.where?.channel ?? 'C0001';
  const body: BlockAction<ButtonAction> = {
    type: 'block_actions',
    team: { id: TEAM, domain: 'acme' },
    user: { id: user, username: user.toLowerCase(), team_id: TEAM },
    trigger_id: '3.3.3',
    api_app_id: 'A0FAKEAPP',
    token: 'unused',
    actions: [action],
    ...(o.where?.home
      ? {
          container: { type: 'view', view_id: 'V0HOME' },
          view: { type: 'home', id: 'V0HOME', hash: 'h1' } as BlockAction['view'],
          response_url: '',
        }
      : {
          container: { type: 'message', message_ts: o.where?.ts ?? '1700000000.000100' },
          channel: { id: channel, name: 'general' },
          message: { type: 'message', ts: o.where?.ts ?? '1700000000.000100', text: '' },
          response_url: 'https://hooks.slack.test/actions/T0001/1/xyz',
        }),
  };
  const args = { ...common(world, rec), body, action, payload: action };
  putActingVoice(world.deps, args);
  return { args, rec };
}
