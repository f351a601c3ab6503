// Links to the service unfolding on the page: Ada, connected, pastes a link to an expense she
// booked and everyone in the channel sees what it was, who paid and who owes whom; Grace, not
// connected, pastes the same link and only she is asked, privately, to connect.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  expenseNumber,
  type Flows,
  lastMessage,
  link,
  messages,
  open,
  send,
  startFlows,
} from './harness.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let flows: Flows;

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  await link(flows, 'Ada');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

describe.skipIf(!chromiumPath)('a link to an expense, pasted in a channel', () => {
  let url = '';

  it('unfolds under the message, for everyone in the channel', async () => {
    const { page } = flows;
    await actAs(page, 'Ada');
    await open(page, '#lunch');
    await send(page, '/split 36 pizza night @Grace');
    const booked = lastMessage(page, /expense #\d+/).filter({ hasText: 'pizza night' });
    await booked.waitFor();
    url = `https://secure.splitwise.com/expenses/${await expenseNumber(booked)}`;

    await send(page, `Here is the pizza: ${url}`);
    const preview = lastMessage(page, 'Here is the pizza').getByRole('region', {
      name: `Preview of ${url}`,
    });
    await preview.waitFor();
    const text = await preview.innerText();
    expect(text).toContain('pizza night');
    expect(text).toContain('$36.00');
    // In the demo people's own locale (Ada writes dollars as US$).
    expect(text).toMatch(/@Grace owes @Ada\s+(US)?\$18\.00/);
    expect(await preview.getByRole('button', { name: 'Details' }).count()).toBe(1);
    expect(await preview.getByRole('button', { name: /^Open/ }).count()).toBe(1);

    // Grace, in the same channel, sees the same preview under Ada's message.
    await actAs(page, 'Grace');
    await open(page, '#lunch');
    await lastMessage(page, 'Here is the pizza')
      .getByRole('region', { name: `Preview of ${url}` })
      .waitFor();
  });

  it('asks Grace alone to connect when she pastes it, and shows nothing of it', async () => {
    const { page } = flows;
    await actAs(page, 'Grace');
    await open(page, '#lunch');
    await send(page, `Mine too? ${url}`);
    const prompt = lastMessage(page, 'Only visible to you').filter({
      hasText: 'Connect your Splitwise account',
    });
    await prompt.waitFor();
    expect(await prompt.getByRole('link', { name: 'connect now' }).count()).toBe(1);
    const mine = lastMessage(page, 'Mine too?');
    expect(await mine.getByRole('region').count()).toBe(0);

    // Ada sees Grace's message, bare: no preview, no prompt.
    await actAs(page, 'Ada');
    await open(page, '#lunch');
    await lastMessage(page, 'Mine too?').waitFor();
    expect(await lastMessage(page, 'Mine too?').getByRole('region').count()).toBe(0);
    expect(await messages(page).filter({ hasText: 'Connect your Splitwise account' }).count()).toBe(
      0,
    );
  });
});
