/**
 * Wire shapes of people and groups, built from records as the service shows them: users, the
 * current user, friends with their balances, groups with their debts, and the "Non-group
 * expenses" pseudo-group. Amounts leave integer minor units only here, as decimal strings.
 */

import { friendBalances } from './balances.js';
import type { DebtRow } from './debts.js';
import type {
  Balance,
  CurrentUser,
  Debt,
  Friend,
  Group,
  GroupMember,
  GroupRecord,
  ReducedUser,
  User,
  UserRecord,
} from './model.js';
import { currencyExponent, toWireAmount } from './money.js';
import { stamp } from './params.js';
import type { State } from './state.js';

const AVATAR_COLORS = ['blue', 'orange', 'green', 'pink', 'purple', 'grey', 'red', 'teal'];
const AVATAR_BASE = 'https://s3.amazonaws.com/splitwise/uploads/user/default_avatars';
const GROUP_AVATAR_BASE = 'https://s3.amazonaws.com/splitwise/uploads/group/default_avatars';

/** Who System comments and unknown ids are shown as. */
export const SYSTEM_USER: ReducedUser = {
  id: 0,
  first_name: 'Splitwise',
  last_name: null,
  picture: { medium: null },
};

/** Default avatars depend only on the user id, so they are built once per id. */
const pictures = new Map<number, User['picture']>();

function pictureOf(user: UserRecord): User['picture'] {
  const cached = pictures.get(user.id);
  if (cached) return cached;
  const color = AVATAR_COLORS[user.id % AVATAR_COLORS.length];
  const n = (user.id % 50) + 1;
  const at = (size: number) => `${AVATAR_BASE}/avatar-${color}${n}-${size}px.png`;
  const picture = { small: at(50), medium: at(100), large: at(200) };
  pictures.set(user.id, picture);
  return picture;
}

export function userShape(user: UserRecord): User {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    registration_status: user.registration_status,
    picture: pictureOf(user),
    custom_picture: false,
  };
}

export function currentUserShape(state: State, user: UserRecord): CurrentUser {
  // Rows are appended in time order: find the first unread one by binary search.
  const list = state.notifications.get(user.id) ?? [];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.created_at > user.notifications_read) hi = mid;
    else lo = mid + 1;
  }
  return {
    ...userShape(user),
    force_refresh_at: null,
    locale: user.locale,
    country_code: user.country_code,
    date_format: user.date_format,
    default_currency: user.default_currency,
    default_group_id: user.default_group_id,
    notifications_read: stamp(user.notifications_read),
    notifications_count: list.length - lo,
    notifications: { ...user.notification_settings },
    add_friend_url: `https://www.splitwise.com/add_friend/${user.id.toString(36)}`,
  };
}

export function reducedUser(state: State, userId: number): ReducedUser {
  const user = state.users.get(userId);
  if (!user) return { ...SYSTEM_USER, id: userId };
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    picture: { medium: pictureOf(user).medium },
  };
}

export function reducedWithCustom(
  state: State,
  userId: number | null,
): (ReducedUser & { custom_picture: boolean }) | null {
  return userId === null ? null : { ...reducedUser(state, userId), custom_picture: false };
}

/** Per-currency amounts in currency-code order; zeros only when asked for. */
export function balanceList(amounts: Map<string, number>, keepZero: boolean): Balance[] {
  return [...amounts.entries()]
    .filter(([, amount]) => keepZero || amount !== 0)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([currency, amount]) => ({
      currency_code: currency,
      amount: toWireAmount(amount, currencyExponent(currency)),
    }));
}

export function friendShape(state: State, me: number, friendId: number): Friend {
  const friend = state.users.get(friendId)!;
  const { total, groups } = friendBalances(state, me, friendId);
  const record = state.friendship(me, friendId);
  return {
    ...userShape(friend),
    balance: balanceList(total, false),
    groups: groups.map((g) => ({ group_id: g.group_id, balance: balanceList(g.balance, false) })),
    updated_at: stamp(record?.updated_at ?? friend.created_at),
  };
}

function debtShapes(rows: DebtRow[]): Debt[] {
  return rows.map((d) => ({
    from: d.from,
    to: d.to,
    amount: toWireAmount(d.amount, currencyExponent(d.currency)),
    currency_code: d.currency,
  }));
}

function groupAvatars(group: { id: number; group_type?: string }) {
  const kind = group.id === 0 ? 'nongroup' : (group.group_type ?? 'other');
  const at = (size: string) => `${GROUP_AVATAR_BASE}/${kind}-${size}.png`;
  return {
    avatar: {
      small: at('50px'),
      medium: at('100px'),
      large: at('200px'),
      xlarge: at('500px'),
      xxlarge: at('1000px'),
      original: null,
    },
    tall_avatar: { xlarge: at('tall-288px'), large: at('tall-192px') },
    custom_avatar: false,
    cover_photo: { xxlarge: at('cover-1000px'), xlarge: at('cover-500px') },
  };
}

export function groupShape(state: State, group: GroupRecord): Group {
  const ledger = state.ledgers.get(group.id);
  const members: GroupMember[] = group.members.map((id) => ({
    ...userShape(state.users.get(id)!),
    balance: balanceList(ledger?.nets.get(id) ?? new Map(), true),
  }));
  return {
    id: group.id,
    name: group.name,
    created_at: stamp(group.created_at),
    updated_at: stamp(group.updated_at),
    members,
    simplify_by_default: group.simplify_by_default,
    original_debts: debtShapes(ledger?.originalDebts() ?? []),
    simplified_debts: debtShapes(ledger?.simplifiedDebts() ?? []),
    whiteboard: group.whiteboard,
    whiteboard_lock_version: group.whiteboard_lock_version,
    whiteboard_updated_at:
      group.whiteboard_updated_at === null ? null : stamp(group.whiteboard_updated_at),
    whiteboard_updated_by: group.whiteboard_updated_by,
    group_type: group.group_type,
    invite_link: `https://www.splitwise.com/join/${group.invite_token}`,
    group_reminders: null,
    ...groupAvatars(group),
  };
}

/** The "Non-group expenses" pseudo-group as `me` sees it. */
export function nonGroupShape(state: State, me: number): Group {
  const ledger = state.ledgers.get(0);
  const user = state.users.get(me)!;
  const rows: DebtRow[] = [];
  if (ledger) {
    const others = new Set<number>(state.friendships.get(me)?.keys() ?? []);
    for (const other of [...others].sort((a, b) => a - b)) {
      for (const [currency, owed] of ledger.owedTo(me, other)) {
        if (owed > 0) rows.push({ from: other, to: me, amount: owed, currency });
        else rows.push({ from: me, to: other, amount: -owed, currency });
      }
    }
  }
  rows.sort((x, y) => x.from - y.from || x.to - y.to || (x.currency < y.currency ? -1 : 1));
  const debts = debtShapes(rows);
  return {
    id: 0,
    name: 'Non-group expenses',
    created_at: null,
    updated_at: stamp(state.now()),
    members: [
      { ...userShape(user), balance: balanceList(ledger?.nets.get(me) ?? new Map(), true) },
    ],
    simplify_by_default: false,
    original_debts: debts,
    simplified_debts: debts,
    ...groupAvatars({ id: 0 }),
  };
}
