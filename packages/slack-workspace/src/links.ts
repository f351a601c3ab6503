/**
 * Links in a message's text, as Slack finds them for app unfurling: `<https://…>` and
 * `<https://…|label>` (how Slack's client sends a link a person typed) and bare http(s) URLs,
 * matched against the manifest's unfurl domains (a domain covers its subdomains).
 */
import { createHash } from 'node:crypto';

export interface SharedLink {
  /** The unfurl domain the link matched (not necessarily its host: a subdomain matches too). */
  domain: string;
  url: string;
}

/** One regex pass, linear in the text: a wrapped link, or a bare URL outside any `<…>`. */
const LINK = /<(https?:\/\/[^\s<>|]+)(?:\|[^<>]*)?>|(https?:\/\/[^\s<>]+)/gi;

/** Characters Slack's client leaves out of the end of a bare URL typed in a sentence. */
const TRAILING = new Set([...'.,;:!?)\'"']);

/**
 * The URL without those characters at its end, found by walking back from it: a pattern anchored
 * at the end would start again at each of a long run of dots inside the URL.
 */
function withoutTrailing(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING.has(url[end - 1]!)) end--;
  return url.slice(0, end);
}

function unescapeText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Every http(s) URL in the text, unescaped, once each, in order. */
export function urlsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(LINK)) {
    const raw = match[1] ?? (match[2] === undefined ? '' : withoutTrailing(match[2]));
    const url = unescapeText(raw);
    if (url && !found.includes(url)) found.push(url);
  }
  return found;
}

/** The unfurl domain a URL belongs to: its host, or a domain its host is a subdomain of. */
export function unfurlDomain(url: string, domains: readonly string[]): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return domains.find((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** The links of a message the app unfurls: those in one of its domains. */
export function linksToUnfurl(text: string, domains: readonly string[]): SharedLink[] {
  if (domains.length === 0) return [];
  const links: SharedLink[] = [];
  for (const url of urlsIn(text)) {
    const domain = unfurlDomain(url, domains);
    if (domain) links.push({ domain, url });
  }
  return links;
}

function digest(channel: string, ts: string): string {
  return createHash('sha256').update(`unfurl:${channel}:${ts}`).digest('hex');
}

/** The `unfurl_id` of a posted message's links: `<channel>.<ts>.<hex>`, as Slack writes them. */
export function unfurlId(channel: string, ts: string): string {
  return `${channel}.${ts}.${digest(channel, ts)}`;
}

/** The message an `unfurl_id` names, or undefined when the workspace did not issue it. */
export function readUnfurlId(id: string): { channel: string; ts: string } | undefined {
  const match = /^([A-Z0-9]+)\.(\d+\.\d+)\.([0-9a-f]{64})$/.exec(id);
  if (!match) return undefined;
  const [, channel = '', ts = '', hex] = match;
  return digest(channel, ts) === hex ? { channel, ts } : undefined;
}
