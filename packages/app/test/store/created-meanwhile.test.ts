import { describe, expect, it } from 'vitest';
import { createdMeanwhile } from '../../src/store/created-meanwhile.js';

describe('createdMeanwhile', () => {
  it("takes PostgreSQL's answers to a table another replica created at the same moment as done", () => {
    // unique_violation on pg_type, duplicate_object (its row type), duplicate_table.
    for (const code of ['23505', '42710', '42P07']) expect(createdMeanwhile({ code })).toBe(true);
  });

  it('lets every other failure through', () => {
    for (const error of [{ code: '42501' }, { code: 'ECONNREFUSED' }, new Error('x'), null, 'x']) {
      expect(createdMeanwhile(error)).toBe(false);
    }
  });
});
