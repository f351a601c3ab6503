/**
 * Slack's Retry-After kept to the method it names: that method's calls (with that token) wait
 * it out and go again, every other call goes at once, and nothing but the Web API is held.
 */
import { describe, expect, it } from 'vitest';
import { retryAfterFetch } from '../../../src/slack/runtime/retry-after.js';

const API = 'https://slack.test/api/';

/** A Web API that answers 429 to the calls it is told to, recording every call and every wait. */
function world() {
  let now = 0;
  const sent: string[] = [];
  const waits: { ms: number; at: number }[] = [];
  const refuse = new Map<string, number[]>();
  const base = async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    const auth = new Headers(init?.headers).get('authorization') ?? '';
    sent.push(`${auth} ${url.replace(API, '')} @${now}`);
    const queue = refuse.get(url.replace(API, ''));
    const seconds = queue?.shift();
    if (seconds !== undefined)
      return new Response('{"ok":false,"error":"ratelimited"}', {
        status: 429,
        headers: { 'retry-after': String(seconds) },
      });
    return new Response('{"ok":true}', { status: 200 });
  };
  const fetch = retryAfterFetch(base, {
    apiUrl: API,
    retries: 2,
    now: () => now,
    sleep: async (ms, signal) => {
      waits.push({ ms, at: now });
      if (signal?.aborted) throw signal.reason;
      now += ms;
    },
  });
  const post = (method: string, token = 'xoxb-1', signal?: AbortSignal) =>
    fetch(`${API}${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: 'a=1',
      ...(signal ? { signal } : {}),
    });
  return {
    sent,
    waits,
    post,
    fetch,
    refuse: (method: string, ...seconds: number[]) => refuse.set(method, seconds),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('a 429 from the Web API', () => {
  it('is waited out by its own call, which is sent again and answered', async () => {
    const w = world();
    w.refuse('chat.postMessage', 3);
    const response = await w.post('chat.postMessage');
    expect(response.status).toBe(200);
    expect(w.waits).toEqual([{ ms: 3_000, at: 0 }]);
    expect(w.sent).toEqual([
      'Bearer xoxb-1 chat.postMessage @0',
      'Bearer xoxb-1 chat.postMessage @3000',
    ]);
  });

  it('holds later calls of that method with that token until it has passed, and no other call', async () => {
    const w = world();
    w.refuse('users.lookupByEmail', 30, 30, 30);
    const limited = await w.post('users.lookupByEmail');
    // Past its waits, the 429 goes back to the client.
    expect(limited.status).toBe(429);
    expect(w.waits.map((x) => x.ms)).toEqual([30_000, 30_000]);
    const waitsBefore = w.waits.length;
    expect((await w.post('chat.postMessage')).status).toBe(200);
    expect((await w.post('users.lookupByEmail', 'xoxb-other')).status).toBe(200);
    expect(w.waits).toHaveLength(waitsBefore);
    w.advance(10_000);
    expect((await w.post('users.lookupByEmail')).status).toBe(200);
    expect(w.waits.at(-1)!.ms).toBe(20_000);
  });

  it('ends a wait when the call’s own signal aborts', async () => {
    const w = world();
    w.refuse('views.open', 60);
    const aborted = AbortSignal.abort(new Error('timed out'));
    await expect(w.post('views.open', 'xoxb-1', aborted)).rejects.toThrow('timed out');
    expect(w.sent).toHaveLength(1);
  });

  it('leaves anything but the Web API untouched', async () => {
    const seen: number[] = [];
    const passthrough = retryAfterFetch(
      async () => {
        seen.push(1);
        return new Response('', { status: 429, headers: { 'retry-after': '5' } });
      },
      { apiUrl: API },
    );
    const response = await passthrough('https://hooks.slack.test/commands/T1/1/x', {
      method: 'POST',
    });
    expect([response.status, seen.length]).toEqual([429, 1]);
  });
});
