import { isClockInstant, outOfRange } from './clock.js';
import type { Emulator, Exchange } from './context.js';
import { validateFault } from './faults.js';
import { errorsBody, FORM_LIMIT_BYTES, HttpError, parseJson, readRaw, sendJson } from './http.js';
import { LedgerInputError } from './ledger.js';
import type { NewUser } from './types.js';

/**
 * The control plane under /__emulator/: JSON in, JSON out, no credentials. It exists for tests and
 * demos, which is why the emulator binds to loopback unless told otherwise.
 */
export async function handleControl(emu: Emulator, ex: Exchange): Promise<void> {
  const path = ex.pathname.replace(/\/+$/, '');
  const key = `${ex.method} ${path}`;
  // Every answer waits until what it reports (or shows) is on disk.
  const send = async (status: number, body: unknown) => {
    await emu.durable();
    sendJson(ex.res, ex.startedAt, status, body);
  };

  switch (key) {
    case 'POST /__emulator/users': {
      const input = await readObject(ex);
      const user = createUser(emu, input);
      const apiKey = emu.auth.issueApiKey(user.id);
      await send(201, { user, api_key: apiKey });
      return;
    }
    case 'POST /__emulator/api_keys': {
      const input = await readObject(ex);
      const userId = requireUserId(emu, input.user_id);
      const apiKey = emu.auth.issueApiKey(userId);
      await send(201, { user_id: userId, api_key: apiKey });
      return;
    }
    case 'POST /__emulator/apps': {
      const input = await readObject(ex);
      const redirectUri = input.redirect_uri;
      if (typeof redirectUri !== 'string' || !isAbsoluteUrl(redirectUri)) {
        throw badRequest('redirect_uri must be an absolute http(s) URL');
      }
      if (input.name !== undefined && typeof input.name !== 'string') {
        throw badRequest('name must be a string');
      }
      const ownerId =
        input.owner_id === undefined || input.owner_id === null
          ? null
          : requireUserId(emu, input.owner_id, 'owner_id');
      const app = emu.auth.registerApp({
        redirect_uri: redirectUri,
        ...(typeof input.name === 'string' ? { name: input.name } : {}),
        owner_id: ownerId,
      });
      await send(201, app);
      return;
    }
    case 'POST /__emulator/tokens': {
      const input = await readObject(ex);
      const userId = requireUserId(emu, input.user_id);
      const clientId = input.client_id;
      if (typeof clientId !== 'string' || !emu.auth.apps.has(clientId)) {
        throw badRequest('client_id must name a registered app');
      }
      const accessToken = emu.auth.issueAccessToken(userId, clientId);
      await send(201, { access_token: accessToken, token_type: 'bearer' });
      return;
    }
    case 'POST /__emulator/tokens/revoke': {
      const input = await readObject(ex);
      if (typeof input.access_token !== 'string') throw badRequest('access_token is required');
      const revoked = emu.auth.revoke(input.access_token);
      await send(revoked ? 200 : 404, { revoked });
      return;
    }
    case 'POST /__emulator/seed': {
      const { users } = emu.ledger.seedDemo();
      const people = users.map((user) => ({ user, api_key: emu.auth.issueApiKey(user.id) }));
      await send(201, { users: people });
      return;
    }
    case 'POST /__emulator/reset': {
      emu.ledger.reset();
      emu.auth.reset();
      emu.consent.reset();
      emu.faults.clear();
      emu.log.clear();
      await send(200, { reset: true });
      return;
    }
    case 'GET /__emulator/faults':
      await send(200, { faults: emu.faults.list() });
      return;
    case 'POST /__emulator/faults': {
      const fault = validateFault(await readJson(ex));
      if (typeof fault === 'string') throw badRequest(fault);
      await send(201, emu.faults.add(fault));
      return;
    }
    case 'DELETE /__emulator/faults':
      emu.faults.clear();
      await send(200, { faults: [] });
      return;
    case 'GET /__emulator/requests':
      await send(200, emu.log.toJSON());
      return;
    case 'DELETE /__emulator/requests':
      emu.log.clear();
      await send(200, { requests: [], counts: {}, total: 0 });
      return;
    case 'GET /__emulator/clock':
      await send(200, { now: emu.clock.now().toISOString() });
      return;
    case 'POST /__emulator/clock': {
      const input = await readObject(ex);
      // Both are checked before the clock moves, so a refused body leaves it where it was.
      let target = emu.clock.now().getTime();
      let instant: number | undefined;
      if (input.now !== undefined) {
        instant = typeof input.now === 'string' ? Date.parse(input.now) : Number.NaN;
        if (Number.isNaN(instant)) throw badRequest('now must be an ISO 8601 timestamp');
        target = instant;
      }
      const advance = input.advance_ms;
      if (advance !== undefined) {
        if (typeof advance !== 'number' || !Number.isFinite(advance)) {
          throw badRequest('advance_ms must be a number of milliseconds');
        }
        target += advance;
      }
      if (!isClockInstant(target)) throw badRequest(outOfRange());
      if (instant !== undefined) emu.clock.set(new Date(target));
      else if (typeof advance === 'number') emu.clock.advance(advance);
      await send(200, { now: emu.clock.now().toISOString() });
      return;
    }
  }
  const faultId = /^DELETE \/__emulator\/faults\/([^/]+)$/.exec(key);
  if (faultId) {
    const removed = emu.faults.remove(decodeURIComponent(faultId[1]!));
    await send(removed ? 200 : 404, removed ? { deleted: true } : errorsBody('No such fault'));
    return;
  }
  await send(404, errorsBody(`Unknown control-plane route: ${ex.method} ${ex.pathname}`));
}

function badRequest(message: string): HttpError {
  return new HttpError(400, errorsBody(message));
}

function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

async function readJson(ex: Exchange): Promise<unknown> {
  const raw = await readRaw(ex.req, FORM_LIMIT_BYTES);
  const text = raw.toString('utf8').trim();
  if (text === '') return {};
  return parseJson(text);
}

async function readObject(ex: Exchange): Promise<Record<string, unknown>> {
  const value = await readJson(ex);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function requireUserId(emu: Emulator, value: unknown, name = 'user_id'): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isInteger(id) || !emu.ledger.getUser(id)) {
    throw badRequest(`${name} must be the id of an existing user`);
  }
  return id;
}

function createUser(emu: Emulator, input: Record<string, unknown>) {
  const { email, first_name, last_name, default_currency } = input;
  if (typeof email !== 'string' || email.trim() === '') throw badRequest('email is required');
  if (typeof first_name !== 'string' || first_name.trim() === '') {
    throw badRequest('first_name is required');
  }
  if (last_name !== undefined && last_name !== null && typeof last_name !== 'string') {
    throw badRequest('last_name must be a string');
  }
  if (default_currency !== undefined && typeof default_currency !== 'string') {
    throw badRequest('default_currency must be a currency code');
  }
  const newUser: NewUser = { email, first_name };
  if (last_name !== undefined) newUser.last_name = last_name as string | null;
  if (default_currency !== undefined) newUser.default_currency = default_currency as string;
  try {
    return emu.ledger.createUser(newUser);
  } catch (error) {
    if (error instanceof LedgerInputError) throw badRequest(error.message);
    throw error;
  }
}
