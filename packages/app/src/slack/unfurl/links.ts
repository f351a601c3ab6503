/**
 * Which expense or group a link to the expense service names. The service writes its web
 * addresses as `https://secure.splitwise.com/expenses/<id>` (or on `www.`) for an expense,
 * `https://secure.splitwise.com/#/groups/<id>` (also without the `#/`) for a group, and
 * `…/#/groups/<group>/expenses/<id>` for an expense seen from its group. Anything else, a host
 * that only looks like the service's, or an id that is not a plain number, names nothing.
 *
 * The address is read by the URL parser and then by whole path segments: no regular expression
 * runs over text a person pasted.
 */

/** The service's domain; Slack sends the app links to it and to its subdomains (manifest.yml). */
export const SERVICE_DOMAIN = 'splitwise.com';

/** Longer addresses are not the service's own; Slack sends links of any length. */
const MAX_URL_LENGTH = 2_048;

/** Ids are positive integers; 15 digits stay exact in a JavaScript number. */
const MAX_ID_DIGITS = 15;

export type ServiceLink =
  | { kind: 'expense'; id: number; groupId?: number }
  | { kind: 'group'; id: number };

/** A positive id written in digits only (no sign, no spaces, no exponent), else undefined. */
function idOf(segment: string | undefined): number | undefined {
  if (segment === undefined || segment.length === 0 || segment.length > MAX_ID_DIGITS)
    return undefined;
  for (let i = 0; i < segment.length; i += 1) {
    const code = segment.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  const id = Number(segment);
  return id > 0 ? id : undefined;
}

/** Whether `host` is the service's domain or one of its subdomains (not `evilsplitwise.com`). */
function isServiceHost(host: string): boolean {
  return host === SERVICE_DOMAIN || host.endsWith(`.${SERVICE_DOMAIN}`);
}

/** The non-empty segments of a path, a trailing slash ignored: `/groups/7/` -> [groups, 7]. */
function segmentsOf(path: string): string[] {
  const parts = path.split('/');
  if (parts[0] === '') parts.shift();
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** `expenses/<id>`, `groups/<id>` or `groups/<group>/expenses/<id>`. */
function linkOf(segments: readonly string[]): ServiceLink | undefined {
  const [first, second, third, fourth] = segments;
  if (segments.length === 2 && first === 'expenses') {
    const id = idOf(second);
    return id === undefined ? undefined : { kind: 'expense', id };
  }
  if (segments.length === 2 && first === 'groups') {
    const id = idOf(second);
    return id === undefined ? undefined : { kind: 'group', id };
  }
  if (segments.length === 4 && first === 'groups' && third === 'expenses') {
    const groupId = idOf(second);
    const id = idOf(fourth);
    return groupId === undefined || id === undefined ? undefined : { kind: 'expense', id, groupId };
  }
  return undefined;
}

/** The expense or group `url` names at the service, or undefined when it names neither. */
export function parseServiceLink(url: string): ServiceLink | undefined {
  if (url.length > MAX_URL_LENGTH) return undefined;
  // URL.parse answers null for a text that is no URL, where `new URL` would cost a thrown error.
  const parsed = URL.parse(url);
  if (parsed === null) return undefined;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return undefined;
  if (!isServiceHost(parsed.hostname)) return undefined;
  const path = segmentsOf(parsed.pathname);
  if (path.length > 0) return linkOf(path);
  // The service's web app routes in the fragment: `/#/groups/7`.
  if (!parsed.hash.startsWith('#/')) return undefined;
  const fragment = parsed.hash.slice(1);
  const query = fragment.indexOf('?');
  return linkOf(segmentsOf(query === -1 ? fragment : fragment.slice(0, query)));
}
