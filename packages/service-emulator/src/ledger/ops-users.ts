/** Users and friends: get_current_user, get_user, update_user, and the friend operations. */
import type { ApiResult } from '../types.js';
import { friendHasBalance } from './balances.js';
import { type Ctx, ok } from './ctx.js';
import { NOTIFICATION_KEYS, type NotificationKey, type UserRecord } from './model.js';
import {
  boolParam,
  flattened,
  forbidden,
  has,
  intParam,
  isEmail,
  notFound,
  pathIdOf,
  Reply,
  rejectUnknown,
} from './params.js';
import { currencyUnits } from './reference.js';
import { currentUserShape, friendShape, userShape } from './shapes.js';
import type { State } from './state.js';
import { nameFor } from './text.js';

export function getCurrentUser({ state, actor }: Ctx): ApiResult {
  return ok({ user: currentUserShape(state, actor) });
}

export function getUser({ state, actor, pathId }: Ctx): ApiResult {
  const user = state.users.get(pathIdOf(pathId));
  if (!user) throw notFound();
  if (!state.acquainted(actor.id, user.id)) throw forbidden();
  return ok({ user: userShape(user) });
}

const NAME_FIELDS = new Set(['first_name', 'last_name', 'email']);
const OWN_FIELDS = new Set([
  'id',
  'first_name',
  'last_name',
  'email',
  'password',
  'locale',
  'default_currency',
  'date_format',
  'default_group_id',
]);

export function updateUser({ state, actor, params, pathId }: Ctx): ApiResult {
  rejectUnknown(
    params,
    (key) =>
      OWN_FIELDS.has(key) ||
      NOTIFICATION_KEYS.some(
        (n) => key === `notification_settings__${n}` || key === `notifications__${n}`,
      ),
  );
  const bodyId = intParam(params, 'id');
  const targetId = pathId !== undefined && pathId !== '' ? pathIdOf(pathId) : (bodyId ?? actor.id);
  const target = state.users.get(targetId);
  if (!target) throw notFound();
  const own = target.id === actor.id;
  if (!own) {
    const editable =
      (target.registration_status === 'dummy' || target.registration_status === 'invited') &&
      state.acquainted(actor.id, target.id);
    if (!editable) throw forbidden();
    for (const key of Object.keys(params)) {
      if (key !== 'id' && !NAME_FIELDS.has(key)) throw forbidden();
    }
  }
  const settings: Partial<Record<NotificationKey, boolean>> = {};
  for (const n of NOTIFICATION_KEYS) {
    const value =
      boolParam(params, `notification_settings__${n}`) ?? boolParam(params, `notifications__${n}`);
    if (value !== undefined) settings[n] = value;
  }
  const defaultGroup = intParam(params, 'default_group_id');

  const errors: string[] = [];
  const firstName = params.first_name;
  if (firstName !== undefined && firstName.trim() === '') errors.push("First name can't be blank");
  const email = params.email?.trim();
  if (email !== undefined) {
    if (!isEmail(email)) errors.push('Email is invalid');
    else {
      const holder = state.userByEmail(email);
      if (holder && holder.id !== target.id) errors.push('Email has already been taken');
    }
  }
  const currency = params.default_currency?.trim().toUpperCase();
  if (currency !== undefined && !currencyUnits.has(currency)) {
    errors.push('Default currency is not a supported currency code');
  }
  const locale = params.locale?.trim();
  if (locale !== undefined && !/^[a-z]{2}(?:[-_][A-Za-z]{2})?$/.test(locale)) {
    errors.push('Locale is invalid');
  }
  const dateFormat = params.date_format?.trim();
  if (
    dateFormat !== undefined &&
    !/^(?:MM\/DD\/YYYY|DD\/MM\/YYYY|YYYY\/MM\/DD|YYYY-MM-DD|DD\.MM\.YYYY)$/.test(dateFormat)
  ) {
    errors.push('Date format is invalid');
  }
  if (defaultGroup !== undefined && defaultGroup !== -1) {
    const group = state.groups.get(defaultGroup);
    if (!group || group.deleted_at !== null || !state.isMember(target.id, group)) {
      errors.push('Default group is not one of your groups');
    }
  }
  if (errors.length > 0) return ok({ user: null, errors: { base: errors } });

  // Expenses show people's names: their cached shapes must be rebuilt.
  state.forgetShapes();
  if (firstName !== undefined) target.first_name = firstName.trim();
  if (has(params, 'last_name')) target.last_name = params.last_name?.trim() || null;
  if (email !== undefined && email !== target.email) {
    state.emails.delete(target.email.toLowerCase());
    target.email = email;
    state.emails.set(email.toLowerCase(), target.id);
  }
  if (currency !== undefined) target.default_currency = currency;
  if (locale !== undefined) target.locale = locale;
  if (dateFormat !== undefined) target.date_format = dateFormat;
  if (defaultGroup !== undefined) target.default_group_id = defaultGroup;
  Object.assign(target.notification_settings, settings);
  return ok({ user: own ? currentUserShape(state, target) : userShape(target), errors: [] });
}

// ---- Friends ----

export function getFriends({ state, actor }: Ctx): ApiResult {
  const friends = [...(state.friendships.get(actor.id)?.keys() ?? [])]
    .filter((id) => state.users.has(id))
    .map((id) => friendShape(state, actor.id, id));
  return ok({ friends });
}

export function getFriend({ state, actor, pathId }: Ctx): ApiResult {
  const user = state.users.get(pathIdOf(pathId));
  if (!user) throw notFound();
  if (user.id === actor.id || !state.acquainted(actor.id, user.id)) throw forbidden();
  return ok({ friend: friendShape(state, actor.id, user.id) });
}

interface Invitee {
  email: string;
  first_name: string | undefined;
  last_name: string | undefined;
}

/** Finds or validates a person given by e-mail; answers a message when they cannot be added. */
function checkInvitee(state: State, actor: UserRecord, p: Invitee): string | undefined {
  if (!p.email) return 'Please supply an email address for this user';
  if (!isEmail(p.email)) return `"${p.email}" is not a valid email address`;
  const existing = state.userByEmail(p.email);
  if (existing?.id === actor.id) return 'You cannot add yourself as a friend';
  if (!existing && !p.first_name?.trim()) return 'Please supply a name for this user';
  return undefined;
}

function befriendInvitee(state: State, actor: UserRecord, p: Invitee): UserRecord {
  const user =
    state.userByEmail(p.email) ??
    state.addUser({
      email: p.email,
      first_name: p.first_name ?? '',
      last_name: p.last_name ?? null,
      status: 'dummy',
    });
  if (state.befriend(actor.id, user.id, state.now())) {
    state.notify(
      [actor.id, user.id],
      {
        type: 8,
        created_by: actor.id,
        source: { type: 'User', id: actor.id },
        image_shape: 'circle',
      },
      (reader) =>
        reader === actor.id
          ? `<strong>You</strong> added <strong>${nameFor(state, reader, user.id)}</strong> as a friend.`
          : `<strong>${nameFor(state, reader, actor.id)}</strong> added you as a friend.`,
    );
  }
  return user;
}

export function createFriend({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (k) =>
    [
      'user_email',
      'user_first_name',
      'user_last_name',
      'email',
      'first_name',
      'last_name',
    ].includes(k),
  );
  const invitee: Invitee = {
    email: (params.user_email ?? params.email ?? '').trim(),
    first_name: params.user_first_name ?? params.first_name,
    last_name: params.user_last_name ?? params.last_name,
  };
  const problem = checkInvitee(state, actor, invitee);
  if (problem)
    throw new Reply({ status: 400, body: { friend: null, errors: { base: [problem] } } });
  const user = befriendInvitee(state, actor, invitee);
  return ok({ friend: friendShape(state, actor.id, user.id) });
}

const FRIENDS_FIELDS = new Set([
  'email',
  'first_name',
  'last_name',
  'user_email',
  'user_first_name',
  'user_last_name',
]);

export function createFriends({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (key) => {
    const m = /^(users|friends)__\d{1,6}__([a-z_]+)$/.exec(key);
    return m !== null && FRIENDS_FIELDS.has(m[2]!);
  });
  const rows = [...flattened(params, 'users').values(), ...flattened(params, 'friends').values()];
  const invitees: Invitee[] = rows.map((r) => ({
    email: (r.email ?? r.user_email ?? '').trim(),
    first_name: r.first_name ?? r.user_first_name,
    last_name: r.last_name ?? r.user_last_name,
  }));
  const fail = (message: string) =>
    new Reply({ status: 400, body: { users: [], errors: { base: [message] } } });
  if (invitees.length === 0) throw fail('Please supply at least one user');
  const seen = new Set<string>();
  for (const invitee of invitees) {
    const problem = checkInvitee(state, actor, invitee);
    if (problem) throw fail(problem);
    const key = invitee.email.toLowerCase();
    if (seen.has(key)) throw fail(`${invitee.email} was included more than once`);
    seen.add(key);
  }
  const users = invitees.map((invitee) => befriendInvitee(state, actor, invitee));
  return ok({ users: users.map((u) => friendShape(state, actor.id, u.id)), errors: {} });
}

export function deleteFriend({ state, actor, pathId }: Ctx): ApiResult {
  const user = state.users.get(pathIdOf(pathId));
  if (!user) throw notFound();
  const failure = (reason: string) =>
    ok({
      success: false,
      errors: { base: ['There was an issue deleting that friendship', reason] },
    });
  if (!state.friendship(actor.id, user.id)) return failure('You are not friends with this user');
  if (friendHasBalance(state, actor.id, user.id)) {
    return failure('You cannot delete a friend while your balance with them is not zero');
  }
  state.unfriend(actor.id, user.id);
  state.notify(
    [actor.id, user.id],
    {
      type: 9,
      created_by: actor.id,
      source: { type: 'User', id: actor.id },
      image_shape: 'circle',
    },
    (reader) =>
      reader === actor.id
        ? `<strong>You</strong> removed <strong>${nameFor(state, reader, user.id)}</strong> as a friend.`
        : `<strong>${nameFor(state, reader, actor.id)}</strong> removed you as a friend.`,
  );
  return ok({ success: true, error: null });
}
