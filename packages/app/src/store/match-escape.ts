/**
 * Text matched literally where a store matches patterns: the namespace and key prefixes the
 * claims, jobs and Keyv stores look up are ours, but a team or user id searched for is not.
 */

/** For SQL's `LIKE … ESCAPE '\'` (SQLite and PostgreSQL alike). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** For Redis's glob patterns (SCAN MATCH). */
export function globEscape(text: string): string {
  return text.replace(/[\\*?[\]^-]/g, (c) => `\\${c}`);
}
