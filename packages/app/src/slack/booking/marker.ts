/**
 * The marker that makes a booking findable again at the service. The service has no idempotency
 * key and no field of its own for one, so the marker travels in the expense's notes (`details`),
 * which the service stores and returns in get_expenses. It is derived from the command's own key
 * (`command:<team>:<trigger id>`, `form:<team>:<root view id>`, `settle-part:<team>:<view id>`), so
 * that every run of the same command, on any replica and after any restart, looks for the same
 * marker.
 */
import { createHash } from 'node:crypto';

/**
 * People read the notes in the service's own app too: the marker says where the expense came
 * from, and carries the reference the app looks for. It is the same words in every language: every
 * replica, and every earlier booking, must find it again whoever booked it, and the notes' other
 * readers are not the booker's language's alone.
 */
const PREFIX = 'Booked from Slack, ref ';
/** What bookings carried before the marker read as a sentence; still left out of notes shown. */
const LEGACY_PREFIX = 'split-ref:';
/** 16 base64url characters, 96 bits: two commands never share one. */
const LENGTH = 16;

export function bookingMarker(key: string): string {
  return `${PREFIX}${createHash('sha256').update(key).digest('base64url').slice(0, LENGTH)}`;
}

/**
 * Whether the notes carry this marker, in either of its forms: a job taken over from a replica
 * still running the earlier version sent the older one.
 */
export function carriesMarker(details: string | null | undefined, marker: string): boolean {
  if (!details) return false;
  const legacy = marker.startsWith(PREFIX) ? LEGACY_PREFIX + marker.slice(PREFIX.length) : marker;
  return details.includes(marker) || details.includes(legacy);
}

/** The notes sent with a booking: the person's own, then the marker on a line of its own. */
export function withMarker(details: string | undefined, marker: string): string {
  return details ? `${details}\n\n${marker}` : marker;
}

const TRAILING = new RegExp(`(?:^|\\n\\n)(?:${PREFIX}|${LEGACY_PREFIX})[\\w-]{${LENGTH}}$`);

/** The notes a person wrote, without the marker this app added to them. */
export function notesOf(details: string | null | undefined): string {
  return (details ?? '').replace(TRAILING, '');
}

/** What makes a booking happen once, whatever fails and however often the command arrives. */
export interface Once {
  /** Sent in the expense's notes and looked for when an outcome is unknown (`bookingMarker`). */
  marker: string;
  /** When an earlier run of the same command sent its create (ms), if one did. */
  sentAt: number | undefined;
  /** Records, durably, that a create is about to be sent at `at`; resolves before it is sent. */
  sending(at: number): Promise<void>;
}
