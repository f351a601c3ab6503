/** Reading one friend's balance at the service, for payments and reminders. */
import { type Friend, type ServiceClient, ServiceNotFoundException } from '../../service/index.js';
import { type Direction, owedIn } from './partial.js';

/** The friend with the balance between us; undefined when the service knows no such friend. */
export function friendOrNone(client: ServiceClient, friendId: number): Promise<Friend | undefined> {
  return client.getFriend(friendId).catch((error: unknown) => {
    if (error instanceof ServiceNotFoundException) return undefined;
    throw error;
  });
}

/**
 * What is still owed in `direction` and `currency` after a payment, for the answer that tells
 * it; undefined when the balance cannot be read (the payment itself stands).
 */
export function owedAfter(
  client: ServiceClient,
  friendId: number,
  direction: Direction,
  currency: string,
): Promise<number | undefined> {
  return client
    .getFriend(friendId)
    .then((f) => owedIn(f.balance, direction).get(currency) ?? 0)
    .catch(() => undefined);
}
