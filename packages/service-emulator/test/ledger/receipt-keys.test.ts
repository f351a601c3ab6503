/**
 * Receipt keys through the ledger alone: a data file written before receipts had keys gives
 * each of its receipts one when it is read, so no URL the emulator serves counts up from 1.
 */
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger.js';
import { systemClock } from '../../src/types.js';

const clock = systemClock;

describe('receipts in an older data file', () => {
  it('get a random key when read, served to the people on the expense only', () => {
    const ledger = new Ledger({ clock });
    const ann = ledger.createUser({ email: 'ann@example.com', first_name: 'Ann' });
    const ben = ledger.createUser({ email: 'ben@example.com', first_name: 'Ben' });
    const cat = ledger.createUser({ email: 'cat@example.com', first_name: 'Cat' });
    const created = ledger.handle({
      op: 'create_expense',
      method: 'POST',
      params: {
        cost: '20',
        description: 'Lunch',
        users__0__user_id: String(ann.id),
        users__0__paid_share: '20',
        users__0__owed_share: '10',
        users__1__email: ben.email,
        users__1__paid_share: '0',
        users__1__owed_share: '10',
      },
      files: [
        {
          field: 'receipt',
          filename: 'bill.png',
          contentType: 'image/png',
          data: Buffer.from('x'),
        },
      ],
      actorId: ann.id,
    });
    const id = (created.body as { expenses: { id: number }[] }).expenses[0]!.id;

    // What a file of the earlier release held: receipts with their number and no key.
    const older = JSON.parse(JSON.stringify(ledger.toJSON()));
    for (const receipt of older.receipts) {
      delete receipt.key;
      delete receipt.expense_id;
    }
    const restored = Ledger.fromJSON(older, { clock });
    const read = restored.handle({
      op: 'get_expense',
      pathId: String(id),
      method: 'GET',
      params: {},
      files: [],
      actorId: ben.id,
    });
    const url = (read.body as { expense: { receipt: { original: string } } }).expense.receipt
      .original;
    const key = /^\/__emulator\/receipts\/([A-Za-z0-9_-]{22})\/bill\.png$/.exec(url)?.[1];
    expect(key, url).toBeDefined();
    expect(restored.receiptFor(key!, ben.id)?.data.toString()).toBe('x');
    expect(restored.receiptFor(key!, cat.id)).toBeUndefined();
    expect(restored.receiptFor('1', ann.id)).toBeUndefined();
  });
});
