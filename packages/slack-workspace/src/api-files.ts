/**
 * Web API: uploading a file the way Slack takes it since files.upload was retired, in three steps
 * (what @slack/web-api's files.uploadV2 runs): files.getUploadURLExternal reserves a file id and
 * an upload URL; the bytes are POSTed to that URL (multipart, part `body`, or raw); then
 * files.completeUploadExternal makes the file and, with a channel, shares it there in a message.
 * Until it is completed the file is nobody's to see.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Method } from './api-chat.js';
import { resolveChannel } from './api-chat.js';
import { isObject, optionalStr, SlackError, str } from './http-util.js';
import { randomId, type WorkspaceState } from './state.js';
import type { Channel, PendingUpload, StoredFile, Team } from './types.js';

/**
 * Largest file the simulated workspace takes. Slack takes up to 1 GB; a simulation kept in memory
 * (and in its saved state) takes far less, and what the app uploads (CSV exports) is small.
 */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** How long an upload URL stays valid, like the short-lived URLs Slack hands out. */
export const UPLOAD_URL_LIFE_MS = 10 * 60_000;

const MIME_TYPES = new Map(
  Object.entries({
    csv: 'text/csv',
    txt: 'text/plain',
    json: 'application/json',
    pdf: 'application/pdf',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    heic: 'image/heic',
  }),
);

export function mimetypeOf(filename: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  return MIME_TYPES.get(ext) ?? 'application/octet-stream';
}

/** The bot may write into its DMs and channels it is in; public ones with chat:write.public. */
function canShare(team: Team, channel: Channel): boolean {
  if (channel.is_im || channel.botIsMember) return true;
  return !channel.is_private && team.scopes.includes('chat:write.public');
}

/** Slack's file object, as files.info and message payloads carry it. */
export function fileObject(state: WorkspaceState, file: StoredFile, team: Team) {
  const at = Math.floor(state.now() / 1000);
  return {
    id: file.id,
    created: at,
    timestamp: at,
    name: file.name,
    title: file.title ?? file.name,
    mimetype: file.mimetype,
    filetype: file.name.split('.').pop() ?? 'binary',
    user: file.user,
    user_team: team.id,
    size: file.content.length,
    url_private: `${state.origin}/files/${file.id}/${encodeURIComponent(file.name)}`,
    url_private_download: `${state.origin}/files/${file.id}/download/${encodeURIComponent(file.name)}`,
    permalink: `https://${team.domain}.slack.com/files/${file.user}/${file.id}/${file.name}`,
    ...(file.thumbnail ? thumbnails(state, file) : {}),
  };
}

/** Slack's thumbnail addresses, each size served from the one picture kept. */
function thumbnails(state: WorkspaceState, file: StoredFile): Record<string, string> {
  const url = `${state.origin}/files/${file.id}/thumb/${encodeURIComponent(file.name)}.jpg`;
  return Object.fromEntries(
    ['thumb_360', 'thumb_480', 'thumb_720', 'thumb_960', 'thumb_1024'].map((key) => [key, url]),
  );
}

/** A message's files (by id) as Slack's file objects, of those still there. */
export function fileObjects(
  state: WorkspaceState,
  ids: readonly string[] | undefined,
  team: Team,
): ReturnType<typeof fileObject>[] {
  return (ids ?? []).flatMap((id) => {
    const file = state.files.get(id);
    return file ? [fileObject(state, file, team)] : [];
  });
}

function listOfFiles(args: Record<string, unknown>): Array<{ id: string; title?: string }> {
  let value = args.files;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new SlackError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] files must be a JSON array'] },
      });
    }
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: ['[ERROR] missing required field: files'] },
    });
  }
  return value.map((entry) => {
    if (!isObject(entry) || typeof entry.id !== 'string') {
      throw new SlackError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] each file needs an id'] },
      });
    }
    return {
      id: entry.id,
      ...(typeof entry.title === 'string' && entry.title !== '' ? { title: entry.title } : {}),
    };
  });
}

export function fileMethods(state: WorkspaceState): Record<string, Method> {
  return {
    'files.getUploadURLExternal': (args, team) => {
      const filename = str(args, 'filename');
      const length = Number(str(args, 'length'));
      if (!Number.isSafeInteger(length) || length < 1) {
        throw new SlackError('invalid_arguments', {
          response_metadata: {
            messages: ['[ERROR] length must be a whole number of bytes, 1 or more'],
          },
        });
      }
      if (length > MAX_UPLOAD_BYTES) throw new SlackError('file_upload_size_restricted');
      const upload: PendingUpload = {
        id: randomId('F'),
        team_id: team.id,
        filename,
        length,
        alt_txt: optionalStr(args, 'alt_txt') ?? optionalStr(args, 'alt_text'),
        key: randomId('', 24),
        createdAt: state.now(),
        content: undefined,
      };
      state.uploads.set(upload.id, upload);
      return {
        upload_url: `${state.origin}/upload/v1/${upload.id}/${upload.key}`,
        file_id: upload.id,
      };
    },
    'files.completeUploadExternal': (args, team) => {
      const wanted = listOfFiles(args);
      const channelIds = [
        ...(optionalStr(args, 'channel_id') ? [str(args, 'channel_id')] : []),
        ...(optionalStr(args, 'channels')?.split(',') ?? []),
      ]
        .map((c) => c.trim())
        .filter(Boolean);
      if (channelIds.length > 1) throw new SlackError('channels_limit_exceeded');
      const uploads = wanted.map((w) => {
        const upload = state.uploads.get(w.id);
        // An id never reserved, another team's, or one whose bytes never arrived.
        if (!upload || upload.team_id !== team.id || upload.content === undefined)
          throw new SlackError('file_not_found');
        return { upload, content: upload.content, title: w.title };
      });
      const channel =
        channelIds[0] === undefined ? undefined : resolveChannel(state, team, channelIds[0]);
      if (channel && !canShare(team, channel)) throw new SlackError('not_in_channel');
      const files = uploads.map(({ upload, content, title }) => {
        state.uploads.delete(upload.id);
        const file: StoredFile = {
          id: upload.id,
          name: upload.filename,
          title: title ?? upload.filename,
          mimetype: mimetypeOf(upload.filename),
          user: team.botUserId,
          content,
        };
        state.files.set(file.id, file);
        return file;
      });
      if (channel) {
        const message = state.addMessage({
          channel: channel.id,
          ts: state.nextTs(),
          text: optionalStr(args, 'initial_comment') ?? '',
          blocks: undefined,
          thread_ts: optionalStr(args, 'thread_ts'),
          user: team.botUserId,
          bot_id: team.botId,
          files: files.map((f) => f.id),
        });
        state.announce({ kind: 'posted', message });
      }
      return { files: files.map((f) => ({ id: f.id, title: f.title })) };
    },
  };
}

/** Reads at most `limit` bytes of a request body; undefined when there is more. */
async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The upload URL: takes the bytes once. Answers like Slack's file servers: text, 200 with
 * "OK - <length>" when taken, an error status otherwise.
 */
export async function handleUpload(
  state: WorkspaceState,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  key: string,
): Promise<void> {
  const text = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  };
  const upload = state.uploads.get(id);
  if (!upload || upload.key !== key || state.now() - upload.createdAt > UPLOAD_URL_LIFE_MS) {
    req.resume();
    return text(404, 'Upload URL not found or expired.');
  }
  if (upload.content !== undefined) {
    req.resume();
    return text(409, 'This upload URL was already used.');
  }
  // Multipart adds a boundary and headers around the bytes; a little room is kept for them.
  const raw = await readBytes(req, MAX_UPLOAD_BYTES + 64 * 1024);
  if (raw === undefined) return text(413, 'The file is larger than was announced.');
  let content = raw;
  const type = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    const form = await new Request('http://upload', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(raw),
    })
      .formData()
      .catch(() => undefined);
    const part = form?.get('body') ?? form?.get('file');
    if (!part || typeof part === 'string') return text(400, 'No file part named "body".');
    content = Buffer.from(await part.arrayBuffer());
  }
  if (content.length !== upload.length) {
    return text(400, `Expected ${upload.length} bytes, got ${content.length}.`);
  }
  upload.content = content;
  state.changed();
  text(200, `OK - ${content.length}`);
}
