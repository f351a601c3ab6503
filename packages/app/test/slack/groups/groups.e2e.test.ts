/**
 * The group commands end to end: create with people found by link or invited by e-mail, add,
 * list, names matched case-insensitively (ambiguous and unknown names answered with the list),
 * `group use` binding a channel so that `/split 30 pizza` there books into the group, and delete
 * only after a confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, button, click, current, serviceFor, textOf } from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let dan: LinkedPerson;
const CHO_EMAIL = 'cho.groups@example.com';
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
  dan = await h.link({ slackId: 'U0DAN', first_name: 'Dan', last_name: 'Oh' });
  // Cho is in Slack only: she is invited by e-mail.
  h.addSlackUser({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim', email: CHO_EMAIL });
  h.slack.addChannel({ id: FLAT, name: 'flat', botIsMember: true });
});
afterAll(() => h?.close());

async function groupsOfAnn() {
  return (await serviceFor(h, ann).getGroups()).filter((g) => g.id !== 0);
}

describe('group commands', () => {
  it('lists no groups before there are any', async () => {
    expect(textOf(await ask(h, 'groups'))).toContain("You're in no groups yet.");
  });

  it('creates a group with a linked person and an invited one, and tells the channel', async () => {
    const message = await ask(h, 'group create Roommates <@U0BOB|bob> <@U0CHO|cho>');
    expect(message.ephemeralFor).toBeUndefined();
    expect(textOf(message)).toContain(
      '<@U0ANN> created the group *Roommates* with <@U0BOB> and <@U0CHO>.',
    );
    const [group] = await groupsOfAnn();
    expect(group?.name).toBe('Roommates');
    const members = group?.members.map((m) => m.email ?? m.id).sort();
    expect(members).toEqual([ann.email, bob.email, CHO_EMAIL].sort());
  });

  it('refuses a second group with the same name', async () => {
    expect(textOf(await ask(h, 'group create roommates'))).toContain(
      'You already have a group called "Roommates"',
    );
    expect(await groupsOfAnn()).toHaveLength(1);
  });

  it('adds someone to a group named in other case', async () => {
    const message = await ask(h, 'group add <@U0DAN> roommates');
    expect(textOf(message)).toContain('<@U0ANN> added <@U0DAN> to *Roommates*.');
    const [group] = await groupsOfAnn();
    expect(group?.members.map((m) => m.id)).toContain(dan.serviceId);
  });

  it('answers an ambiguous name and an unknown one with the groups', async () => {
    await ask(h, 'group create Ski 2025 <@U0BOB>');
    await ask(h, 'group create Ski 2026 <@U0BOB>');
    expect(textOf(await ask(h, 'group use ski'))).toContain(
      '"ski" could mean "Ski 2025" or "Ski 2026". Type more of the name.',
    );
    expect(textOf(await ask(h, 'group delete Chalet'))).toContain(
      'You have no group called "Chalet". Your groups: "Roommates", "Ski 2025", and "Ski 2026".',
    );
    expect(
      await h.app.deps.bindings.get({ team_id: 'T0001', channel_id: 'C0001' }),
    ).toBeUndefined();
  });

  it('binds a channel, after which /split there books into the whole group', async () => {
    const bound = await ask(h, 'group use Roommates', 'U0ANN', FLAT);
    expect(textOf(bound)).toContain('set the expenses of this channel to go to *Roommates*');
    const listed = await ask(h, 'groups', 'U0ANN', FLAT);
    expect(textOf(listed)).toContain(
      "*Roommates* (4 members): settled up · _this channel's expenses go to it_",
    );
    expect(blockKitErrors(listed.blocks, 'message')).toEqual([]);

    const pizza = await h.split('30 pizza', { channel_id: FLAT });
    expect(pizza.answer.status).toBe(200);
    const roommates = (await groupsOfAnn()).find((g) => g.name === 'Roommates')!;
    const inGroup = await serviceFor(h, ann).getExpenses({ group_id: roommates.id, limit: 0 });
    const [expense, ...others] = inGroup.filter((e) => e.description === 'pizza');
    expect(others).toEqual([]);
    expect(expense?.currency_code).toBe('EUR');
    expect(expense?.users.map((u) => Number(u.owed_share))).toEqual([7.5, 7.5, 7.5, 7.5]);
  });

  it('deletes a group only once the confirmed button is pressed, and unbinds the channel', async () => {
    const confirm = await ask(h, 'group delete roommates', 'U0ANN', FLAT);
    expect(confirm.ephemeralFor).toBe('U0ANN');
    const remove = button(confirm.blocks, 'group_delete');
    expect(remove.style).toBe('danger');
    expect(remove.confirm).toMatchObject({
      confirm: { text: 'Delete' },
      deny: { text: 'Keep it' },
    });
    expect((await groupsOfAnn()).map((g) => g.name)).toContain('Roommates');

    await (await click(h, confirm, remove, 'U0ANN', FLAT)).answer();
    expect(textOf(current(h, confirm, FLAT))).toContain('Deleted the group *Roommates*.');
    expect((await groupsOfAnn()).map((g) => g.name)).toEqual(['Ski 2025', 'Ski 2026']);
    expect(await h.app.deps.bindings.get({ team_id: 'T0001', channel_id: FLAT })).toBeUndefined();
  });
});
