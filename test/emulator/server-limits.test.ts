/**
 * Input the emulator bounds, each refused with the service's error envelope over real HTTP rather
 * than a crash, a 500 or a dropped connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { type CreatedUser, call, callJson, control, createUser, raw } from '../support/emulator.js';

let emu: RunningEmulator;
let ann: CreatedUser;

beforeAll(async () => {
  emu = await startEmulator();
  ann = await createUser(emu.url, { email: 'ann@example.com', first_name: 'Ann' });
});
afterAll(() => emu.close());

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('JSON nesting', () => {
  it('refuses 50,000 levels with 400 on the API and on the control plane', async () => {
    const api = await callJson(
      emu.url,
      ann.api_key,
      'create_group',
      `{"name":"Deep","users":${nested(50_000)}}`,
    );
    expect(api.status).toBe(400);
    expect(api.body).toEqual({
      errors: { base: ['Malformed JSON in request body: nested deeper than 100 levels'] },
    });
    const fault = await raw(emu.url, '/__emulator/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"path":"/api/v3.0/*","status":500,"body":${nested(50_000)}}`,
    });
    expect(fault.status).toBe(400);
    expect(fault.body.errors.base).toEqual([
      'Malformed JSON in request body: nested deeper than 100 levels',
    ]);
    expect((await control(emu.url, 'GET', 'faults')).body.faults).toEqual([]);
    expect((await call(emu.url, ann.api_key, 'GET', 'get_groups')).body.groups).toHaveLength(1);
  });

  it('reads 100 levels, the most the service accepts, and refuses 101', async () => {
    // The outer object is level 1; the arrays inside it make the rest.
    const deep = (levels: number) => `${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}`;
    const accepted = await callJson(emu.url, ann.api_key, 'create_group', `{"x":${deep(100)}}`);
    expect(accepted.status).toBe(400);
    expect(accepted.body.errors.base[0]).toBe(`Unrecognized parameter \`x${'__0'.repeat(99)}\``);
    const refused = await callJson(emu.url, ann.api_key, 'create_group', `{"x":${deep(101)}}`);
    expect(refused.body.errors.base[0]).toBe(
      'Malformed JSON in request body: nested deeper than 100 levels',
    );
  });
});

describe('clock bounds', () => {
  const RANGE = 'the clock must stay between 1970-01-01T00:00:00.000Z and 9999-01-01T00:00:00.000Z';

  it('refuses to move the clock out of what timestamps can show, and keeps working', async () => {
    const before = (await control(emu.url, 'GET', 'clock')).body.now as string;
    for (const body of [
      { advance_ms: 1e300 },
      { advance_ms: -1e300 },
      { now: '+275760-09-13T00:00:00.000Z' },
      { now: '1969-12-31T23:59:59Z' },
      { now: '9999-06-01T00:00:00Z' },
      { now: '2030-01-01T00:00:00Z', advance_ms: 1e300 },
    ]) {
      const reply = await control(emu.url, 'POST', 'clock', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ errors: { base: [RANGE] } });
    }
    const after = await control(emu.url, 'GET', 'clock');
    expect(after.status).toBe(200);
    expect(Math.abs(Date.parse(after.body.now) - Date.parse(before))).toBeLessThan(60_000);
    const me = await call(emu.url, ann.api_key, 'GET', 'get_current_user');
    expect(me.status).toBe(200);
  });

  it('still takes an instant far out but inside the range, and comes back', async () => {
    const far = await control(emu.url, 'POST', 'clock', { now: '9998-12-31T00:00:00Z' });
    expect(far.status).toBe(200);
    expect(far.body.now).toMatch(/^9998-12-31T00:00:0\d\.\d{3}Z$/);
    const back = await control(emu.url, 'POST', 'clock', { now: new Date().toISOString() });
    expect(back.status).toBe(200);
  });
});
