/**
 * Shared pieces of the client's tests: an emulator per test file, clients pointed at it, the
 * control plane, and a recording fetch that lets a test see exactly what went on the wire while
 * the request still goes to the real emulator.
 */

import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import {
  type CreatedUser,
  control,
  type Loose,
  requestCounts,
  someUser,
} from '@split/service-emulator/testing';
import { parseMinor } from '../../src/core/money.js';
import { ServiceClient, type ServiceClientOptions } from '../../src/service/index.js';
import type { FetchLike } from '../../src/service/request.js';

export type { CreatedUser, Loose, RunningEmulator };
export { control, requestCounts, someUser };

export async function emulator(): Promise<RunningEmulator> {
  return startEmulator();
}

export function apiBase(url: string): string {
  return `${url}/api/v3.0`;
}

/** A client on the emulator, with short backoff steps so retry tests stay fast. */
export function clientFor(url: string, options: ServiceClientOptions = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: apiBase(url),
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    ...options,
  });
}

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Headers;
  /** The form body as sent, or the multipart FormData, or undefined for no body. */
  body: string | FormData | undefined;
}

export interface Recorder {
  fetch: FetchLike;
  calls: RecordedCall[];
  /** The form body of call `i` (default: the last) as ordered pairs. */
  form(i?: number): Array<[string, string]>;
  last(): RecordedCall;
}

export function recorder(): Recorder {
  const calls: RecordedCall[] = [];
  const last = () => {
    const call = calls[calls.length - 1];
    if (!call) throw new Error('no request was sent');
    return call;
  };
  return {
    calls,
    last,
    fetch: (input, init) => {
      calls.push({
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        headers: new Headers(init?.headers),
        body: init?.body as string | FormData | undefined,
      });
      return fetch(input, init);
    },
    form(i) {
      const call = i === undefined ? last() : calls[i];
      if (!call || typeof call.body !== 'string') throw new Error('not a form body');
      return [...new URLSearchParams(call.body).entries()];
    },
  };
}

export async function clearFaults(url: string): Promise<void> {
  await control(url, 'DELETE', 'faults');
}

export async function addFault(url: string, fault: Record<string, unknown>): Promise<void> {
  const reply = await control(url, 'POST', 'faults', fault);
  if (reply.status !== 201) throw new Error(`fault refused: ${JSON.stringify(reply.body)}`);
}

export async function resetRequests(url: string): Promise<void> {
  await control(url, 'DELETE', 'requests');
}

/** How many requests the emulator saw on a route ("POST /api/v3.0/create_expense"). */
export async function seen(url: string, route: string): Promise<number> {
  return (await requestCounts(url))[route] ?? 0;
}

export async function registerApp(
  url: string,
  redirect_uri = 'http://127.0.0.1:9/callback',
): Promise<{ client_id: string; client_secret: string; redirect_uri: string }> {
  const reply = await control(url, 'POST', 'apps', { redirect_uri });
  if (reply.status !== 201 && reply.status !== 200) {
    throw new Error(`app refused: ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

export async function issueToken(url: string, user_id: number, client_id: string): Promise<string> {
  const reply = await control(url, 'POST', 'tokens', { user_id, client_id });
  if (reply.status !== 201 && reply.status !== 200) {
    throw new Error(`token refused: ${JSON.stringify(reply.body)}`);
  }
  return reply.body.access_token;
}

/** The action and fields (hidden inputs) of the first form on an HTML page. */
export function parseForm(
  html: string,
  base: string,
): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form on the page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const tag = input[0];
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    const value = /value="([^"]*)"/.exec(tag)?.[1];
    if (name && /type="hidden"/.test(tag)) fields[name] = unescapeHtml(value ?? '');
  }
  return { action: new URL(unescapeHtml(form[1]!), base).toString(), fields };
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function postForm(action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/**
 * Plays the person on the consent screens: opens `authUrl`, signs in by e-mail, presses Allow.
 * Returns the final response (a redirect for OAuth 2.0 and OAuth 1.0a with callback, the verifier
 * page for OAuth 1.0a out-of-band).
 */
export async function consent(authUrl: string, email: string): Promise<Response> {
  const page = await fetch(authUrl, { redirect: 'manual' });
  const signIn = parseForm(await page.text(), authUrl);
  const afterSignIn = await postForm(signIn.action, { ...signIn.fields, email });
  const decide = parseForm(await afterSignIn.text(), authUrl);
  return postForm(decide.action, { ...decide.fields, decision: 'allow' });
}

/** Sums decimal strings exactly (as integer cents). */
export function cents(amounts: string[]): number {
  return amounts.reduce((sum, a) => sum + parseMinor(a, 2), 0);
}

export const SOME_EMAIL = (tag: string) =>
  `${tag}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.com`;
