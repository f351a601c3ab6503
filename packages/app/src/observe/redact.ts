/**
 * The last guard between a log line and stdout: in its message and fields, the configured
 * secrets, anything shaped like a credential or a one-time code, and e-mail addresses are
 * replaced before the line is written. Callers already avoid logging secrets; this catches what
 * libraries log on their own (the Slack Web API client logs request bodies at
 * debug level and redacts only fields named like "token", not a client_secret).
 */

const MASK = '[redacted]';

/** Credential shapes that are never worth printing, whatever their source. */
const PATTERNS: [RegExp, string][] = [
  // Slack tokens: bot, user, app-level, configuration, refresh.
  [/\b(xox[a-z]|xapp)-[A-Za-z0-9-]+/g, `$1-${MASK}`],
  [/\b(Bearer|Basic|OAuth)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, `$1$2${MASK}`],
  // "access_token":"...", access_token=..., client_secret: ... in JSON, forms and URLs.
  [
    /\b((?:access|refresh|id)_token|client_secret|signing_secret|oauth_token_secret|api_key|password)(\\?"?\s*[:=]\s*\\?"?)([^"\\&\s,}]+)/gi,
    `$1$2${MASK}`,
  ],
  // One-time codes and states in OAuth redirects, and a code at the start of a form body.
  // The value stops at a backslash too: in text that holds JSON, `\"` ends the URL.
  [/((?:^|[?&\s])(?:code|state)=)[^&\s"\\]+/g, `$1${MASK}`],
  // One-time codes in JSON (the Web API client logs the body of oauth.v2.access and of
  // openid.connect.token). Error codes (ECONNRESET, ERR_..., 404) are kept: they say what failed.
  [/\b(code\\?"\s*:\s*\\?")(?![A-Z0-9_]+\\?")([^"\\]+)/g, `$1${MASK}`],
  // E-mail addresses: users.info answers carry them, and so do messages that name an account.
  // A match starts only where a run of address characters does, so a long run is read once.
  [
    /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
    `[e-mail ${MASK}]`,
  ],
];

/** Secrets shorter than this are not matched on their own: they would mask ordinary words. */
const MIN_SECRET_LENGTH = 6;

/** A function that masks `secrets` (exact values) and credential shapes in a line. */
export function createScrubber(secrets: readonly (string | undefined)[]): (line: string) => string {
  const exact = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    exact.add(secret);
    // As it appears inside a JSON string.
    exact.add(JSON.stringify(secret).slice(1, -1));
    exact.add(encodeURIComponent(secret));
  }
  // Longest first, so that a secret containing another is masked whole.
  const values = [...exact].sort((a, b) => b.length - a.length);
  return (line) => {
    let out = line;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(MASK);
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };
}

/** The password of a store URL (redis://:pw@host, postgres://user:pw@host), if it has one. */
export function urlPassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}
