// The sandbox's Reset control: everything done since the demo data (messages, expenses, links)
// is gone, in the page, at the emulator and in the app.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  EmulatorReader,
  type Flows,
  lastMessage,
  link,
  messages,
  open,
  PEOPLE,
  send,
  startFlows,
  waitUntil,
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

async function descriptions(): Promise<string[]> {
  // Reset issues new API keys with the demo data, so each look connects afresh.
  const emulator = await EmulatorReader.connect(flows.sandbox.emulatorUrl);
  const { expenses } = await emulator.get<{ expenses: { description: string }[] }>(
    PEOPLE.Ada,
    'get_expenses?limit=0',
  );
  return expenses.map((e) => e.description);
}

describe.skipIf(!chromiumPath)('Reset', () => {
  it('starts over from the demo data: no new messages, expenses or links', async () => {
    const { page } = flows;
    await open(page, '#lunch');
    await send(page, '/split 12 flat whites @Grace');
    await lastMessage(page, 'flat whites').waitFor();
    expect(await descriptions()).toContain('flat whites');

    await page.getByRole('button', { name: 'Reset' }).click();
    // #lunch holds the demo's own posts again (its three receipt photos), and nothing since.
    const since = messages(page).filter({ hasText: 'flat whites' });
    await waitUntil(
      async () => (await since.count()) === 0 && (await messages(page).count()) === 3,
      'the demo #lunch',
      20_000,
    );
    expect(await descriptions()).not.toContain('flat whites');
    // The demo data is back as it was: the seeded expenses are there.
    expect(await descriptions()).toContain('Dinner at Time Out Market');

    // Ada is no longer linked: her next /split asks her to connect.
    await send(page, '/split 5 tea @Grace');
    const prompt = lastMessage(page, 'Only visible to you');
    await prompt.getByRole('button', { name: /Connect account/ }).waitFor({ timeout: 10_000 });
    expect(await descriptions()).not.toContain('tea');
  });
});
