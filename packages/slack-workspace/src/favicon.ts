/**
 * The workspace's icon, for the page and its server-rendered pages (sign-in, install): an SVG
 * written here, served at /favicon.svg, which the pages link to, and at /favicon.ico, which
 * browsers ask for on their own.
 */
import type { ServerResponse } from 'node:http';

export const FAVICON_PATHS: ReadonlySet<string> = new Set(['/favicon.svg', '/favicon.ico']);

/** The `<link>` each page's head carries. */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

// A coin split in two on the page's green.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#13795b"/>
<circle cx="16" cy="16" r="9" fill="#fff"/>
<path d="M21.5 7.5L10.5 24.5" stroke="#13795b" stroke-width="3"/>
</svg>
`;

export function serveFavicon(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' });
  res.end(SVG);
}
