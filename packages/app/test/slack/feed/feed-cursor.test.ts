import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../src/service/index.js';
import { advance, oldestFirst, unseen } from '../../../src/slack/feed/cursor.js';

const note = (id: number, created_at: string): Notification => ({
  id,
  type: 0,
  created_at,
  created_by: 1,
  content: '',
});

describe('a feed cursor', () => {
  const a = note(1, '2026-11-21T09:00:00Z');
  const b = note(2, '2026-11-21T09:00:05Z');
  const c = note(3, '2026-11-21T09:00:05Z');

  it('moves to the newest handled, keeping the ids handled at that moment', () => {
    expect(advance({ cursor: null, seen: [] }, [b, a])).toEqual({
      cursor: b.created_at,
      seen: [2],
    });
    expect(advance({ cursor: b.created_at, seen: [2] }, [c])).toEqual({
      cursor: b.created_at,
      seen: [2, 3],
    });
    expect(advance({ cursor: b.created_at, seen: [2] }, [])).toEqual({
      cursor: b.created_at,
      seen: [2],
    });
  });

  it('skips what was handled, and anything older than the cursor', () => {
    expect(unseen({ cursor: b.created_at, seen: [2] }, [c, b, a])).toEqual([c]);
    expect(unseen({ cursor: null, seen: [] }, [c, b, a])).toEqual([c, b, a]);
  });

  it('reads oldest first, ties in id order', () => {
    expect(oldestFirst([c, a, b]).map((n) => n.id)).toEqual([1, 2, 3]);
  });
});
