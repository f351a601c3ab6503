/** What a Settle up control carries, read back with its schema. */
import { type Infer, int, object, oneOf, optional, string } from '../../core/schema.js';

/**
 * What a Settle up button carries: the debt as it was shown, so that the click pays exactly that
 * amount, and only while it is still what is owed.
 */
export const settleRefSchema = object({
  /** Friend-wide (every shared group) or one group's debt. */
  k: oneOf(['f', 'g']),
  /** The friend's service id (k=f), or the group's id (k=g). */
  id: int({ min: 0 }),
  /** The other person in a group debt. */
  o: optional(int({ min: 1 })),
  c: string({ regex: /^[A-Z]{3}$/ }),
  /** Minor units, > 0. */
  a: int({ min: 1 }),
  /** 1 when the person clicking is the debtor. */
  p: oneOf([0, 1]),
  /** Which view the message shows again afterwards: all, friend, group. */
  v: oneOf(['a', 'f', 'g']),
  /** The other person's name, for the confirmation and the result. */
  n: string({ max: 60 }),
  /**
   * The locale the debt was shown in, so that a form opened from it (which must open before
   * anything about the person can be read) shows amounts the same way.
   */
  l: optional(string({ max: 35, regex: /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/ })),
});
export type SettleRef = Infer<typeof settleRefSchema>;

export function settleRefValue(ref: SettleRef): string {
  return JSON.stringify(settleRefSchema.parse({ ...ref, n: ref.n.slice(0, 60) }));
}

/**
 * The value with the locale in it when one is known and the value still fits `max` characters
 * (a menu option's value is short); without it otherwise, as the locale only shapes the display.
 */
export function settleRefValueIn(ref: SettleRef, locale: string | undefined, max: number): string {
  const plain = settleRefValue(ref);
  if (!locale || !settleRefSchema.safeParse({ ...ref, l: locale }).ok) return plain;
  const localised = settleRefValue({ ...ref, l: locale });
  return localised.length <= max ? localised : plain;
}

export function parseSettleRef(value: string | undefined): SettleRef | undefined {
  return settleRefSchema.readJson(value);
}
