import type { types } from '@slack/bolt';

/** What every surface that posts a message takes: fallback text (notifications, screen readers) and blocks. */
export interface SlackMessage {
  text: string;
  blocks: types.KnownBlock[];
}
