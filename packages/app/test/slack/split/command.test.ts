/**
 * The /split command listener called directly: what it acks, what it keeps for after the ack,
 * and what a repeated delivery, a failing store and an empty command get.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openNewForm } from '../../../src/slack/expense-form/open.js';
import { splitCommand } from '../../../src/slack/split/ack.js';
import type { OpenForm } from '../../../src/slack/split/form-offer.js';
import { type HandlerWorld, startHandlerWorld, TEAM } from '../../support/handler-world.js';
import { commandArgs } from '../../support/listener-args.js';

let world: HandlerWorld;
beforeEach(async () => {
  world = await startHandlerWorld({
    answers: { 'views.open': { ok: true, view: { id: 'V0FORM', hash: 'h1' } } },
  });
});
afterEach(() => world.close());

/** Calls the listener as Bolt would for one delivery of `/split <text>`. */
async function send(text: string, trigger_id = '1111.2222.abcd') {
  const { args, rec } = commandArgs(world, { text, trigger_id });
  const openForm: OpenForm = (request) => openNewForm({ deps: world.deps, ...request });
  await splitCommand(world.deps, openForm)(args);
  return rec;
}

describe('/split', () => {
  it('keeps the command for after the ack, then acks with nothing to show', async () => {
    const rec = await send('40 lunch <@U0BOB>');
    expect(rec.acks).toEqual([undefined]);
    await world.settled();
    expect(world.ran).toEqual([
      {
        kind: 'split',
        payload: {
          team_id: TEAM,
          user_id: 'U0ANN',
          channel_id: 'C0001',
          text: '40 lunch <@U0BOB>',
          response_url: 'https://hooks.slack.test/commands/T0001/1/abc',
        },
      },
    ]);
    expect(world.calls).toEqual([]);
  });

  it('acks a repeated delivery (same trigger id) and keeps nothing more', async () => {
    await send('40 lunch', '9.9.9');
    await world.settled();
    const again = await send('40 lunch', '9.9.9');
    await world.settled();
    expect(again.acks).toEqual([undefined]);
    expect(world.ran).toHaveLength(1);
    expect(world.logger.lines).toContain('info /split: repeated delivery of trigger 9.9.9 ignored');
  });

  it('refuses a text longer than a command in the ack, before reading or keeping it', async () => {
    const rec = await send(`40 lunch ${'<@U0BOB> '.repeat(500)}`);
    expect(rec.acks).toEqual([
      {
        response_type: 'ephemeral',
        text: 'That is 4,509 characters: /split reads at most 4,000. Shorten it to the amount, the people and a short description.',
      },
    ]);
    await world.settled();
    expect(world.ran).toEqual([]);
  });

  it('tells the person at once, in the ack, when the store cannot keep the command', async () => {
    await world.store.close();
    const rec = await send('40 lunch');
    expect(rec.acks).toEqual([
      {
        response_type: 'ephemeral',
        text: "I couldn't take that command just now: my storage isn't answering. Nothing was booked. Try again in a minute.",
      },
    ]);
    expect(world.ran).toEqual([]);
  });

  it('opens the expense form for an empty /split, after the ack, and asks to connect first', async () => {
    const rec = await send('  ', '7.7.7');
    expect(rec.acks).toEqual([undefined]);
    await world.settled();
    // The person's profile first, for the language the form opens in.
    expect(world.calls.map((c) => c.method)).toEqual(['users.info', 'views.open', 'views.update']);
    expect(world.calls[1]!.args.trigger_id).toBe('7.7.7');
    const filled = world.calls[2]!.args as { view_id: string; view: unknown };
    expect(filled.view_id).toBe('V0FORM');
    expect(JSON.stringify(filled.view)).toContain('connect your Splitwise account first');
    expect(JSON.stringify(filled.view)).toContain('https://split.test/oauth/start?state=');
    expect(world.ran).toEqual([]);
  });
});
