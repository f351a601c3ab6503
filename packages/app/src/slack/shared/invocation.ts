/**
 * One `/split` to carry out, as the features that start one describe it (the command, a message,
 * a workflow's step). Apart from split-context.ts so that deps.ts can name it without a cycle.
 */
import type { TypedWhere } from '../../store/index.js';
import type { Once } from '../booking/marker.js';

/** One `/split` to carry out: typed now, or saved while the person linked their account. */
export interface SplitInvocation {
  team_id: string;
  user_id: string;
  channel_id: string;
  text: string;
  /** Where the answer goes when it is carried out later. */
  response_url?: string | undefined;
  /** Written as a message (a mention, a DM): answered in that conversation and thread. */
  typed?: TypedWhere | undefined;
  /**
   * How a booking made by this command is kept to one (its marker, and an earlier run's create);
   * absent, a booking gets a marker of its own.
   */
  once?: Once | undefined;
  /**
   * False when nothing may be kept for after linking: a workflow's step reports its outcome at
   * once, and an expense booked later would contradict the failure it reported.
   */
  carry?: false | undefined;
  /** Told the expense once it is booked (a workflow's step gives its id and summary back). */
  booked?: ((expense: BookedSummary) => void) | undefined;
}

/** What a booking made, for whoever started it. */
export interface BookedSummary {
  id: number;
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  /** Slack ids of those who share it (members known only to the service are left out). */
  participants: string[];
}
