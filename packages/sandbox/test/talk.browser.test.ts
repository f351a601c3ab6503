// Writing to the app on the page: Ada mentions it in a thread and its answer comes in that
// thread; in its Messages tab she is greeted the first time, and what she writes there is
// answered there; in German once she chooses it beside "Acting as".
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  actAs,
  type Flows,
  lastMessage,
  link,
  open,
  replyInThread,
  send,
  startFlows,
} from './harness.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

let flows: Flows;

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  // Katherine reads Slack in German.
  await actAs(flows.page, 'Katherine');
  await flows.page.getByLabel('Language').selectOption({ label: 'Deutsch (Deutschland)' });
  // The page turns German once the workspace has her choice: until then its labels are still
  // English, and the next step would look for the one that is about to change.
  await flows.page.locator('.app[lang^="de"]').waitFor();
  await link(flows, 'Ada');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

describe.skipIf(!chromiumPath)('the app, written to', () => {
  it('answers a mention in its thread', async () => {
    const { page } = flows;
    await actAs(page, 'Ada');
    await open(page, '#lunch');
    await send(page, 'Sushi at the station, who is in?');
    const thread = await replyInThread(
      flows.page,
      'Sushi at the station',
      '@Split 48 sushi @Grace',
    );
    const booked = thread.getByRole('article').filter({ hasText: /expense #\d+/ });
    await booked.waitFor();
    expect(await booked.innerText()).toContain('sushi');
    expect(await booked.innerText()).toMatch(/@Grace owes @Ada\s+(US)?\$24\.00/);
    // In the thread only: the channel shows the question and its replies' count.
    expect(
      await lastMessage(page, /expense #\d+/)
        .filter({ hasText: 'sushi' })
        .count(),
    ).toBe(0);
  });

  it('greets in the Messages tab the first time, and answers what is written there', async () => {
    const { page } = flows;
    await actAs(page, 'Ada');
    await open(page, 'Split');
    const messagesTab = page.getByRole('tab', { name: 'Messages' });
    if (await messagesTab.isVisible()) await messagesTab.click();
    await lastMessage(page, 'Write to me here').waitFor();
    const greeting = await lastMessage(page, 'Write to me here').innerText();
    expect(greeting).toContain('40 lunch');
    expect(greeting).toContain('balance');
    await send(page, 'balance');
    await lastMessage(page, /owes you|you owe|settled up/i).waitFor();
  });

  it('answers a de-DE person in German, in the thread', async () => {
    const { page } = flows;
    // Katherine, in German, is not connected.
    await actAs(page, 'Katherine');
    await open(page, '#lunch');
    await send(page, 'Kaffee?');
    const thread = await replyInThread(flows.page, 'Kaffee?', '@Split 6 Kaffee @Ada');
    const prompt = thread.getByRole('article').filter({ hasText: 'Splitwise-Konto' });
    await prompt.waitFor();
    expect(await prompt.innerText()).toContain('verbinde zuerst dein Splitwise-Konto');
    expect(await prompt.getByRole('button', { name: /Konto verbinden/ }).count()).toBe(1);
    // Only she sees it.
    await actAs(page, 'Ada');
    await open(page, '#lunch');
    expect(await lastMessage(page, 'Splitwise-Konto').count()).toBe(0);
  });
});
