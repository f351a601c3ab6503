/**
 * The one way a step says "stopped, and the person was told why": it gives TOLD, and its caller
 * returns at once, telling nothing more. Kept apart from undefined and null, which mean "none"
 * (no group, no receipt) and are answers a caller goes on with.
 */
export const TOLD: unique symbol = Symbol('told');
export type Told = typeof TOLD;

/** Whether a step stopped after telling the person; narrows what it gave otherwise. */
export function told<T>(outcome: T | Told): outcome is Told {
  return outcome === TOLD;
}
