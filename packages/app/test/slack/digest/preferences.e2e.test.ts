import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDigestPreferences,
  DigestPreferenceError,
  type DigestSubscription,
} from '../../../src/slack/digest/index.js';
import { createKeyv } from '../../../src/store/index.js';
import { POSTGRES_URL, REDIS_URL } from '../../support/stores.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-digest-prefs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const backends = [
  { name: 'SQLite (temporary directory)', url: () => `sqlite://${join(dir, 'prefs.sqlite')}` },
  { name: 'Redis', url: () => REDIS_URL ?? '', missing: !REDIS_URL },
  { name: 'PostgreSQL', url: () => POSTGRES_URL ?? '', missing: !POSTGRES_URL },
];

for (const backend of backends)
  describe.skipIf(backend.missing)(`digest preferences on ${backend.name}`, () => {
    it('walks every subscription of its namespace and nothing else', async () => {
      const run = randomUUID();
      const keyv = await createKeyv(backend.url(), { namespace: `digest-${run}` });
      const neighbour = await createKeyv(backend.url(), { namespace: `digest-${run}-other` });
      try {
        const prefs = createDigestPreferences(keyv);
        await neighbour.set('T1:UX', { user_id: 'UX' });
        for (let i = 0; i < 35; i++) {
          await prefs.enable(
            { team_id: 'T1', user_id: `U${i}` },
            { tz: 'Asia/Tokyo', hour: i % 24 },
          );
        }
        const seen = new Set<string>();
        for await (const sub of prefs.iterate()) seen.add(sub.user_id);
        expect(seen.size).toBe(35);
        expect(seen.has('UX')).toBe(false);
      } finally {
        await keyv.clear();
        await neighbour.clear();
        await keyv.disconnect();
        // @keyv/postgres shares one pool per URI; the first disconnect ended it.
        if (!backend.url().startsWith('postgres')) await neighbour.disconnect();
      }
    });
  });

describe('digest preferences', () => {
  it('is opt-in, validates choices, pauses, and keeps the runner’s fields on a settings change', async () => {
    const keyv = await createKeyv(`sqlite://${join(dir, 'choices.sqlite')}`, {
      namespace: 'digest',
    });
    try {
      const prefs = createDigestPreferences(keyv);
      const ann = { team_id: 'T1', user_id: 'U1' };
      expect(await prefs.get(ann)).toBeUndefined();
      expect(await prefs.pause(ann)).toBeUndefined();

      const enabled = await prefs.enable(ann, { tz: 'Europe/Paris', hour: 7 });
      expect(enabled).toMatchObject({ enabled: true, hour: 7, tz: 'Europe/Paris', paused: false });
      await prefs.update(ann, () => ({ last_day: '2026-11-21', snapshot: { friends: {} } }));
      const changed = (await prefs.set(ann, { hour: 9, always: true })) as DigestSubscription;
      expect(changed).toMatchObject({ hour: 9, always: true, last_day: '2026-11-21' });
      expect(changed.snapshot).toEqual({ friends: {} });

      expect((await prefs.pause(ann))?.paused).toBe(true);
      expect((await prefs.resume(ann))?.paused).toBe(false);
      expect((await prefs.disable(ann))?.enabled).toBe(false);

      await expect(prefs.set(ann, { hour: 24 })).rejects.toThrow(DigestPreferenceError);
      await expect(prefs.set(ann, { hour: 7.5 })).rejects.toThrow(DigestPreferenceError);
      await expect(prefs.enable(ann, { tz: 'Mars/Olympus' })).rejects.toThrow(
        DigestPreferenceError,
      );
      expect(await prefs.delete(ann)).toBe(true);
      expect(await prefs.get(ann)).toBeUndefined();
    } finally {
      await keyv.disconnect();
    }
  });
});
