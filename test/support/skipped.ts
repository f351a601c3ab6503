/**
 * Where the global setups say what they skipped: one line each. `npm test` (scripts/run-tests.mjs)
 * names a file in SKIPPED_FILE and prints its lines just above the count; a bare `npx vitest`
 * gets them on stderr as the run starts.
 */
import { appendFileSync } from 'node:fs';

export function reportSkipped(lines: string[]): void {
  if (lines.length === 0) return;
  const file = process.env.SKIPPED_FILE;
  if (file) appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
  else for (const line of lines) console.warn(line);
}
