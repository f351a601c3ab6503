/**
 * Settle up listeners called directly, on the paths that need no expense service: a person not
 * connected yet (on a balance message: a Connect prompt; in the Home tab: the tab republished),
 * a damaged button, and Cancel on a DM's confirmation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleCancelled, settleUpClicked } from '../../../src/slack/balances/settle-up.js';
import { type HandlerWorld, startHandlerWorld } from '../../support/handler-world.js';
import { type ButtonArgs, buttonArgs } from '../../support/listener-args.js';

let world: HandlerWorld;
beforeEach(async () => {
  world = await startHandlerWorld();
});
afterEach(() => world.close());

const REF = { k: 'f', id: 7, c: 'EUR', a: 3000, p: 0, v: 'a', n: 'Bob' };

/** A click on Settle up as Ann, on a balance message or (`home`) in her Home tab. */
async function click(
  handler: (args: ButtonArgs) => Promise<void>,
  value: string,
  where: { home?: boolean; ts?: string } = {},
) {
  const { args, rec } = buttonArgs(world, { action_id: 'balance_settle_up', value, where });
  await handler(args);
  return rec;
}

describe('Settle up', () => {
  it('asks a person who is not connected to connect, privately, and can be pressed again', async () => {
    const first = await click(settleUpClicked(world.deps), JSON.stringify(REF));
    expect(first.acks).toEqual([undefined]);
    expect(first.responses).toHaveLength(1);
    const prompt = first.responses[0]!;
    expect(prompt).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(prompt.text)).toMatch(/Open: https:\/\/split\.test\/oauth\/start\?state=\S+$/);
    // The click was not taken as done: the same button works again once connected.
    const again = await click(settleUpClicked(world.deps), JSON.stringify(REF));
    expect(again.responses).toHaveLength(1);
    // Slack was asked once who Ann is (her language); the directory remembers.
    expect(world.calls.map((c) => c.method)).toEqual(['users.info']);
  });

  it('republishes the Home tab with Connect when pressed there by a person not connected', async () => {
    const rec = await click(settleUpClicked(world.deps), JSON.stringify(REF), { home: true });
    expect(rec.acks).toEqual([undefined]);
    expect(rec.responses).toEqual([]);
    // The person's profile first, for the language the tab is written in.
    expect(world.calls.map((c) => c.method)).toEqual(['users.info', 'views.publish']);
    const { user_id, view } = world.calls[1]!.args as { user_id: string; view: { type: string } };
    expect(user_id).toBe('U0ANN');
    expect(view.type).toBe('home');
    expect(JSON.stringify(view)).toContain('Connect account');
  });

  it('says a damaged button is damaged, and records nothing', async () => {
    const rec = await click(settleUpClicked(world.deps), '{"k":');
    expect(rec.acks).toEqual([undefined]);
    expect(rec.responses).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: false,
        text: "This Settle up button is damaged, so I can't tell which debt it meant. Nothing was recorded.",
        blocks: expect.any(Array),
      },
    ]);
    expect(world.logger.lines).toContain('warn settle up: a button value that does not parse');
  });

  it('takes the confirmation away on Cancel', async () => {
    const rec = await click(settleCancelled, JSON.stringify(REF));
    expect(rec.acks).toEqual([undefined]);
    expect(rec.responses).toEqual([{ delete_original: true }]);
  });
});
