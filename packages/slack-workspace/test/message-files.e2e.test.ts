/**
 * A file a person attaches to a message: kept by the workspace, shown with the message, sent in
 * the message event (file_share) and in a message shortcut's payload, as Slack does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorkspace, type Workspace } from '../src/index.js';
import { type RawApp, startRawApp } from './raw-app.js';
import { PEOPLE } from './support.js';

let ws: Workspace;
let app: RawApp;

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
  app = await startRawApp();
  ws.connectApp({ appUrl: app.url, signingSecret: 'message-files-secret' });
});
afterEach(async () => {
  await ws.close();
  await app.close();
});

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

describe('a file attached to a message', () => {
  it('is kept, shown on the page, and carried by the shortcut payload', async () => {
    await ws.act.message({
      as: 'U0ANN',
      channel: 'C0001',
      text: 'Dinner 30',
      file: { name: 'dinner.png', mimetype: 'image/png', content: PNG },
    });
    const message = ws.messages('C0001').at(-1)!;
    expect(message.files).toHaveLength(1);
    const id = message.files![0]!;
    expect(JSON.stringify(ws.pageState('U0ANN'))).toContain('dinner.png');
    const served = await fetch(`${ws.url}/workspace-api/files/${id}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    await ws.act.shortcut({
      as: 'U0BOB',
      callback_id: 'split_message',
      channel: 'C0001',
      ts: message.ts,
    });
    const payload = app.received.at(-1)!.payload as {
      type: string;
      message: { files?: unknown[] };
    };
    expect(payload.type).toBe('message_action');
    expect(payload.message.files).toEqual([
      expect.objectContaining({
        id,
        name: 'dinner.png',
        mimetype: 'image/png',
        size: PNG.length,
        url_private_download: expect.stringContaining(`/files/${id}/download/`),
      }),
    ]);
  });

  it('can be sent without text, but not empty', async () => {
    await ws.act.message({
      as: 'U0ANN',
      channel: 'C0001',
      text: '',
      file: { name: 'a.png', mimetype: 'image/png', content: PNG },
    });
    expect(ws.messages('C0001').at(-1)!.files).toHaveLength(1);
    await expect(
      ws.act.message({
        as: 'U0ANN',
        channel: 'C0001',
        text: 'x',
        file: { name: 'a.png', mimetype: 'image/png', content: Buffer.alloc(0) },
      }),
    ).rejects.toThrow('That file is empty.');
  });

  it('comes through the page API as base64', async () => {
    const response = await fetch(`${ws.url}/workspace-api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        as: 'U0ANN',
        channel: 'C0001',
        text: '',
        file: { name: 'b.png', mimetype: 'image/png', content_base64: PNG.toString('base64') },
      }),
    });
    expect(response.status).toBe(200);
    const message = ws.messages('C0001').at(-1)!;
    expect(message.files).toHaveLength(1);
    const bad = await fetch(`${ws.url}/workspace-api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ as: 'U0ANN', channel: 'C0001', text: 'x', file: { name: 'c' } }),
    });
    expect(bad.status).toBe(400);
  });
});
