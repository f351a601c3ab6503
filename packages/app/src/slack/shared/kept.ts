/**
 * What the app keeps about a person, in words: App Home lists it, and `/split disconnect` and
 * Home's "Remove my data" say what they removed.
 */
import type { KeptAbout } from '../../store/index.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line per thing kept; empty when nothing is. */
export function keptLines(kept: KeptAbout): string[] {
  const lines: string[] = [];
  if (kept.token) lines.push('the token of your expense account (encrypted)');
  if (kept.preferences) lines.push('your default group');
  if (kept.digest) {
    lines.push(
      kept.digest.snapshot
        ? 'your daily balance DM settings, with the balances it last showed you'
        : 'your daily balance DM settings',
    );
  }
  if (kept.lastBooked) lines.push('the last expense you booked from Slack (for /split undo)');
  if (kept.drafts)
    lines.push(count(kept.drafts, 'unfinished expense form', 'unfinished expense forms'));
  if (kept.linkStates) lines.push(count(kept.linkStates, 'connect link', 'connect links'));
  return lines;
}

/** What `/split disconnect` and Home's "Remove my data" answer. */
export function forgottenText(kept: KeptAbout): string {
  const lines = keptLines(kept);
  if (lines.length === 0) {
    return "You weren't connected, and I held nothing else about you. /split connect links your expense account.";
  }
  return `Disconnected. I removed everything I kept about you: ${lines.join('; ')}. Your expenses stay in the expense service; /split connect links your account again.`;
}
