/**
 * Picking a group in the expense form end to end: a group with a default split refills who shares
 * it and how (views.update with the view's hash), both steps book it by the default (the shares
 * read back from the emulator); a group without one, or "None", sends no update; someone who left
 * the group is left out and named; an update from a stale view is refused by Slack.
 */

import type { Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/service/index.js';
import { ask, eventually, serviceFor } from '../../support/balance-support.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import {
  element,
  type FormFields,
  formOpened,
  formValues,
  type OpenedForm,
  stepValues,
  submit,
} from '../../support/modal-support.js';
import { viewPayload } from '../../support/slack-requests.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;
let roommates: Group;
let studio: Group;
let band: Group;

async function groupNamed(name: string): Promise<Group> {
  const found = (await serviceFor(h, ann).getGroups()).find((g) => g.name === name);
  if (!found) throw new Error(`no group ${name}`);
  return found;
}

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
  await ask(h, 'group create Roommates <@U0BOB|bob>');
  await ask(h, 'group default Roommates me 60% <@U0BOB|bob> 40%');
  await ask(h, 'group create Studio <@U0CHO|cho>');
  await ask(h, 'group create Band <@U0BOB|bob> <@U0CHO|cho>');
  await ask(h, 'group default Band me 2x <@U0BOB|bob> 1x <@U0CHO|cho> 1x');
  roommates = await groupNamed('Roommates');
  studio = await groupNamed('Studio');
  band = await groupNamed('Band');
  const removed = await serviceFor(h, ann).removeUserFromGroup(cho.serviceId, band.id);
  expect(removed.success).toBe(true);
});
afterAll(() => h?.close());

async function openForm(): Promise<OpenedForm> {
  const since = h.slack.now();
  await h.sender.command({ text: '' });
  const form = await formOpened(h, since);
  expect(element(form.view, 'form_group')).toBeDefined();
  return form;
}

/** The form as a person filled it in so far (no group in it yet). */
const typed: FormFields = {
  amount: '1000',
  currency: 'EUR',
  description: 'rent',
  participants: ['U0ANN'],
  payer: 'U0ANN',
};

/** Picks a group in the form as Slack sends it: the view as it is now, with its state. */
async function pick(
  form: OpenedForm,
  group: Group | null,
  o: { hash?: string; fields?: FormFields } = {},
): Promise<number> {
  const stored = h.slack.view(form.viewId);
  if (!stored) throw new Error('the form is gone');
  const since = h.slack.calls.length;
  const value = group ? String(group.id) : '0';
  const sent = await h.sender.blockActions({
    actions: {
      type: 'static_select',
      action_id: 'form_group',
      block_id: 'form_group',
      selected_option: { text: { type: 'plain_text', text: group?.name ?? 'None' }, value },
    },
    view: viewPayload({
      id: form.viewId,
      callback_id: 'expense_form',
      private_metadata: stored.private_metadata,
      blocks: stored.view.blocks as unknown[],
      hash: o.hash ?? stored.hash,
      values: formValues({ ...typed, ...o.fields, group: value }),
    }),
  });
  expect(sent.status).toBe(200);
  return since;
}

/** Calls of the form's views.update made after the first `since` calls of all. */
function updatesSince(viewId: string, since: number): RecordedCall[] {
  return h.slack.calls
    .slice(since)
    .filter((c) => c.method === 'views.update' && c.args.view_id === viewId);
}

async function updatedSince(viewId: string, since: number): Promise<RecordedCall> {
  let found: RecordedCall | undefined;
  await eventually(() => {
    found = updatesSince(viewId, since)[0];
    expect(found).toBeDefined();
  });
  return found!;
}

function blockOf(view: Loose, id: string): Loose | undefined {
  return (view.blocks as Loose[]).find((b) => b.block_id === id);
}

/** The owed shares of the one expense with this description, by service user id. */
async function owedOf(group: Group, description: string): Promise<Map<number, number>> {
  const all = await serviceFor(h, ann).getExpenses({ group_id: group.id, limit: 0 });
  const found = all.filter((e) => e.description === description && !e.deleted_at);
  expect(found).toHaveLength(1);
  return new Map(found[0]!.users.map((u) => [u.user_id, Number(u.owed_share)]));
}

describe('picking a group in the expense form', () => {
  it("fills in the group's default, and both steps book by it", async () => {
    const form = await openForm();
    const before = h.slack.view(form.viewId)!.hash;
    const since = await pick(form, roommates);
    const update = await updatedSince(form.viewId, since);
    expect(update.status).toBe(200);
    expect(update.response.ok).toBe(true);
    expect(update.args.hash).toBe(before);
    const view = update.args.view as Loose;
    expect(viewErrors(view)).toEqual([]);
    expect(blockOf(view, 'form_default_note')?.elements[0].text).toBe(
      'Filled in from the default split of Roommates: 60/40.',
    );
    expect(blockOf(view, 'form_participants~1')?.element.initial_users).toEqual(['U0ANN', 'U0BOB']);
    expect(blockOf(view, 'form_split~1')?.element.initial_option.value).toBe('percent');
    expect(blockOf(view, 'form_participants')).toBeUndefined();
    // The fields the person typed in keep their block_ids, so Slack keeps what they typed.
    expect(blockOf(view, 'form_amount')).toBeDefined();
    expect(blockOf(view, 'form_description')).toBeDefined();

    const values = formValues({
      ...typed,
      date: element(form.view, 'form_date').initial_date,
      group: String(roommates.id),
    });
    delete values.form_participants;
    delete values.form_split;
    values['form_participants~1'] = {
      form_participants: { type: 'multi_users_select', selected_users: ['U0ANN', 'U0BOB'] },
    };
    values['form_split~1'] = {
      form_split: {
        type: 'radio_buttons',
        selected_option: { text: { type: 'plain_text', text: 'Percentages' }, value: 'percent' },
      },
    };
    const ack = await submit(h, { viewId: form.viewId, meta: form.meta, values });
    expect(ack.response_action).toBe('push');
    const inputs = ack.view.blocks.filter((b: Loose) => b.type === 'input');
    expect(inputs.map((b: Loose) => b.element.initial_value)).toEqual(['60', '40']);
    const done = await submit(h, {
      viewId: 'V0FORMDEFSTEP',
      callback_id: 'expense_form_split',
      meta: ack.view.private_metadata,
      root_view_id: form.viewId,
      values: stepValues(['60', '40']),
    });
    expect(done).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    await eventually(async () => {
      const owed = await owedOf(roommates, 'rent');
      expect(owed.get(ann.serviceId)).toBe(600);
      expect(owed.get(bob.serviceId)).toBe(400);
    });
  });

  it('sends no update for a group without a default, or for None', async () => {
    const form = await openForm();
    const since = await pick(form, studio, { fields: { participants: ['U0ANN', 'U0CHO'] } });
    await pick(form, null);
    // A group with a default picked last: its update is the only one since.
    await pick(form, roommates);
    await updatedSince(form.viewId, since);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const updates = updatesSince(form.viewId, since);
    expect(updates).toHaveLength(1);
    expect(blockOf(updates[0]!.args.view as Loose, 'form_default_note')).toBeDefined();
  });

  it('leaves out and names someone who has left the group since the default was saved', async () => {
    const form = await openForm();
    const since = await pick(form, band);
    const view = (await updatedSince(form.viewId, since)).args.view as Loose;
    expect(blockOf(view, 'form_default_note')?.elements[0].text).toBe(
      'Filled in from the default split of Band: 2:1:1 shares. <@U0CHO> left Band since, so I left them out: check the parts in the next step.',
    );
    expect(blockOf(view, 'form_participants~1')?.element.initial_users).toEqual(['U0ANN', 'U0BOB']);
    expect(blockOf(view, 'form_split~1')?.element.initial_option.value).toBe('shares');
  });

  it('refills again under the next block_ids, and a pick from a stale view is refused', async () => {
    const form = await openForm();
    const first = await pick(form, roommates);
    const stale = (await updatedSince(form.viewId, first)).args.hash as string;
    const second = await pick(form, band);
    const again = await updatedSince(form.viewId, second);
    expect(again.response.ok).toBe(true);
    expect(blockOf(again.args.view as Loose, 'form_participants~2')).toBeDefined();
    expect(blockOf(again.args.view as Loose, 'form_split~2')).toBeDefined();
    // Sent from the view as it was before the first update: Slack refuses the hash.
    const late = await pick(form, roommates, { hash: stale });
    const refused = await updatedSince(form.viewId, late);
    expect(refused.response).toMatchObject({ ok: false, error: 'hash_conflict' });
  });
});

describe('the form opened in a channel bound to a group with a default', () => {
  const FLAT = 'C0FLAT';
  beforeAll(async () => {
    h.slack.addChannel({ id: FLAT, name: 'flat', botIsMember: true });
    await h.app.deps.bindings.set(
      { team_id: 'T0001', channel_id: FLAT },
      { group_id: roommates.id, group_name: 'Roommates', bound_at: new Date().toISOString() },
    );
  });

  /** Who shares it, how, and the note, as the form opened by `how` in the channel starts. */
  async function started(how: () => Promise<unknown>) {
    const since = h.slack.now();
    await how();
    const { view } = await formOpened(h, since);
    const people = (view.blocks as Loose[]).find((b) =>
      String(b.block_id).startsWith('form_participants'),
    );
    const split = (view.blocks as Loose[]).find((b) => String(b.block_id).startsWith('form_split'));
    return {
      people: people?.element.initial_users,
      split: split?.element.initial_option?.value,
      note: blockOf(view, 'form_default_note')?.elements[0].text,
      group: element(view, 'form_group')?.initial_option?.value,
    };
  }

  const byDefault = {
    people: ['U0ANN', 'U0BOB'],
    split: 'percent',
    note: 'Filled in from the default split of Roommates: 60/40.',
  };

  it('starts from the default for /split alone', async () => {
    const form = await started(() => h.sender.command({ text: '', channel_id: FLAT }));
    expect(form).toEqual({ ...byDefault, group: String(roommates.id) });
  });

  it('starts "Split this" on a message naming nobody from the default, as /split does', async () => {
    const form = await started(() =>
      h.sender.messageShortcut({
        channel_id: FLAT,
        message: { text: 'Rent for May 1000', user: 'U0ANN', ts: '1700000500.000100' },
      }),
    );
    expect(form).toEqual({ ...byDefault, group: String(roommates.id) });
  });

  it('keeps the people a message names, as /split keeps the people typed', async () => {
    const form = await started(() =>
      h.sender.messageShortcut({
        channel_id: FLAT,
        message: { text: 'Plants 30 with <@U0CHO>', user: 'U0ANN', ts: '1700000600.000100' },
      }),
    );
    expect(form).toEqual({
      people: ['U0ANN', 'U0CHO'],
      split: 'equal',
      note: undefined,
      group: String(roommates.id),
    });
  });
});
