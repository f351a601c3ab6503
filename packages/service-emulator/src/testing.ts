/**
 * Raw-HTTP helpers for talking to the emulator in tests, independent of the project's service
 * client (src/service): the emulator's tests must not lean on the code they are meant to check.
 */

/** Reply bodies in tests are read loosely; the assertions are what check their shape. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Loose = any;

export interface Reply<T = Loose> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CreatedUser {
  user: { id: number; first_name: string; last_name: string | null; email: string } & Record<
    string,
    unknown
  >;
  api_key: string;
}

export interface NewUserInput {
  email: string;
  first_name: string;
  last_name?: string | null;
  default_currency?: string;
}

export type Scalar = string | number | boolean;
export type CallParams = Record<string, Scalar | undefined>;

async function readReply(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') {
    body = JSON.parse(text);
  }
  return { status: response.status, body, headers: response.headers };
}

/** A control-plane call: JSON in, JSON out, e.g. control(url, 'POST', 'apps', {redirect_uri}). */
export async function control<T = Loose>(
  url: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Reply<T>> {
  const response = await fetch(`${url}/__emulator/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return readReply(response);
}

/** Creates a service user through the control plane; throws unless it worked. */
export async function createUser(url: string, input: NewUserInput): Promise<CreatedUser> {
  const reply = await control<CreatedUser>(url, 'POST', 'users', input);
  if (reply.status !== 201) {
    throw new Error(`createUser failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

let counter = 0;

/** A user with a unique e-mail, for tests that do not care who it is. */
export function someUser(url: string, firstName = 'Test', lastName: string | null = 'Person') {
  counter += 1;
  const email = `${firstName.toLowerCase()}.${Date.now().toString(36)}.${counter}@example.com`;
  return createUser(url, { email, first_name: firstName, last_name: lastName });
}

export function toForm(params: CallParams = {}): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) form.append(key, String(value));
  }
  return form;
}

/**
 * An API call as the SDKs make it: `op` is "get_expenses" or "get_expense/12"; GET parameters go
 * in the query string, POST parameters in a form-urlencoded body. `key` is an API key or OAuth 2.0
 * access token sent as Bearer; undefined sends no credentials.
 */
export async function call<T = Loose>(
  url: string,
  key: string | undefined,
  method: 'GET' | 'POST',
  op: string,
  params?: CallParams,
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  let target = `${url}/api/v3.0/${op}`;
  let body: string | undefined;
  if (method === 'GET') {
    const query = toForm(params).toString();
    if (query) target += `?${query}`;
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = toForm(params).toString();
  }
  const response = await fetch(target, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  return readReply(response);
}

/** GET and POST as a person (their API key), against an emulator whose URL is known later. */
export function actingAs(url: () => string) {
  return {
    get: (u: CreatedUser, op: string, params?: CallParams) =>
      call(url(), u.api_key, 'GET', op, params),
    post: (u: CreatedUser, op: string, params?: CallParams) =>
      call(url(), u.api_key, 'POST', op, params),
  };
}

/** The service's 403 and 404 bodies, as it sends them. */
export const FORBIDDEN = {
  errors: { base: ['Invalid API Request: you do not have permission to perform that action'] },
};
export const NOT_FOUND = { errors: { base: ['Invalid API Request: record not found'] } };

/** Like call(), with a JSON body (nested objects allowed: the emulator flattens them with "__"). */
export async function callJson<T = Loose>(
  url: string,
  key: string | undefined,
  op: string,
  body: unknown,
): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${url}/api/v3.0/${op}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readReply(response);
}

/** A raw request with any method, headers and body, for the corners the helpers above smooth over. */
export async function raw<T = Loose>(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<Reply<T>> {
  return readReply(await fetch(`${url}${path}`, { redirect: 'manual', ...init }));
}

/** Request counts per route from the request log ("GET /api/v3.0/get_expenses" -> n). */
export async function requestCounts(url: string): Promise<Record<string, number>> {
  return (await control<{ counts: Record<string, number> }>(url, 'GET', 'requests')).body.counts;
}

export interface HtmlForm {
  action: string;
  method: string;
  /** Hidden inputs and the values of filled-in text inputs. */
  fields: Record<string, string>;
  /** The submit buttons' name=value pairs ("decision" -> ["deny", "allow"]). */
  buttons: { name: string; value: string; label: string }[];
  /** Names of the visible text and e-mail inputs. */
  inputs: string[];
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
}

/** Reads the first <form> of an emulator page the way a browser would submit it. */
export function parseForm(html: string): HtmlForm {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no <form> in page: ${html.slice(0, 500)}`);
  const open = /<form\b[^>]*>/.exec(form[0])![0];
  const fields: Record<string, string> = {};
  const inputs: string[] = [];
  for (const [tag] of form[1]!.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    if (!name) continue;
    const type = attribute(tag, 'type') ?? 'text';
    if (type === 'hidden') fields[name] = attribute(tag, 'value') ?? '';
    else inputs.push(name);
  }
  const buttons = [...form[1]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(
    ([, attrs, label]) => ({
      name: attribute(` ${attrs}`, 'name') ?? '',
      value: attribute(` ${attrs}`, 'value') ?? '',
      label: label!.trim(),
    }),
  );
  return {
    action: attribute(open, 'action') ?? '',
    method: (attribute(open, 'method') ?? 'get').toUpperCase(),
    fields,
    buttons,
    inputs,
  };
}

/** Submits a parsed form with extra values, as a browser would (no redirect following). */
export async function submitForm(
  url: string,
  form: HtmlForm,
  values: Record<string, string>,
): Promise<Reply<string>> {
  const response = await fetch(`${url}${form.action}`, {
    method: form.method,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form.fields, ...values }).toString(),
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

export { type InProcessEmulator, inProcessEmulator } from './in-process.js';
