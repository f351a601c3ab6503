/**
 * The `response_url` endpoint (at most 5 uses in 30 minutes; replies land in the conversation)
 * and the private file URLs (bytes only with a valid bot token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { blockKitErrors, invalidBlocks } from './block-kit.js';
import { sendFile } from './file-response.js';
import { isObject, readBody, send } from './http-util.js';
import {
  RESPONSE_URL_LIFE_MS,
  RESPONSE_URL_USES,
  type ResponseUrlEntry,
  type WorkspaceState,
} from './state.js';

/**
 * What a response_url post does to the conversation: replace or delete the original message
 * when the URL is tied to one, otherwise add a reply (ephemeral for the invoking user unless
 * response_type is in_channel) when the URL is tied to a channel.
 */
export function applyResponse(
  state: WorkspaceState,
  entry: { channel?: string; ts?: string; user?: string },
  body: Record<string, unknown>,
): void {
  if (!entry.channel) return;
  const original = entry.ts ? state.findMessage(entry.channel, entry.ts) : undefined;
  if (original && body.delete_original) {
    const previous = { ...original };
    original.deleted = true;
    state.changed();
    state.announce({ kind: 'deleted', message: original, previous });
    return;
  }
  if (original && body.replace_original) {
    const previous = { ...original };
    original.text = body.text as string | undefined;
    original.blocks = body.blocks as unknown[] | undefined;
    original.edited = true;
    state.changed();
    state.announce({ kind: 'changed', message: original, previous });
    return;
  }
  const team = state.defaultTeam();
  const message = state.addMessage({
    channel: entry.channel,
    ts: state.nextTs(),
    text: body.text as string | undefined,
    blocks: body.blocks as unknown[] | undefined,
    thread_ts: body.thread_ts as string | undefined,
    user: team?.botUserId ?? 'U0BOT',
    bot_id: team?.botId,
    ...(body.response_type === 'in_channel' ? {} : { ephemeralFor: entry.user ?? 'unknown' }),
  });
  state.announce({ kind: 'posted', message });
}

export async function handleResponseUrl(
  state: WorkspaceState,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const raw = await readBody(req);
  const contentType = req.headers['content-type'];
  let body: Record<string, unknown> = {};
  let status = 200;
  let answer: Record<string, unknown> = { ok: true };
  try {
    const parsed: unknown = contentType?.startsWith('application/json')
      ? JSON.parse(raw)
      : JSON.parse(new URLSearchParams(raw).get('payload') ?? '{}');
    if (!isObject(parsed)) throw new Error('not an object');
    body = parsed;
  } catch {
    status = 400;
    answer = { ok: false, error: 'invalid_payload' };
  }
  let entry: ResponseUrlEntry | undefined = state.responseUrls.get(id);
  if (!entry && status === 200 && state.strict) {
    status = 404;
    answer = { ok: false, error: 'invalid_url' };
  } else if (!entry) {
    entry = { createdAt: state.now(), uses: 0 };
    state.responseUrls.set(id, entry);
  }
  if (status === 200 && entry) {
    if (state.now() - entry.createdAt > RESPONSE_URL_LIFE_MS) {
      status = 404;
      answer = { ok: false, error: 'expired_url' };
    } else if (entry.uses >= RESPONSE_URL_USES) {
      status = 404;
      answer = { ok: false, error: 'used_url' };
    } else {
      const errors = body.blocks === undefined ? [] : blockKitErrors(body.blocks, 'message');
      if (errors.length > 0) {
        status = 400;
        answer = { ok: false, error: 'invalid_blocks', ...invalidBlocks(errors) };
      } else if (body.text === undefined && body.blocks === undefined && !body.delete_original) {
        status = 400;
        answer = { ok: false, error: 'no_text' };
      } else {
        entry.uses += 1;
        applyResponse(state, entry, body);
      }
    }
  }
  state.responses.push({ id, body, contentType, at: state.now(), status });
  send(res, status, answer);
  state.notify();
}

export function handleFile(
  state: WorkspaceState,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  /** The file's thumbnail (its thumb_* addresses) rather than the file. */
  thumbnail = false,
): void {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const file = state.files.get(id);
  // Like Slack: without a valid token the file URL answers a sign-in page, not the file.
  if (!bearer || !state.tokens.has(bearer)) {
    send(res, 200, '<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
    return;
  }
  if (!file) {
    send(res, 404, '<!DOCTYPE html><html><body>File not found</body></html>');
    return;
  }
  if (thumbnail && !file.thumbnail) {
    send(res, 404, '<!DOCTYPE html><html><body>File not found</body></html>');
    return;
  }
  state.downloads.set(id, (state.downloads.get(id) ?? 0) + 1);
  sendFile(
    res,
    thumbnail && file.thumbnail
      ? { ...file, name: `${file.name}.jpg`, mimetype: 'image/jpeg', content: file.thumbnail }
      : file,
  );
}
