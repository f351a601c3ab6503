/**
 * A group's default split end to end: saved with `/split group default` (in a bound channel and by
 * name), shown, used by a `/split` that names nobody (the shares read back from the emulator),
 * not used when people are named, refused for someone outside the group, noticed when someone
 * has left the group since, and cleared.
 */

import type { Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/service/index.js';
import { ask, eventually, serviceFor, textOf } from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import {
  element,
  formOpened,
  formValues,
  stepValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;
let roommates: Group;
const FLAT = 'C0FLAT';

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    default_currency: 'EUR',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim' });
  h.slack.addChannel({ id: FLAT, name: 'flat', botIsMember: true });
  await ask(h, 'group create Roommates <@U0BOB|bob>');
  await ask(h, 'group use Roommates', 'U0ANN', FLAT);
  roommates = (await serviceFor(h, ann).getGroups()).find((g) => g.name === 'Roommates')!;
});
afterAll(() => h?.close());

/** Each person's owed share of the newest expense with this description, by service id. */
async function owedOf(description: string): Promise<Map<number, number>> {
  const all = await serviceFor(h, ann).getExpenses({ group_id: roommates.id, limit: 0 });
  const found = all.filter((e) => e.description === description && !e.deleted_at);
  expect(found).toHaveLength(1);
  return new Map(found[0]!.users.map((u) => [u.user_id, Number(u.owed_share)]));
}

describe('a default split', () => {
  it('says there is none yet', async () => {
    expect(textOf(await ask(h, 'group default', 'U0ANN', FLAT))).toContain(
      '*Roommates* has no default split',
    );
  });

  it('is saved in a bound channel, told to the channel, and shown', async () => {
    const saved = await ask(h, 'group default me 60% <@U0BOB|bob> 40%', 'U0ANN', FLAT);
    expect(saved.ephemeralFor).toBeUndefined();
    expect(textOf(saved)).toContain(
      '<@U0ANN> set the default split of *Roommates* to 60/40: <@U0ANN> 60%, <@U0BOB> 40%.',
    );
    expect(blockKitErrors(saved.blocks, 'message')).toEqual([]);
    const shown = await ask(h, 'group default Roommates');
    expect(textOf(shown)).toContain(
      '*Roommates* splits by default 60/40: <@U0ANN> 60%, <@U0BOB> 40%.',
    );
  });

  it('is used by a /split in the bound channel that names nobody', async () => {
    const answer = await ask(h, '1200 rent', 'U0ANN', FLAT);
    expect(textOf(answer)).toContain('Split by the default of *Roommates* (60/40).');
    expect(blockKitErrors(answer.blocks, 'message')).toEqual([]);
    const owed = await owedOf('rent');
    expect(owed.get(ann.serviceId)).toBe(720);
    expect(owed.get(bob.serviceId)).toBe(480);
  });

  it('is used with "in <group>" anywhere, and not when people are named', async () => {
    const named = await ask(h, '100 power in Roommates');
    expect(textOf(named)).toContain('Split by the default of *Roommates* (60/40).');
    expect((await owedOf('power')).get(bob.serviceId)).toBe(40);
    const equal = await ask(h, '30 pizza <@U0BOB|bob>', 'U0ANN', FLAT);
    expect(textOf(equal)).not.toContain('default');
    expect((await owedOf('pizza')).get(bob.serviceId)).toBe(15);
  });

  it('refuses someone who is not in the group, and keeps the saved one', async () => {
    const refused = await ask(h, 'group default Roommates me 50% <@U0CHO|cho> 50%');
    expect(refused.ephemeralFor).toBe('U0ANN');
    expect(textOf(refused)).toContain('<@U0CHO> is not in *Roommates*');
    expect(textOf(await ask(h, 'group default Roommates'))).toContain('splits by default 60/40');
  });

  it('refuses amounts with an example that works', async () => {
    const refused = await ask(h, 'group default Roommates me 600 <@U0BOB|bob> 400');
    expect(textOf(refused)).toContain('A default split is in percentages (60%) or shares (2x)');
    // The example names Bob, whom the command mentioned.
    expect(textOf(refused)).toContain('/split group default Roommates me 60% <@U0BOB> 40%');
  });

  it('needs a group when the channel has none', async () => {
    const refused = await ask(h, 'group default me 50% <@U0BOB|bob> 50%');
    expect(textOf(refused)).toContain('Which group? Name it');
  });

  it('tells, and books nothing, when someone in it has left the group', async () => {
    await ask(h, 'group create Studio <@U0CHO|cho>');
    await ask(h, 'group default Studio me 50% <@U0CHO|cho> 50%');
    const studio = (await serviceFor(h, ann).getGroups()).find((g) => g.name === 'Studio')!;
    const removed = await serviceFor(h, ann).removeUserFromGroup(cho.serviceId, studio.id);
    expect(removed.success).toBe(true);
    const answer = await ask(h, '500 deposit in Studio');
    expect(answer.ephemeralFor).toBe('U0ANN');
    expect(textOf(answer)).toContain(
      '<@U0CHO> is in the default split of *Studio* but no longer in the group',
    );
    const all = await serviceFor(h, ann).getExpenses({ group_id: studio.id, limit: 0 });
    expect(all.filter((e) => e.description === 'deposit')).toEqual([]);
  });

  it('fills in the form opened in the bound channel, and its second step', async () => {
    const since = h.slack.now();
    await h.sender.command({ text: '', channel_id: FLAT });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_participants').initial_users).toEqual(['U0ANN', 'U0BOB']);
    expect(element(form.view, 'form_split').initial_option.value).toBe('percent');
    expect(JSON.stringify(form.view)).toContain(
      'Filled in from the default split of Roommates: 60/40.',
    );
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '1000',
        currency: 'EUR',
        description: 'heating',
        date: element(form.view, 'form_date').initial_date,
        group: String(roommates.id),
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        split: 'percent',
      }),
    });
    expect(ack.response_action).toBe('push');
    const inputs = ack.view.blocks.filter((b: Loose) => b.type === 'input');
    expect(inputs.map((b: Loose) => b.element.initial_value)).toEqual(['60', '40']);
    const done = await submit(h, {
      viewId: 'V0DEFAULTSTEP',
      callback_id: 'expense_form_split',
      meta: ack.view.private_metadata,
      root_view_id: form.viewId,
      values: stepValues(['60', '40']),
    });
    expect(done).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    await eventually(async () => expect((await owedOf('heating')).get(bob.serviceId)).toBe(400));
  });

  it('is cleared, after which a /split naming nobody splits equally', async () => {
    const cleared = await ask(h, 'group default clear', 'U0ANN', FLAT);
    expect(textOf(cleared)).toContain(
      '<@U0ANN> cleared the default split and currency of *Roommates*.',
    );
    const answer = await ask(h, '90 water', 'U0ANN', FLAT);
    expect(textOf(answer)).not.toContain('default');
    expect((await owedOf('water')).get(bob.serviceId)).toBe(45);
  });
});
