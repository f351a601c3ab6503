import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, control, createUser } from '@split/service-emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
  file = join(dir, 'state.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--data persistence', () => {
  it('keeps users, data, API keys, apps and tokens across a restart', async () => {
    const first = await startEmulator({ dataFile: file });
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    const group = await call(first.url, ann.api_key, 'POST', 'create_group', { name: 'Kept' });
    expect(group.status).toBe(200);
    const app = (await control(first.url, 'POST', 'apps', { redirect_uri: 'https://k.example/cb' }))
      .body;
    const token = (
      await control(first.url, 'POST', 'tokens', { user_id: ann.user.id, client_id: app.client_id })
    ).body.access_token;
    await first.close();

    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain(ann.api_key);
    expect(saved).not.toContain(token);

    const second = await startEmulator({ dataFile: file });
    try {
      const groups = await call(second.url, ann.api_key, 'GET', 'get_groups');
      expect(groups.status).toBe(200);
      expect(groups.body.groups.map((g: { name: string }) => g.name)).toContain('Kept');
      const me = await call(second.url, token, 'GET', 'get_current_user');
      expect(me.body.user.id).toBe(ann.user.id);
      const more = await call(second.url, ann.api_key, 'POST', 'create_group', { name: 'After' });
      expect(more.body.group.id).toBeGreaterThan(group.body.group.id);
    } finally {
      await second.close();
    }
  });

  it('survives a burst of concurrent writes with one whole, valid file and no temporary files', async () => {
    const emu = await startEmulator({ dataFile: file });
    const ann = await createUser(emu.url, { email: 'burst@example.com', first_name: 'Burst' });
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(emu.url, ann.api_key, 'POST', 'create_group', { name: `Group ${i}` }),
      ),
    );
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    // Whenever the file is there it is complete (written aside, then renamed into place).
    for (let i = 0; i < 100 && !existsSync(file); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    await emu.close();

    expect(readdirSync(dir)).toEqual(['state.json']);
    const again = await startEmulator({ dataFile: file });
    try {
      const groups = await call(again.url, ann.api_key, 'GET', 'get_groups');
      const names = groups.body.groups.map((g: { name: string }) => g.name);
      for (let i = 0; i < 40; i++) expect(names).toContain(`Group ${i}`);
    } finally {
      await again.close();
    }
  });

  it('refuses to start when the data file cannot be written', async () => {
    await expect(
      startEmulator({ dataFile: join(dir, 'missing-dir', 'state.json') }),
    ).rejects.toThrow(/cannot write emulator data file .*missing-dir/);
  });

  it('refuses to start on a file that is not emulator data, saying which file', async () => {
    writeFileSync(file, '{"not":"ours"}');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(file);
    writeFileSync(file, '{torn');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(/cannot read emulator data/);
  });
});
