/**
 * Acknowledged means kept: the app is killed with SIGKILL while commands are in flight and
 * started again on the same store; every command Slack got a 200 for is booked exactly once and
 * answered, and a command Slack delivers again to the restarted app is not booked a second time.
 */

import { control, type Loose } from '@split/service-emulator/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRASH_OPTIONS, crashSuite, slowNextCreate } from '../../support/crash-suite.js';
import { type CrashWorld, eventually } from '../../support/crash-support.js';

const suite = crashSuite();
const start = suite.start;
let world: CrashWorld;
beforeAll(() => {
  world = suite.world();
});

function bookedAnswers(posts: { body: unknown }[]): number {
  return posts.filter((p) => (p.body as Loose).response_type === 'in_channel').length;
}

describe('a crash of the app', () => {
  it('loses no acknowledged command: each is booked once and answered after a restart', async () => {
    const first = await start();
    // Each create takes a while, so that the kill finds bookings in flight.
    await control(world.emu.url, 'POST', 'faults', {
      path: '/api/v3.0/create_expense',
      latency_ms: 400,
    });
    const names = Array.from(
      { length: 20 },
      (_, i) => `crash lunch ${'abcdefghijklmnopqrst'[i]!.repeat(3)}`,
    );
    const sent = await Promise.all(
      names.map((name) => world.command(first, `12 ${name} <@U0BOB>`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.kill();
    const acked = sent.filter((s) => s.status === 200);
    expect(acked.length).toBe(20);
    const answeredBeforeRestart = acked.filter((s) => world.answers(s).length > 0).length;

    await start();
    await eventually(
      () => acked.every((s) => bookedAnswers(world.answers(s)) >= 1),
      30_000,
      'every acknowledged command to be answered',
    );
    await control(world.emu.url, 'DELETE', 'faults');
    // Past every horizon: nothing still on its way can add a second expense after this.
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    const expenses = await world.expenses();
    for (const s of acked) {
      expect(expenses.get(s.text.replace(/^12 (.*) <@U0BOB>$/, '$1')), s.text).toBe(1);
      expect(bookedAnswers(world.answers(s)), s.text).toBe(1);
    }
    // The kill did catch work in flight (else this test would prove nothing).
    expect(answeredBeforeRestart).toBeLessThan(acked.length);
  }, 90_000);

  it('books a command Slack delivers again to the restarted app once, and answers it', async () => {
    const first = await start();
    const killWhenSent = await slowNextCreate(world);
    const sent = await world.command(first, '31 redelivered dinner <@U0BOB>');
    expect(sent.status).toBe(200);
    // The create is at the service, which applies it later; the app dies meanwhile.
    await killWhenSent(first);
    expect(bookedAnswers(world.answers(sent))).toBe(0);

    const second = await start();
    const again = await world.command(second, sent.text, sent);
    expect(again.status).toBe(200);
    await eventually(
      () => bookedAnswers(world.answers(sent)) >= 1,
      30_000,
      'the command to be answered',
    );
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect((await world.expenses()).get('redelivered dinner')).toBe(1);
    expect(bookedAnswers(world.answers(sent))).toBe(1);
  }, 90_000);

  it('books a form submitted again after a restart (a double click) once, and answers it', async () => {
    const first = await start();
    const killWhenSent = await slowNextCreate(world);
    const sent = await world.submitForm(first, 'double clicked taxi');
    expect(sent.status).toBe(200);
    await killWhenSent(first);
    expect(world.formAnswers(sent.description)).toBe(0);

    const second = await start();
    expect((await world.submitForm(second, sent.description, sent)).status).toBe(200);
    await eventually(
      () => world.formAnswers(sent.description) >= 1,
      30_000,
      'the form to be answered',
    );
    await new Promise((resolve) => setTimeout(resolve, CRASH_OPTIONS.serviceSettleMs));
    expect((await world.expenses()).get(sent.description)).toBe(1);
    expect(world.formAnswers(sent.description)).toBe(1);
  }, 90_000);
});
