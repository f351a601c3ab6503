/**
 * app_home_opened called directly: the Home tab published after the event (Bolt acks events
 * itself), with Connect for a person not connected yet; the Messages tab left alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appHomeOpened } from '../../../src/slack/home/opened.js';
import { putActingVoice } from '../../../src/slack/shared/voice.js';
import {
  type HandlerWorld,
  recorder,
  startHandlerWorld,
  TEAM,
} from '../../support/handler-world.js';

let world: HandlerWorld;
beforeEach(async () => {
  world = await startHandlerWorld();
});
afterEach(() => world.close());

async function opened(tab: 'home' | 'messages') {
  const rec = recorder();
  const event = { type: 'app_home_opened', user: 'U0ANN', channel: 'D0ANN', tab, event_ts: '1.1' };
  const body = { type: 'event_callback', team_id: TEAM, api_app_id: 'A0FAKEAPP', event };
  const args = {
    ack: rec.ack,
    body,
    event,
    payload: event,
    message: undefined,
    client: world.client,
    logger: world.logger,
    context: { teamId: TEAM, isEnterpriseInstall: false },
    next: async () => undefined,
    say: async () => ({ ok: true }),
  };
  putActingVoice(world.deps, args);
  await appHomeOpened(world.deps)(
    args as unknown as Parameters<ReturnType<typeof appHomeOpened>>[0],
  );
  await world.settled();
  return rec;
}

describe('app_home_opened', () => {
  it('publishes Home with Connect for a person not connected yet, with a link made for them', async () => {
    await opened('home');
    // The person's profile first, for the language the tab is written in.
    expect(world.calls.map((c) => c.method)).toEqual(['users.info', 'views.publish']);
    const { user_id, view } = world.calls[1]!.args as {
      user_id: string;
      view: { type: string; blocks: unknown[] };
    };
    expect(user_id).toBe('U0ANN');
    expect(view.type).toBe('home');
    const text = JSON.stringify(view.blocks);
    expect(text).toContain("You haven't connected your Splitwise account yet.");
    const url = /"url":"(https:\/\/split\.test\/oauth\/start\?state=[^"]+)"/.exec(text)?.[1];
    expect(url).toBeDefined();
    // The link is Ann's: its state is kept for her, to be used once.
    const state = decodeURIComponent(new URL(url!).searchParams.get('state')!);
    expect(await world.store.linkStates.peek(state)).toMatchObject({
      ok: true,
      link: { team_id: TEAM, user_id: 'U0ANN' },
    });
  });

  it("publishes it in the person's language, read from their Slack profile", async () => {
    await world.close();
    world = await startHandlerWorld({
      answers: {
        'users.info': { ok: true, user: { id: 'U0ANN', locale: 'de-DE', tz: 'Europe/Berlin' } },
      },
    });
    await opened('home');
    const { view } = world.calls[1]!.args as { view: { blocks: unknown[] } };
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Du hast dein Splitwise-Konto noch nicht verbunden.');
    expect(text).toContain('"text":"Konto verbinden"');
    expect(text).not.toContain('connected');
  });

  it('leaves the Messages tab alone', async () => {
    await opened('messages');
    expect(world.calls).toEqual([]);
  });

  it('logs a failed publish: there is nowhere else to tell the person', async () => {
    await world.close();
    world = await startHandlerWorld({ answers: { 'views.publish': new Error('not_authed') } });
    await opened('home');
    expect(world.calls.map((c) => c.method)).toEqual(['users.info', 'views.publish']);
    expect(
      world.logger.lines.some((l) => l.startsWith('error Home for U0ANN: Error: not_authed')),
    ).toBe(true);
  });
});
