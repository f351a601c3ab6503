/**
 * What one event, command or click may ask Slack about people. An expense at the service can hold
 * any number of people, a group any number of members, and a message several links: turned into
 * Slack ids one lookup each, one message once cost a thousand users.lookupByEmail calls. Each
 * request makes one budget and hands it to every directory lookup it makes, so the bound holds
 * whatever the request touches; past it, people are shown by what the app already knows (the
 * directory's cache) or by the service's own names.
 */

/** Slack lookups (users.info, users.lookupByEmail) one event, command or click may make. */
export const LOOKUPS_PER_REQUEST = 50;

export interface LookupBudget {
  /** Takes one lookup; false once the request has made all it may. */
  take(): boolean;
  /** Lookups taken so far. */
  readonly spent: number;
  /** Lookups asked for past the cap, and so not made. */
  readonly refused: number;
}

/** A fresh budget, for one request: every lookup it makes goes through it. */
export function lookupBudget(cap = LOOKUPS_PER_REQUEST): LookupBudget {
  let spent = 0;
  let refused = 0;
  return {
    take() {
      if (spent >= cap) {
        refused += 1;
        return false;
      }
      spent += 1;
      return true;
    },
    get spent() {
      return spent;
    },
    get refused() {
      return refused;
    },
  };
}

/**
 * A lookup not made: the request spent its budget, or Slack asked the app to wait before calling
 * that method again (its Retry-After has not passed). Either way the caller shows what it knows.
 */
export class LookupRefused extends Error {
  override name = 'LookupRefused';
  constructor(
    readonly method: string,
    readonly reason: 'budget' | 'rate_limited',
  ) {
    super(
      reason === 'budget'
        ? `${method} not called: the request made all the lookups it may`
        : `${method} not called: Slack asked to wait before calling it again`,
    );
  }
}
