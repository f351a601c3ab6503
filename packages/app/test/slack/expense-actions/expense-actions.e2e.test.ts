/**
 * The buttons on a booked expense, end to end: Edit (the form pre-filled; only what changed is
 * sent), Delete and its Undo, Comment, Details, and the refusals for people who are not on the
 * expense or not connected.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpenseUpdate } from '../../../src/service/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  formOpened,
  formValues,
  stepValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
const updates: ExpenseUpdate[] = [];

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  await h.link({ slackId: 'U0DAN', first_name: 'Dan' });
  h.addSlackUser({ slackId: 'U0EVE', first_name: 'Eve', email: 'eve@example.com' });
  // Records what each edit sends to the service, on top of the real client.
  const forLink = h.app.deps.service.forLink;
  h.app.deps.service.forLink = (link) => {
    const client = forLink(link);
    const update = client.updateExpense.bind(client);
    client.updateExpense = (changes) => {
      updates.push(changes);
      return update(changes);
    };
    return client;
  };
});
afterAll(() => h?.close());

interface Booked {
  id: number;
  blocks: unknown[];
  ts: string;
}

let seq = 0;
async function book(text: string): Promise<Booked> {
  const out = await h.split(text);
  const blocks = out.answer.body.blocks as unknown[];
  expect(blockKitErrors(blocks, 'message')).toEqual([]);
  seq += 1;
  return { id: expenseIdIn(blocks), blocks, ts: `1700000100.${String(seq).padStart(6, '0')}` };
}

async function expense(id: number): Promise<Loose> {
  return (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`)).body.expense;
}

/** Clicks a button of the expense message and returns the response_url's first answer. */
async function click(action_id: string, b: Booked, user_id = 'U0ANN') {
  const id = `${action_id}-${b.id}-${user_id}-${Math.random()}`;
  const since = h.slack.now();
  const response = await h.sender.blockActions({
    user_id,
    actions: { action_id, block_id: 'expense_actions', value: JSON.stringify({ v: 1, e: b.id }) },
    message: { ts: b.ts, blocks: b.blocks, text: 'expense' },
    response_url: h.slack.responseUrl({ id }),
  });
  expect(response.status).toBe(200);
  return { since, answer: () => h.slack.waitForResponse((p) => p.id === id) };
}

describe('Edit', () => {
  it('opens the form pre-filled and sends only the description when only it changed', async () => {
    const b = await book('40 lunch <@U0BOB>');
    const { since } = await click('expense_edit', b);
    const form = await formOpened(h, since);
    expect(form.view.title.text).toBe('Edit expense');
    expect(element(form.view, 'form_amount').initial_value).toBe('40.00');
    expect(element(form.view, 'form_participants').initial_users.sort()).toEqual([
      'U0ANN',
      'U0BOB',
    ]);
    const before = updates.length;
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '40.00',
        currency: 'EUR',
        description: 'Team lunch',
        date: element(form.view, 'form_date').initial_date,
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        category: element(form.view, 'form_category').initial_option?.value,
        group: '0',
      }),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    expect(updates.slice(before)).toEqual([{ id: b.id, description: 'Team lunch' }]);
    const e = await expense(b.id);
    expect(e.description).toBe('Team lunch');
    const system = e.comments.filter((c: Loose) => c.comment_type === 'System');
    expect(system.at(-1).content).toBe(
      "Ann updated this transaction:\n- Description changed from 'lunch' to 'Team lunch'",
    );
  });

  it('resends the shares when the amount changes, and not otherwise', async () => {
    const b = await book('30 taxi <@U0BOB>');
    const { since } = await click('expense_edit', b);
    const form = await formOpened(h, since);
    const before = updates.length;
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '50',
        currency: 'EUR',
        description: 'taxi',
        date: element(form.view, 'form_date').initial_date,
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        category: element(form.view, 'form_category').initial_option?.value,
      }),
    });
    await h.app.deps.work.idle();
    const sent = updates.slice(before);
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0] as object).sort()).toEqual(['cost', 'id', 'users']);
    const e = await expense(b.id);
    expect(e.cost).toBe('50.0');
    expect(e.users.map((u: Loose) => u.owed_share).sort()).toEqual(['25.0', '25.0']);
  });

  it("keeps an itemised bill's breakdown out of the notes field, and drops it once the amount changes", async () => {
    const b = await book('80 itemised dinner <@U0BOB> +tip 10%');
    const line = 'Subtotal €80.00 + tip 10% €8.00 = total €88.00';
    expect((await expense(b.id)).details).toContain(line);
    const edit = async (amount: string, description: string) => {
      const { since } = await click('expense_edit', b);
      const form = await formOpened(h, since);
      const notes = (form.view.blocks as Loose[]).find((x) => x.block_id === 'form_notes');
      expect(notes.element.initial_value).toBeUndefined();
      expect(notes.hint.text).toContain(line);
      const before = updates.length;
      const ack = await submit(h, {
        viewId: form.viewId,
        meta: form.meta,
        values: formValues({
          amount,
          currency: 'EUR',
          description,
          date: element(form.view, 'form_date').initial_date,
          participants: ['U0ANN', 'U0BOB'],
          payer: 'U0ANN',
          category: element(form.view, 'form_category').initial_option?.value,
        }),
      });
      expect(ack).toEqual({ response_action: 'clear' });
      await h.app.deps.work.idle();
      return updates.slice(before);
    };
    // The amounts stay: the breakdown stays, and the notes are not even sent.
    expect(await edit('88.00', 'Itemised dinner')).toEqual([
      { id: b.id, description: 'Itemised dinner' },
    ]);
    expect((await expense(b.id)).details).toContain(line);
    // A new amount: the breakdown no longer describes the bill.
    const sent = await edit('90', 'Itemised dinner');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ id: b.id, details: '' });
    expect((await expense(b.id)).details ?? '').not.toContain('Subtotal');
  });

  it('changes the split through the second step, pre-filled for an unequal expense', async () => {
    const b = await book('40 dinner <@U0BOB> 30');
    const { since } = await click('expense_edit', b);
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_split').initial_option.value).toBe('exact');
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '40.00',
        currency: 'EUR',
        description: 'dinner',
        date: element(form.view, 'form_date').initial_date,
        participants: ['U0BOB', 'U0ANN'],
        payer: 'U0ANN',
        split: 'exact',
        category: element(form.view, 'form_category').initial_option?.value,
      }),
    });
    expect(ack.response_action).toBe('push');
    const inputs = ack.view.blocks.filter((x: Loose) => x.type === 'input');
    expect(inputs.map((x: Loose) => x.element.initial_value)).toEqual(['30.00', '10.00']);
    const before = updates.length;
    const done = await submit(h, {
      viewId: 'V0EDITSTEP',
      callback_id: 'expense_form_split',
      meta: ack.view.private_metadata,
      root_view_id: form.viewId,
      values: stepValues(['15', '25']),
    });
    expect(done).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    expect(Object.keys(updates.slice(before)[0] as object).sort()).toEqual(['id', 'users']);
    const e = await expense(b.id);
    const owed = Object.fromEntries(e.users.map((u: Loose) => [u.user_id, u.owed_share]));
    expect(owed).toEqual({ [ann.serviceId]: '25.0', [bob.serviceId]: '15.0' });
  });

  it('tells a person who is not on the expense that they cannot change it', async () => {
    const b = await book('12 coffee <@U0BOB>');
    const { since } = await click('expense_edit', b, 'U0DAN');
    const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since);
    const viewId = (opened.response as Loose).view.id;
    const updated = await h.slack.waitForCall('views.update', (c) => c.args.view_id === viewId);
    expect(blocksText((updated.args.view as Loose).blocks)).toContain(
      'Only the people on this expense',
    );
  });
});

describe('Delete and Undo', () => {
  it('deletes for a participant, shows it deleted, and Undo restores it', async () => {
    const b = await book('20 cinema <@U0BOB>');
    const deleted = await (await click('expense_delete', b, 'U0BOB')).answer();
    expect(deleted.body.replace_original).toBe(true);
    expect(blocksText(deleted.body.blocks)).toContain('Deleted by <@U0BOB>');
    expect(blockKitErrors(deleted.body.blocks, 'message')).toEqual([]);
    expect((await expense(b.id)).deleted_at).toBeTruthy();

    const restored = await (
      await click('expense_restore', { ...b, blocks: deleted.body.blocks as unknown[] }, 'U0BOB')
    ).answer();
    expect(restored.body.replace_original).toBe(true);
    expect(JSON.stringify(restored.body.blocks)).toContain('expense_edit');
    expect(blockKitErrors(restored.body.blocks, 'message')).toEqual([]);
    expect((await expense(b.id)).deleted_at).toBeNull();
  });

  it('lets only the booker Undo: others on it are pointed to Delete, others are refused, privately', async () => {
    const b = await book('14 coffee <@U0BOB>');
    const bobs = await (await click('expense_undo', b, 'U0BOB')).answer();
    expect(bobs.body.response_type).toBe('ephemeral');
    expect(bobs.body.replace_original).toBe(false);
    expect(blocksText(bobs.body.blocks)).toContain(
      'Only the person who booked this expense can undo it',
    );
    const dans = await (await click('expense_undo', b, 'U0DAN')).answer();
    expect(dans.body.response_type).toBe('ephemeral');
    expect(blocksText(dans.body.blocks)).toContain('Only the people on this expense');
    expect((await expense(b.id)).deleted_at).toBeNull();
    // Their refused clicks held nothing up: the booker's Undo goes through.
    const anns = await (await click('expense_undo', b, 'U0ANN')).answer();
    expect(anns.body.replace_original).toBe(true);
    expect(anns.body.text).toContain('Undone by <@U0ANN>');
    expect((await expense(b.id)).deleted_at).toBeTruthy();
    // Undo asks no confirmation (a dialog everyone sees would promise Bob a delete): Restore,
    // left in its place, takes it back.
    const undone = { ...b, blocks: anns.body.blocks as unknown[] };
    const restored = await (await click('expense_restore', undone, 'U0ANN')).answer();
    expect(restored.body.replace_original).toBe(true);
    expect(JSON.stringify(restored.body.blocks)).toContain('expense_undo');
    expect((await expense(b.id)).deleted_at).toBeNull();
  });

  it('lets only whoever deleted an expense Undo the delete', async () => {
    const b = await book('16 flowers <@U0BOB>');
    const deleted = await (await click('expense_delete', b, 'U0BOB')).answer();
    const onDeleted = { ...b, blocks: deleted.body.blocks as unknown[] };
    const anns = await (await click('expense_restore', onDeleted, 'U0ANN')).answer();
    expect(anns.body.response_type).toBe('ephemeral');
    expect(blocksText(anns.body.blocks)).toContain('Only the person who deleted this expense');
    expect((await expense(b.id)).deleted_at).toBeTruthy();
    const bobs = await (await click('expense_restore', onDeleted, 'U0BOB')).answer();
    expect(bobs.body.replace_original).toBe(true);
    expect((await expense(b.id)).deleted_at).toBeNull();
  });

  it('answers a Delete whose claim store is down, and deletes nothing', async () => {
    const b = await book('11 bagels <@U0BOB>');
    const claims = h.app.deps.claims;
    const claim = claims.claim;
    claims.claim = async () => {
      throw new Error('store unreachable');
    };
    try {
      const answer = await (await click('expense_delete', b, 'U0BOB')).answer();
      expect(answer.body.response_type).toBe('ephemeral');
      expect(blocksText(answer.body.blocks)).toContain('Nothing was deleted.');
    } finally {
      claims.claim = claim;
    }
    expect((await expense(b.id)).deleted_at).toBeNull();
  });

  it('refuses someone who is not on the expense, privately, and deletes nothing', async () => {
    const b = await book('8 snacks <@U0BOB>');
    const answer = await (await click('expense_delete', b, 'U0DAN')).answer();
    expect(answer.body.response_type).toBe('ephemeral');
    expect(blocksText(answer.body.blocks)).toContain('Only the people on this expense');
    expect((await expense(b.id)).deleted_at).toBeNull();
  });

  it('asks a person who is not connected to connect', async () => {
    const b = await book('9 tea <@U0BOB>');
    const answer = await (await click('expense_delete', b, 'U0EVE')).answer();
    expect(answer.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(answer.body.blocks)).toContain('/oauth/start?state=');
    expect((await expense(b.id)).deleted_at).toBeNull();
  });
});

describe('Comment and Details', () => {
  it('adds a comment from the small form, and Details shows it with the full split', async () => {
    const b = await book('60 dinner <@U0BOB>');
    const { since } = await click('expense_comment', b, 'U0BOB');
    const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since);
    const view = opened.args.view as Loose;
    expect(view.callback_id).toBe('expense_comment_form');
    const viewId = (opened.response as Loose).view.id;
    const empty = await submit(h, {
      viewId,
      meta: view.private_metadata,
      callback_id: 'expense_comment_form',
      user_id: 'U0BOB',
      values: { form_comment: { form_comment: { type: 'plain_text_input', value: '  ' } } },
    });
    expect(empty.response_action).toBe('errors');
    await submit(h, {
      viewId,
      meta: view.private_metadata,
      callback_id: 'expense_comment_form',
      user_id: 'U0BOB',
      values: {
        form_comment: { form_comment: { type: 'plain_text_input', value: 'I owe you one' } },
      },
    });
    await h.app.deps.work.idle();
    const comments = (
      await call(h.emu.url, bob.apiKey, 'GET', 'get_comments', { expense_id: b.id })
    ).body.comments;
    expect(comments.map((c: Loose) => c.content)).toContain('I owe you one');

    const details = await (await click('expense_details', b, 'U0BOB')).answer();
    expect(details.body.response_type).toBe('ephemeral');
    const text = blocksText(details.body.blocks);
    expect(text).toContain('I owe you one');
    expect(text).toContain('owes €30.00');
    expect(blockKitErrors(details.body.blocks, 'message')).toEqual([]);
  });

  it('shows nothing of an expense to someone not on it', async () => {
    const b = await book('14 lunch <@U0BOB>');
    const details = await (await click('expense_details', b, 'U0DAN')).answer();
    expect(details.body.response_type).toBe('ephemeral');
    expect(blocksText(details.body.blocks)).not.toContain('lunch');
  });
});
