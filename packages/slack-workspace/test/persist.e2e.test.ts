import { afterEach, describe, expect, it } from 'vitest';
import { seedDemoWorkspace, startWorkspace, type Workspace } from '../src/index.js';
import { callApi } from './raw-app.js';

const started: Workspace[] = [];
async function workspace() {
  const ws = await startWorkspace();
  started.push(ws);
  return ws;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((ws) => ws.close()));
});

describe('snapshot and restore', () => {
  it('carries people, channels, messages, Home tabs and files into a new workspace', async () => {
    const first = await workspace();
    seedDemoWorkspace(first);
    const api = (method: string, args: Record<string, unknown>) =>
      callApi(first.apiUrl, first.team.botToken, method, args);
    await first.act.message({ as: 'U0ADA', channel: 'C0LUNCH', text: 'pizza?' });
    const posted = await api('chat.postMessage', { channel: 'C0LUNCH', text: 'Booked' });
    await api('chat.postEphemeral', { channel: 'C0LUNCH', user: 'U0ADA', text: 'only you' });
    await api('chat.update', { channel: 'C0LUNCH', ts: posted.ts, text: 'Booked 12.50' });
    await api('views.publish', {
      user_id: 'U0GRACE',
      view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }] },
    });
    first.addFile({
      id: 'F0RECEIPT',
      name: 'r.png',
      mimetype: 'image/png',
      content: Buffer.from([1, 2, 3]),
    });

    const text = JSON.stringify(first.snapshot());
    const second = await workspace();
    second.restore(JSON.parse(text));

    for (const who of ['U0ADA', 'U0GRACE', 'U0ALAN']) {
      const before = first.pageState(who);
      const after = second.pageState(who);
      expect({ ...after, version: 0 }).toEqual({ ...before, version: 0 });
      expect(after.version).toBeGreaterThanOrEqual(before.version);
    }
    expect(second.messages('C0LUNCH').map((m) => [m.text, m.edited ?? false])).toEqual([
      ['pizza?', false],
      ['Booked 12.50', true],
      ['only you', false],
    ]);
    expect(second.homeView('U0GRACE')?.id).toBe(first.homeView('U0GRACE')?.id);
    const token = second.team.botToken;
    const file = await fetch(`${second.url}/files/F0RECEIPT/download/r.png`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);

    const next = await callApi(second.apiUrl, token, 'chat.postMessage', {
      channel: 'C0LUNCH',
      text: 'later',
    });
    expect(Number(next.ts)).toBeGreaterThan(Number(posted.ts));
  });

  it('refuses something that is not a snapshot and keeps its state', async () => {
    const ws = await workspace();
    ws.addUser({ id: 'U0ANN', name: 'ann' });
    expect(() => ws.restore({ format: 'other', teams: [] })).toThrow(/Not a workspace snapshot/);
    expect(ws.user('U0ANN')?.name).toBe('ann');
  });
});
