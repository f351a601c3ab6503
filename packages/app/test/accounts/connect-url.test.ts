/**
 * The Connect button's URL, through the app's own linking on its SQLite store: the command it
 * remembers for after linking is one the parser reads whole, so a link never holds more than
 * MAX_COMMAND_CHARS of what a person typed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_COMMAND_CHARS } from '../../src/core/command/index.js';
import { type HandlerWorld, startHandlerWorld, TEAM } from '../support/handler-world.js';

let world: HandlerWorld;
beforeEach(async () => {
  world = await startHandlerWorld();
});
afterEach(() => world.close());

const user = { team_id: TEAM, user_id: 'U0ANN' };

async function pendingOf(url: string) {
  const state = new URL(url).searchParams.get('state')!;
  const found = await world.store.linkStates.peek(state);
  if (!found.ok) throw new Error(`the link reads as ${found.reason}`);
  return found.link.pending;
}

describe('a Connect URL', () => {
  it('remembers a command up to the command cap, and none longer, nor an earlier one instead', async () => {
    const longest = `40 lunch ${'x'.repeat(MAX_COMMAND_CHARS - 9)}`;
    expect(longest).toHaveLength(MAX_COMMAND_CHARS);
    const kept = await world.deps.linking.connectUrl(user, {
      text: longest,
      channel_id: 'C0001',
      at: 1,
    });
    expect((await pendingOf(kept))?.text).toBe(longest);
    const refused = await world.deps.linking.connectUrl(user, {
      text: `${longest}x`,
      channel_id: 'C0001',
      at: 2,
    });
    expect(refused).not.toBe(kept);
    expect(await pendingOf(refused)).toBeUndefined();
  });
});
