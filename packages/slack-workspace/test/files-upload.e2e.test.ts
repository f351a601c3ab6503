/**
 * The workspace's file upload in three steps (files.getUploadURLExternal, the upload URL,
 * files.completeUploadExternal), driven both by @slack/web-api's files.uploadV2 and by hand.
 */
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../src/api-files.js';
import { startWorkspace, type Workspace } from '../src/index.js';
import { callApi } from './raw-app.js';
import { PEOPLE } from './support.js';

let ws: Workspace;
const api = (method: string, args: Record<string, unknown>, token = ws.team.botToken) =>
  callApi(ws.apiUrl, token, method, args);

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
});
afterEach(() => ws.close());

async function reserve(filename: string, length: number) {
  const answer = await api('files.getUploadURLExternal', { filename, length });
  expect(answer.ok).toBe(true);
  return answer as { upload_url: string; file_id: string };
}

describe('files.uploadV2 as @slack/web-api runs it', () => {
  it('puts the file in the DM, with its comment, and serves its bytes', async () => {
    const client = new webApi.WebClient(ws.team.botToken, {
      slackApiUrl: ws.apiUrl,
      retryConfig: { retries: 0 },
    });
    const dm = await client.conversations.open({ users: 'U0ANN' });
    const bytes = Buffer.from('Date,Cost\r\n2026-11-20,12.50\r\n');
    const result = (await client.files.uploadV2({
      channel_id: dm.channel!.id!,
      file: bytes,
      filename: 'expenses.csv',
      title: 'Expenses',
      initial_comment: '1 expense',
    })) as unknown as { files: Array<{ files: Array<{ id: string; title: string }> }> };
    const id = result.files[0]!.files[0]!.id;
    expect(result.files[0]!.files[0]!.title).toBe('Expenses');
    const message = ws.messages('U0ANN').at(-1)!;
    expect(message.text).toBe('1 expense');
    expect(message.files).toEqual([id]);
    const info = (await client.files.info({ file: id })).file!;
    expect(info).toMatchObject({ name: 'expenses.csv', mimetype: 'text/csv', size: bytes.length });
    const download = await fetch(info.url_private_download!, {
      headers: { authorization: `Bearer ${ws.team.botToken}` },
    });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    const page = ws.pageState('U0ANN');
    expect(JSON.stringify(page)).toContain('expenses.csv');
  });
});

describe('the rules of each step', () => {
  it('needs files:write for both methods', async () => {
    ws.team.scopes = ws.team.scopes.filter((s) => s !== 'files:write');
    for (const method of ['files.getUploadURLExternal', 'files.completeUploadExternal']) {
      expect(
        await api(method, { filename: 'a.csv', length: 1, files: '[{"id":"F1"}]' }),
      ).toMatchObject({
        ok: false,
        error: 'missing_scope',
        needed: 'files:write',
      });
    }
  });

  it('wants a file name and a length of at least one byte, within the limit', async () => {
    expect(await api('files.getUploadURLExternal', { length: 3 })).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(await api('files.getUploadURLExternal', { filename: 'a.csv', length: 0 })).toMatchObject(
      {
        ok: false,
        error: 'invalid_arguments',
      },
    );
    expect(
      await api('files.getUploadURLExternal', { filename: 'a.csv', length: MAX_UPLOAD_BYTES + 1 }),
    ).toMatchObject({ ok: false, error: 'file_upload_size_restricted' });
  });

  it('takes the bytes once, of the length announced, at the URL it gave', async () => {
    const { upload_url, file_id } = await reserve('a.txt', 3);
    const post = (url: string, body: string) => fetch(url, { method: 'POST', body });
    expect((await post(`${upload_url}x`, 'abc')).status).toBe(404);
    expect((await post(upload_url, 'abcd')).status).toBe(400);
    const taken = await post(upload_url, 'abc');
    expect(taken.status).toBe(200);
    expect(await taken.text()).toBe('OK - 3');
    expect((await post(upload_url, 'abc')).status).toBe(409);
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({
      ok: true,
      files: [{ id: file_id, title: 'a.txt' }],
    });
  });

  it('completes only files whose bytes arrived, and only once', async () => {
    const { file_id } = await reserve('a.txt', 3);
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({
      ok: false,
      error: 'file_not_found',
    });
    expect(await api('files.completeUploadExternal', { files: [{ id: 'F0NOPE' }] })).toMatchObject({
      ok: false,
      error: 'file_not_found',
    });
    expect(await api('files.completeUploadExternal', {})).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
  });

  it('shares into a channel only where the bot may post, and one channel at a time', async () => {
    const { upload_url, file_id } = await reserve('a.txt', 1);
    await fetch(upload_url, { method: 'POST', body: 'a' });
    expect(
      await api('files.completeUploadExternal', { files: [{ id: file_id }], channel_id: 'C0NOPE' }),
    ).toMatchObject({ ok: false, error: 'channel_not_found' });
    expect(
      await api('files.completeUploadExternal', {
        files: [{ id: file_id }],
        channels: 'C0001,U0ANN',
      }),
    ).toMatchObject({ ok: false, error: 'channels_limit_exceeded' });
    const before = ws.messages('C0001').length;
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({
      ok: true,
    });
    // Without a channel the file is made but shared nowhere.
    expect(ws.messages('C0001').length).toBe(before);
  });
});
