/**
 * A command typed before linking is kept once the linking page says it will be carried out: the
 * app is killed with SIGKILL after that page and before the command ran, and started again on
 * the same store; the command is booked exactly once and answered where it was typed.
 */

import { call, control, createUser, type Loose } from '@split/service-emulator/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRASH_OPTIONS, crashSuite, SLOW_CREATE_MS } from '../../support/crash-suite.js';
import { type AppChild, type CrashWorld, eventually } from '../../support/crash-support.js';
import {
  connectButtonUrl,
  consentDance,
  type LinkingWorld,
  PUBLIC_URL,
} from '../../support/harness.js';

const suite = crashSuite();
const start = suite.start;
let world: CrashWorld;
beforeAll(() => {
  world = suite.world();
});

/** A browser's view of the world, with the app's public URL pointing at this child. */
function browserFor(app: AppChild, slackIdByEmail: Map<string, string>): LinkingWorld {
  const base = app.eventsUrl.replace(/\/slack\/events$/, '');
  return {
    emu: world.emu,
    slack: world.slack,
    local: (url) => url.replace(PUBLIC_URL, base),
    slackIdFor: (email) => slackIdByEmail.get(email),
  };
}

describe('a command typed before linking, across a crash', () => {
  it('is booked once by the restarted app when the first was killed after the page', async () => {
    const email = `nia.${Date.now().toString(36)}@example.com`;
    world.slack.addUser({ id: 'U0NIA', name: 'nia', real_name: 'Nia Vale', email });
    const nia = await createUser(world.emu.url, { email, first_name: 'Nia', last_name: 'Vale' });

    // One job at a time: a slow booking of Ann's holds it, so Nia's command waits in the queue.
    const first = await start({ work: { maxRunning: 1 } });
    const typed = await world.command(first, '40 kept lunch <@U0BOB>', undefined, 'U0NIA');
    expect(typed.status).toBe(200);
    await eventually(() => world.answers(typed).length > 0, 10_000, 'the Connect prompt');
    const prompt = world.answers(typed)[0]!.body as Loose;
    const url = connectButtonUrl(prompt.blocks);

    await control(world.emu.url, 'POST', 'faults', {
      path: '/api/v3.0/create_expense',
      latency_ms: SLOW_CREATE_MS,
      times: 1,
    });
    const blocker = await world.command(first, '12 link blocker <@U0BOB>');
    expect(blocker.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const browser = browserFor(first, new Map([[email, 'U0NIA']]));
    const done = await consentDance(browser, url, { email });
    expect(done.page.status).toBe(200);
    expect(done.page.body).toContain('Connected as Nia Vale');
    await first.kill();

    const booked = () =>
      world.answers(typed).filter((p) => (p.body as Loose).response_type === 'in_channel');
    const niaExpenses = async () =>
      (
        (await call(world.emu.url, nia.api_key, 'GET', 'get_expenses')).body.expenses as Loose[]
      ).filter((e) => !e.deleted_at && e.description === 'kept lunch');
    // Killed before the command ran (else this test would prove nothing).
    expect(booked()).toEqual([]);
    expect(await niaExpenses()).toEqual([]);

    await start();
    await eventually(() => booked().length > 0, 30_000, 'the kept command to be answered');
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect(await niaExpenses()).toHaveLength(1);
    expect(booked()).toHaveLength(1);
    expect((booked()[0]!.body as Loose).text).toContain('<@U0BOB> owes');
  }, 90_000);
});
