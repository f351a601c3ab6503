/** The demo data set behind `--seed` and `POST /__emulator/seed`. */
import type { ApiRequest, ApiResult, NewUser } from '../types.js';
import type { User } from './model.js';

/** The part of the Ledger the demo is built through: the operations clients call. */
export interface DemoLedger {
  handle(req: ApiRequest): ApiResult;
  createUser(input: NewUser): User;
  findUserByEmail(email: string): User | undefined;
  getUser(id: number): User | undefined;
}

/**
 * A small, realistic data set, built through the same operations clients call: three people
 * with accounts and one invited by e-mail, a trip group that simplifies debts (EUR), a home
 * group (USD), a non-group lunch, a payment and a comment. Seeding twice changes nothing.
 */
export function seedDemo(ledger: DemoLedger, now: number): { users: User[] } {
  const people = [
    { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
    { email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' },
  ];
  const existing = people.map((p) => ledger.findUserByEmail(p.email));
  if (existing.every((u) => u?.registration_status === 'confirmed')) {
    return { users: existing as User[] };
  }
  const [ada, grace, alan] = people.map(
    (p) => ledger.findUserByEmail(p.email) ?? ledger.createUser(p),
  ) as [User, User, User];
  const day = 86_400_000;
  const date = (daysAgo: number) => new Date(now - daysAgo * day).toISOString();
  const call = (actor: User, op: string, params: Record<string, string>) => {
    const result = ledger.handle({ op, method: 'POST', params, files: [], actorId: actor.id });
    if (result.status !== 200) throw new Error(`seedDemo: ${op} answered ${result.status}`);
    return result.body as Record<string, unknown>;
  };
  const trip = call(ada, 'create_group', {
    name: 'Lisbon trip',
    group_type: 'trip',
    simplify_by_default: 'true',
    users__0__email: grace.email,
    users__1__email: alan.email,
  }).group as { id: number };
  const home = call(grace, 'create_group', {
    name: 'Flat 4B',
    group_type: 'home',
    users__0__email: ada.email,
  }).group as { id: number };
  const dinner = call(ada, 'create_expense', {
    cost: '90.00',
    description: 'Dinner at Time Out Market',
    group_id: String(trip.id),
    split_equally: 'true',
    currency_code: 'EUR',
    category_id: '13',
    date: date(6),
  }).expenses as { id: number }[];
  call(grace, 'create_expense', {
    cost: '240.00',
    description: 'Hotel, two nights',
    group_id: String(trip.id),
    split_equally: 'true',
    currency_code: 'EUR',
    category_id: '47',
    date: date(5),
  });
  call(alan, 'create_expense', {
    cost: '30.00',
    description: 'Taxi from the airport',
    group_id: String(trip.id),
    currency_code: 'EUR',
    category_id: '36',
    date: date(5),
    users__0__user_id: String(alan.id),
    users__0__paid_share: '30.00',
    users__0__owed_share: '15.00',
    users__1__user_id: String(grace.id),
    users__1__paid_share: '0',
    users__1__owed_share: '15.00',
  });
  call(grace, 'create_expense', {
    cost: '1200.00',
    description: 'Rent',
    group_id: String(home.id),
    split_equally: 'true',
    currency_code: 'USD',
    category_id: '3',
    repeat_interval: 'monthly',
    date: date(20),
  });
  call(ada, 'create_expense', {
    cost: '84.36',
    description: 'Groceries',
    group_id: String(home.id),
    split_equally: 'true',
    currency_code: 'USD',
    category_id: '12',
    date: date(3),
  });
  call(ada, 'create_expense', {
    cost: '300.00',
    description: 'Payment',
    group_id: String(home.id),
    payment: 'true',
    currency_code: 'USD',
    date: date(2),
    users__0__user_id: String(ada.id),
    users__0__paid_share: '300.00',
    users__0__owed_share: '0',
    users__1__user_id: String(grace.id),
    users__1__paid_share: '0',
    users__1__owed_share: '300.00',
  });
  call(ada, 'create_expense', {
    cost: '40.00',
    description: 'Lunch',
    currency_code: 'USD',
    category_id: '13',
    date: date(1),
    users__0__user_id: String(ada.id),
    users__0__paid_share: '40.00',
    users__0__owed_share: '20.00',
    users__1__email: 'katherine@example.com',
    users__1__first_name: 'Katherine',
    users__1__last_name: 'Johnson',
    users__1__paid_share: '0',
    users__1__owed_share: '20.00',
  });
  call(grace, 'create_comment', {
    expense_id: String(dinner[0]!.id),
    content: 'Best bacalhau of the trip!',
  });
  return { users: [ada, grace, alan].map((u) => ledger.getUser(u.id)!) };
}
