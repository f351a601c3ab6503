/**
 * Ending a person's link to their service account, in one place. The token leaves the store and
 * what the directory cached for the link (their service profile, friends, groups, linked id)
 * leaves with it, so that nothing read with the old token still answers for them.
 */
import type { Forget, KeptAbout, SlackUserKey, TokenStore } from '../store/index.js';
import type { Directory } from './directory.js';

export interface Unlinking {
  /** Ends the link: the service refused the token (a 401), Unlink, or Slack revoked the grant. */
  unlink(user: SlackUserKey): Promise<void>;
  /**
   * Ends the link and removes everything else kept about the person (Disconnect, "Remove my
   * data"); says what there was.
   */
  forgetPerson(user: SlackUserKey): Promise<KeptAbout>;
}

export function createUnlinking(parts: {
  tokens: Pick<TokenStore, 'delete'>;
  forget: Pick<Forget, 'forgetPerson'>;
  directory: Pick<Directory, 'forget'>;
}): Unlinking {
  return {
    async unlink(user) {
      await parts.tokens.delete(user);
      parts.directory.forget(user);
    },
    async forgetPerson(user) {
      const kept = await parts.forget.forgetPerson(user);
      parts.directory.forget(user);
      return kept;
    },
  };
}
