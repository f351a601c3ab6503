/** `/split list` with its filters, and `/split undo`, end to end. */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import { expenseIdIn, formOpened, formValues, submit } from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  h.addSlackUser({ slackId: 'U0CHO', first_name: 'Cho', email: 'cho.list@example.com' });
  await call(h.emu.url, ann.apiKey, 'POST', 'create_group', {
    name: 'Roommates',
    users__0__email: bob.email,
    users__0__first_name: 'Bob',
  });
  for (const text of [
    '40 lunch <@U0BOB> on 2026-11-02',
    '10 taxi <@U0CHO> on 2026-11-10',
    '30 groceries in Roommates on 2026-11-15',
  ]) {
    const out = await h.split(text);
    expect(out.answer.body.response_type).toBe('in_channel');
  }
});
afterAll(() => h?.close());

async function list(text: string): Promise<string> {
  const out = await h.split(text);
  expect(out.answer.body.response_type).toBe('ephemeral');
  expect(blockKitErrors(out.answer.body.blocks, 'message')).toEqual([]);
  return blocksText(out.answer.body.blocks);
}

describe('/split list', () => {
  it('lists my recent expenses, newest first, with my share', async () => {
    const text = await list('list');
    expect(text.indexOf('groceries')).toBeLessThan(text.indexOf('taxi'));
    expect(text.indexOf('taxi')).toBeLessThan(text.indexOf('lunch'));
    expect(text).toContain('your share €20.00');
  });

  it('filters by a person', async () => {
    const text = await list('list <@U0CHO>');
    expect(text).toContain('taxi');
    expect(text).not.toContain('lunch');
  });

  it('filters by a group', async () => {
    const text = await list('list in Roommates');
    expect(text).toContain('groceries');
    expect(text).not.toContain('taxi');
    expect(text).not.toContain('lunch');
  });

  it('filters by a date range', async () => {
    const text = await list('list from 2026-11-01 to 2026-11-05');
    expect(text).toContain('lunch');
    expect(text).not.toContain('taxi');
    expect(text).not.toContain('groceries');
  });

  it('says so when a group does not exist', async () => {
    expect(await list('list in Attic')).toContain('no group called "Attic"');
  });

  it('stays within 50 blocks with many expenses and long descriptions', async () => {
    for (let i = 0; i < 25; i++) {
      await call(h.emu.url, ann.apiKey, 'POST', 'create_expense', {
        cost: '1',
        description: `${'Very long description '.repeat(12)}${i}`,
        users__0__user_id: ann.serviceId,
        users__0__paid_share: '1',
        users__0__owed_share: '0.5',
        users__1__email: 'cho.list@example.com',
        users__1__first_name: 'Cho',
        users__1__paid_share: '0',
        users__1__owed_share: '0.5',
      });
    }
    const text = await list('list');
    expect(text).toContain('Page 1, newest first.');
  });
});

describe('/split undo', () => {
  it('deletes my last expense booked from Slack, and updates its message when known', async () => {
    const since = h.slack.now();
    await h.sender.command({ text: '' });
    const form = await formOpened(h, since);
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '12',
        currency: 'EUR',
        description: 'Undo me',
        date: '2026-11-20',
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
      }),
    });
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
    );
    const id = expenseIdIn(posted.args.blocks);
    const ts = (posted.response as Loose).ts;

    const out = await h.split('undo');
    expect(blocksText(out.answer.body.blocks)).toContain('Deleted "Undo me"');
    const e = (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`)).body.expense;
    expect(e.deleted_at).toBeTruthy();
    const updated = await h.slack.waitForCall('chat.update', (c) => c.args.ts === ts);
    expect(blocksText(updated.args.blocks)).toContain('Deleted by <@U0ANN>');

    const again = await h.split('undo');
    expect(blocksText(again.answer.body.blocks)).toContain('nothing to undo');
  });
});
