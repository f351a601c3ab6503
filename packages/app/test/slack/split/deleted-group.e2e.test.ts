/**
 * A `/split` whose group was deleted meanwhile: deleted from another channel, on the service
 * itself, or after the caller's groups were cached. The channel's binding (or the caller's
 * default group) is forgotten and the person is told; nothing is booked. A group the caller is
 * merely not in keeps its binding.
 */

import { call } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, button, click, serviceFor, textOf } from '../../support/balance-support.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
const TEAM = 'T0001';

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  await h.link({ slackId: 'U0DAN', first_name: 'Dan' });
  await h.link({ slackId: 'U0EVA', first_name: 'Eva', locale: 'de-DE' });
  for (const id of ['C0A', 'C0B', 'C0C', 'C0D', 'C0E', 'C0F'])
    h.slack.addChannel({ id, name: id.toLowerCase(), botIsMember: true });
});
afterAll(() => h?.close());

const creates = async () => (await h.serviceCounts())['POST /api/v3.0/create_expense'] ?? 0;
/** Expenses `person` can see with this description. */
const booked = async (person: LinkedPerson, description: string) =>
  (await serviceFor(h, person).getExpenses({ limit: 0 })).filter(
    (e) => e.description === description,
  );
const bindingOf = (channel_id: string) => h.app.deps.bindings.get({ team_id: TEAM, channel_id });

async function groupNamed(name: string, channels: string[]): Promise<number> {
  await ask(h, `group create ${name} <@U0BOB>`, 'U0ANN', channels[0]);
  for (const channel of channels) await ask(h, `group use ${name}`, 'U0ANN', channel);
  const group = (await serviceFor(h, ann).getGroups()).find((g) => g.name === name);
  return group!.id;
}

describe('a /split into a group that was deleted', () => {
  it('deleted from another channel: unbinds this one, says so, and books nothing', async () => {
    await groupNamed('Flat', ['C0A', 'C0B']);
    const confirm = await ask(h, 'group delete Flat', 'U0ANN', 'C0A');
    await (
      await click(h, confirm, button(confirm.blocks, 'group_delete'), 'U0ANN', 'C0A')
    ).answer();
    expect(await bindingOf('C0A')).toBeUndefined();
    expect((await bindingOf('C0B'))?.group_name).toBe('Flat');

    const before = await creates();
    const answer = await h.split('30 pizza', { user_id: 'U0ANN', channel_id: 'C0B' });
    expect(answer.answer.body.response_type).toBe('ephemeral');
    expect(textOf(answer.answer.body)).toContain(
      'The group "Flat" that this channel\'s expenses went to has been deleted, so expenses here no longer go to a group. Nothing was booked.',
    );
    expect(await creates()).toBe(before);
    expect(await bindingOf('C0B')).toBeUndefined();

    const again = await h.split('30 pizza <@U0BOB>', { user_id: 'U0ANN', channel_id: 'C0B' });
    expect(again.answer.body.response_type).toBe('in_channel');
    expect(await creates()).toBe(before + 1);
  });

  it('deleted after the caller’s groups were cached: the refused create is explained the same way', async () => {
    const id = await groupNamed('Trip', ['C0C']);
    // Bob books there once, which caches his groups (Trip among them).
    const first = await h.split('12 taxi <@U0ANN>', { user_id: 'U0BOB', channel_id: 'C0C' });
    expect(first.answer.body.response_type).toBe('in_channel');
    // Ann deletes the group on the service itself, not through Slack.
    const deleted = await call(h.emu.url, ann.apiKey, 'POST', `delete_group/${id}`);
    expect(deleted.body.success).toBe(true);

    const before = await creates();
    const answer = await h.split('12 taxi <@U0ANN>', { user_id: 'U0BOB', channel_id: 'C0C' });
    expect(textOf(answer.answer.body)).toContain(
      'The group "Trip" that this channel\'s expenses went to has been deleted',
    );
    expect(await creates()).toBe(before + 1);
    expect(await bindingOf('C0C')).toBeUndefined();
    expect(await booked(bob, 'taxi')).toHaveLength(1);
  });

  it('the caller’s default group: clears it and says so', async () => {
    await ask(h, 'group create Chalet <@U0BOB>', 'U0ANN', 'C0D');
    const chalet = (await serviceFor(h, ann).getGroups()).find((g) => g.name === 'Chalet')!;
    const annKey = { team_id: TEAM, user_id: 'U0ANN' };
    await h.app.deps.preferences.setDefaultGroup(annKey, chalet);
    await call(h.emu.url, ann.apiKey, 'POST', `delete_group/${chalet.id}`);

    // Ann's groups were cached with Chalet in them: the create is tried, and refused.
    const answer = await h.split('8 snacks', { user_id: 'U0ANN', channel_id: 'C0D' });
    expect(textOf(answer.answer.body)).toContain(
      'Your default group "Chalet" has been deleted, so I\'ve cleared it',
    );
    expect(await booked(ann, 'snacks')).toEqual([]);
    expect((await h.app.deps.preferences.get(annKey)).default_group).toBeNull();
  });

  it('a group the caller is not in keeps its binding', async () => {
    await groupNamed('Band', ['C0E']);
    const before = await creates();
    const answer = await h.split('9 strings <@U0ANN>', { user_id: 'U0DAN', channel_id: 'C0E' });
    expect(textOf(answer.answer.body)).toContain(
      'Expenses in this channel go to the group "Band", which your account can\'t see.',
    );
    expect(await creates()).toBe(before);
    expect((await bindingOf('C0E'))?.group_name).toBe('Band');
  });

  it.each([
    ['U0DAN', '9 strings <@U0ANN>', 'no group', 'For example: '],
    ['U0EVA', '7 Saiten <@U0ANN>', 'ohne Gruppe', 'Zum Beispiel: '],
  ])(
    '%s, not in the group, is offered a way out, and %s with it books outside the group',
    async (user, typed, none, forExample) => {
      await groupNamed('Choir', ['C0F']);
      const before = await creates();
      const refused = await h.split(typed, { user_id: user, channel_id: 'C0F' });
      const text = textOf(refused.answer.body);
      expect(refused.answer.body.response_type).toBe('ephemeral');
      // Not "mention the people instead", which is what was typed: the words that book it anyway.
      expect(text).toContain(none);
      expect(await creates()).toBe(before);
      const example = text.split('\n').find((line) => line.startsWith(forExample));
      expect(example).toBe(`${forExample}/split ${typed} ${none}`);
      const out = await h.split(example!.slice(forExample.length + '/split '.length), {
        user_id: user,
        channel_id: 'C0F',
      });
      expect(out.answer.body.response_type).toBe('in_channel');
      expect(await creates()).toBe(before + 1);
      const [expense] = await booked(ann, typed.split(' ')[1]!);
      expect(expense?.group_id ?? 0).toBe(0);
      expect((await bindingOf('C0F'))?.group_name).toBe('Choir');
    },
  );
});
