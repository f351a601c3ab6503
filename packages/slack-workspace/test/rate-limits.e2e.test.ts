/**
 * A method over its limit, as Slack answers it: every call of that method gets 429 with the
 * seconds left of the window in Retry-After, other methods and other workspaces answer as usual,
 * and once the window ends the method answers again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorkspace, type Workspace } from '../src/index.js';
import { PEOPLE } from './support.js';

let ws: Workspace;

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
});
afterEach(() => ws.close());

async function call(method: string, args: Record<string, string>, token = ws.team.botToken) {
  const response = await fetch(`${ws.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('a method rate-limited for a while', () => {
  it('answers every call of it with 429 and the seconds left, until the window ends', async () => {
    ws.rateLimitFor('users.info', 30);
    const first = await call('users.info', { user: 'U0ANN' });
    expect(first).toEqual({
      status: 429,
      retryAfter: '30',
      body: { ok: false, error: 'ratelimited' },
    });
    ws.advance(10_500);
    const later = await call('users.info', { user: 'U0BOB' });
    expect([later.status, later.retryAfter]).toEqual([429, '20']);
    // Another method is under its own limit.
    const other = await call('users.lookupByEmail', { email: 'ann@example.com' });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ ok: true, user: { id: 'U0ANN' } });
    ws.advance(20_000);
    const after = await call('users.info', { user: 'U0ANN' });
    expect(after.status).toBe(200);
    expect(ws.callsTo('users.info').map((c) => c.status)).toEqual([429, 429, 200]);
  });

  it('limits one workspace’s calls when given a team, and 0 ends the window', async () => {
    const globex = ws.addTeam({ id: 'T0002', name: 'Globex' });
    ws.addUser({ id: 'U2BOB', team_id: 'T0002', name: 'bob', real_name: 'Bob Globex' });
    ws.rateLimitFor('users.info', 60, { team: 'T0002' });
    expect((await call('users.info', { user: 'U0ANN' })).status).toBe(200);
    const limited = await call('users.info', { user: 'U2BOB' }, globex.botToken);
    expect([limited.status, limited.retryAfter]).toEqual([429, '60']);
    ws.rateLimitFor('users.info', 0, { team: 'T0002' });
    expect((await call('users.info', { user: 'U2BOB' }, globex.botToken)).status).toBe(200);
  });
});
