import { describe, expect, it } from 'vitest';
import { HELP_SECTIONS, parseCommand } from '../../../src/core/command/index.js';
import { asTyped, ctx } from './helpers.js';

describe('help', () => {
  it('offers only examples that parse, each to what it says', () => {
    const kinds = HELP_SECTIONS.flatMap((s) =>
      s.lines.map((l) => [l.example, parseCommand(asTyped(l.example), ctx).kind]),
    );
    expect(kinds).toEqual([
      ['/split 40 lunch @ann', 'expense'],
      ['/split €12,50 taxi @ann @bob', 'expense'],
      ['/split 40 lunch @ann paid by @bob', 'expense'],
      ['/split 60 dinner @ann paid by me 40 @bob 20', 'expense'],
      ['/split 60 dinner paid by me 40 @bob 20 @ann', 'expense'],
      ['/split 1200 rent @ann monthly', 'expense'],
      ['/split 40 lunch @ann except me', 'expense'],
      ['/split 40 lunch @ann yesterday', 'expense'],
      ['/split 40 lunch in Roommates', 'expense'],
      ['/split $7 each coffee @ann @bob', 'expense'],
      ['/split', 'open_modal'],
      ['/split 40 lunch @ann 25 @bob 15', 'expense'],
      ['/split 40 lunch @ann 60% @bob 40%', 'expense'],
      ['/split 40 lunch @ann 2x @bob 1x', 'expense'],
      ['/split 12.50+7.25 lunch @ann', 'expense'],
      ['/split 80 dinner @ann 30 @bob 25 +tip 15% +tax 8%', 'expense'],
      ['/split 60 dinner @ann +tip 10', 'expense'],
      ['/split balance', 'balance'],
      ['/split balance @ann', 'balance'],
      ['/split balance Roommates', 'balance'],
      ['/split list @ann in Roommates last week', 'list'],
      ['/split list about taxi since 2026-10-01', 'list'],
      ['/split export in Roommates', 'export'],
      ['/split undo', 'undo'],
      ['/split paid @ann 15', 'paid'],
      ['/split @ann paid me 15', 'paid'],
      ['/split remind @ann', 'remind'],
      ['/split groups', 'groups'],
      ['/split group create Roommates @ann @bob', 'group_create'],
      ['/split group add @cho Roommates', 'group_add'],
      ['/split group use Roommates', 'group_use'],
      ['/split group delete Roommates', 'group_delete'],
      ['/split group default Roommates me 60% @ann 40%', 'group_default'],
      ['/split group default Roommates', 'group_default'],
      ['/split feed on', 'feed'],
      ['/split connect', 'connect'],
      ['/split whoami', 'whoami'],
      ['/split disconnect', 'disconnect'],
    ]);
  });
});
