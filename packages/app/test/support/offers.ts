/**
 * Signed values for tests that build views and read them back: the app's own signer, under a
 * fixed key, with a clock the test may move.
 */
import { createOffers, type Offers } from '../../src/slack/shared/offers.js';
import { createSigner } from '../../src/store/index.js';

export const ANN = { team_id: 'T0001', user_id: 'U0ANN' };
export const BOB = { team_id: 'T0001', user_id: 'U0BOB' };

export function testOffers(now: () => Date = () => new Date()): Offers {
  return createOffers(createSigner(Buffer.alloc(32, 7)), now);
}
