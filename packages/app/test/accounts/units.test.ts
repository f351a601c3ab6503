import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { middayIn, todayIn } from '../../src/slack/shared/dates.js';
import { type Claims, createClaims } from '../../src/store/index.js';
import { createLinkStates, MAX_PAST_LINKS } from '../../src/store/link-states.js';
import { TtlCache } from '../../src/store/ttl-cache.js';

describe('link states', () => {
  const user = { team_id: 'T1', user_id: 'U1' };
  const key = randomBytes(32);
  // The real claims on a SQLite file, as the app's default store has them.
  let dir: string;
  let claims: Claims;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'link-states-'));
    claims = createClaims(`sqlite://${join(dir, 'claims.sqlite')}`, { namespace: 'links' });
  });
  afterAll(async () => {
    await claims?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are random, bound to the user and the pending command, and usable once', async () => {
    const keyv = new Keyv();
    const states = createLinkStates({ keyv, claims, key });
    const pending = { text: '40 lunch', channel_id: 'C1', at: 1 };
    const a = await states.create(user, pending);
    const other = await states.create({ team_id: 'T1', user_id: 'U2' }, pending);
    expect(a).toMatch(/^[A-Za-z0-9_-]{65}$/);
    expect(a).not.toBe(other);
    expect(await states.consume(a)).toEqual({
      ok: true,
      link: {
        ...user,
        created_at: expect.any(Number),
        pending,
        code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    });
    expect(await states.consume(a)).toEqual({ ok: false, reason: 'used', user });
    expect((await states.consume(other)).ok).toBe(true);
    expect(await states.consume('x'.repeat(65))).toEqual({ ok: false, reason: 'unknown' });
    // The person's handle with a link not remembered: an older one of theirs.
    expect(await states.consume(`${a.slice(0, 22)}${'x'.repeat(43)}`)).toEqual({
      ok: false,
      reason: 'replaced',
      user,
    });
    expect(await states.consume('short')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('say a consumed state is used when peeked, so a reused link is refused before consent', async () => {
    const states = createLinkStates({ keyv: new Keyv(), claims, key });
    const state = await states.create(user);
    expect((await states.peek(state)).ok).toBe(true);
    expect((await states.consume(state)).ok).toBe(true);
    expect(await states.peek(state)).toEqual({ ok: false, reason: 'used', user });
  });

  it('expire after 10 minutes and keep only a hash of the state', async () => {
    let now = 1_000_000;
    const keyv = new Keyv();
    const store = keyv.opts.store as Map<string, unknown>;
    const states = createLinkStates({ keyv, claims, key, now: () => now });
    const state = await states.create(user);
    const secret = state.slice(22);
    expect([...store.entries()].some((entry) => JSON.stringify(entry).includes(secret))).toBe(
      false,
    );
    now += 10 * 60_000 + 1;
    expect(await states.peek(state)).toEqual({ ok: false, reason: 'expired', user });
    expect(await states.consume(state)).toEqual({ ok: false, reason: 'expired', user });
  });

  it('keep one link per person: a new command replaces the link that carried the last one', async () => {
    const keyv = new Keyv();
    const store = keyv.opts.store as Map<string, unknown>;
    const states = createLinkStates({ keyv, claims, key });
    const taxi = { text: '30 taxi', channel_id: 'C1', at: 1 };
    const lunch = { text: '40 lunch', channel_id: 'C1', at: 2 };
    const first = await states.create(user, taxi);
    const second = await states.create(user, lunch);
    expect(second).not.toBe(first);
    expect(store.size).toBe(1);
    expect(await states.peek(first)).toEqual({ ok: false, reason: 'replaced', user });
    expect(await states.consume(first)).toEqual({ ok: false, reason: 'replaced', user });
    expect(await states.consume(second)).toMatchObject({ ok: true, link: { pending: lunch } });
  });

  it('hand out the same link to a prompt without a command while most of its life is ahead', async () => {
    let now = 1_000_000;
    const states = createLinkStates({ keyv: new Keyv(), claims, key, now: () => now });
    const pending = { text: '40 lunch', channel_id: 'C1', at: now };
    const typed = await states.create(user, pending);
    now += 5 * 60_000;
    // App Home or a button asks for the person's link: the command still waits behind it.
    expect(await states.create(user)).toBe(typed);
    now += 1;
    const fresh = await states.create(user);
    expect(fresh).not.toBe(typed);
    expect(await states.peek(typed)).toEqual({ ok: false, reason: 'replaced', user });
    const peeked = await states.peek(fresh);
    expect(peeked.ok && peeked.link.pending).toBeUndefined();
  });

  it('tell a replaced link that was used or had expired by what it was while it is among the last ten', async () => {
    let now = 1_000_000;
    const states = createLinkStates({ keyv: new Keyv(), claims, key, now: () => now });
    const used = await states.create(user);
    expect((await states.consume(used)).ok).toBe(true);
    const spent = await states.create(user);
    now += 10 * 60_000 + 1;
    const made: string[] = [];
    for (let n = 0; n < MAX_PAST_LINKS - 1; n++) {
      made.push(await states.create(user, { text: `${n + 1} lunch`, channel_id: 'C1', at: now }));
    }
    expect(await states.peek(spent)).toEqual({ ok: false, reason: 'expired', user });
    expect(await states.peek(used)).toEqual({ ok: false, reason: 'used', user });
    expect(await states.peek(made[0]!)).toEqual({ ok: false, reason: 'replaced', user });
    await states.create(user, { text: 'one more', channel_id: 'C1', at: now });
    expect(await states.peek(used)).toEqual({ ok: false, reason: 'replaced', user });
    expect(await states.peek(spent)).toEqual({ ok: false, reason: 'expired', user });
  });
});

describe('a link prompt', () => {
  const user = { team_id: 'T1', user_id: 'U1' };
  const key = randomBytes(32);
  let dir: string;
  let claims: Claims;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-prompts-'));
    claims = createClaims(`sqlite://${join(dir, 'claims.sqlite')}`, { namespace: 'prompts' });
  });
  afterAll(async () => {
    await claims?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is kept with the link for its own person, and said to be used once it is', async () => {
    const states = createLinkStates({ keyv: new Keyv(), claims, key });
    const state = await states.create(user);
    const url = 'https://hooks.slack.test/actions/1';
    expect(await states.notePrompt(state, { ...user, user_id: 'U0EVE' }, url)).toBe('unknown');
    expect(await states.promptOf(state)).toBeUndefined();
    expect(await states.notePrompt(state, user, url)).toBe('noted');
    expect(await states.promptOf(state)).toBe(url);
    expect((await states.consume(state)).ok).toBe(true);
    expect(await states.promptOf(state)).toBe(url);
    expect(await states.notePrompt(state, user, `${url}/2`)).toBe('used');
    expect(await states.promptOf(state)).toBe(url);
    expect(await states.notePrompt('x'.repeat(43), user, url)).toBe('unknown');
  });
});

describe('TtlCache', () => {
  it('forgets entries after the TTL and shares one load between concurrent misses', async () => {
    let now = 0;
    const cache = new TtlCache<number>(1_000, 10, () => now);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return 7;
    };
    expect(await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)])).toEqual([
      7, 7,
    ]);
    expect(loads).toBe(1);
    now = 999;
    expect(cache.get('k')).toBe(7);
    now = 1_000;
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not cache failures and evicts the oldest entry when full', async () => {
    const cache = new TtlCache<number>(1_000, 2);
    await expect(cache.getOrLoad('a', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });
});

describe('dates in the person’s zone', () => {
  it('takes today in their zone and books midday with their offset', () => {
    const at = new Date('2026-11-20T23:30:00Z');
    expect(todayIn('Europe/Paris', at)).toBe('2026-11-21');
    expect(todayIn('America/Los_Angeles', at)).toBe('2026-11-20');
    expect(todayIn(undefined, at)).toBe('2026-11-20');
    expect(todayIn('Not/AZone', at)).toBe('2026-11-20');
    expect(middayIn('2026-11-20', 'Europe/Paris')).toBe('2026-11-20T12:00:00+01:00');
    expect(middayIn('2026-07-01', 'America/New_York')).toBe('2026-07-01T12:00:00-04:00');
    expect(middayIn('2026-11-20', 'Asia/Kolkata')).toBe('2026-11-20T12:00:00+05:30');
    expect(middayIn('2026-11-20', undefined)).toBe('2026-11-20T12:00:00Z');
  });

  it('answers again from what it kept only for the same minute and the same date', () => {
    // The minute before and after midnight in Paris, asked in turn: each answer is its own.
    const before = new Date('2026-11-20T22:59:30Z');
    const after = new Date('2026-11-20T23:00:10Z');
    for (let i = 0; i < 3; i++) {
      expect(todayIn('Europe/Paris', before)).toBe('2026-11-20');
      expect(todayIn('Europe/Paris', after)).toBe('2026-11-21');
      expect(todayIn('Europe/Paris', new Date(before.getTime() + 20_000))).toBe('2026-11-20');
    }
    // Summer and winter offsets in one zone, asked in turn.
    for (let i = 0; i < 3; i++) {
      expect(middayIn('2026-07-01', 'Europe/Paris')).toBe('2026-07-01T12:00:00+02:00');
      expect(middayIn('2026-12-01', 'Europe/Paris')).toBe('2026-12-01T12:00:00+01:00');
    }
  });
});
