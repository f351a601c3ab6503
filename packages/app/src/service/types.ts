/**
 * Resources as the service sends them: snake_case field names, money as
 * decimal strings ("20.0", "-14.2"), timestamps as ISO 8601 strings. A field the service did not
 * send is absent; fields the service sends as null are typed nullable.
 */

import type { ServiceErrors } from './errors.js';

export type Edition = 1 | 2 | 3;

export interface Picture {
  small?: string | null;
  medium?: string | null;
  large?: string | null;
}

export interface Receipt {
  large: string | null;
  original: string | null;
}

export type RegistrationStatus = 'confirmed' | 'dummy' | 'invited' | 'unsubscribed';

export interface User {
  id: number;
  first_name: string;
  last_name?: string | null;
  email?: string;
  registration_status?: RegistrationStatus | string;
  picture?: Picture;
  custom_picture?: boolean;
}

export interface NotificationSettings {
  added_as_friend?: boolean;
  added_to_group?: boolean;
  expense_added?: boolean;
  expense_updated?: boolean;
  bills?: boolean;
  payments?: boolean;
  monthly_summary?: boolean;
  announcements?: boolean;
}

export interface CurrentUser extends User {
  force_refresh_at?: string | null;
  locale?: string;
  country_code?: string;
  date_format?: string;
  default_currency?: string;
  default_group_id?: number | null;
  notifications_read?: string;
  notifications_count?: number;
  notifications?: NotificationSettings;
  add_friend_url?: string;
}

export interface Balance {
  currency_code: string;
  amount: string;
}

export interface FriendGroup {
  group_id: number;
  balance: Balance[];
}

export interface Friend extends User {
  /** Per currency, from the caller's view: positive means the friend owes the caller. */
  balance: Balance[];
  groups: FriendGroup[];
  updated_at?: string;
}

/** `from` owes `to`. */
export interface Debt {
  from: number;
  to: number;
  amount: string;
  currency_code: string;
}

/** A group member: a user with their net position in the group (positive = is owed). */
export interface GroupMember extends User {
  balance: Balance[];
}

export type GroupType = 'home' | 'trip' | 'couple' | 'other' | 'apartment' | 'house';

export interface Group {
  id: number;
  name: string;
  created_at?: string;
  updated_at?: string;
  members: GroupMember[];
  simplify_by_default?: boolean;
  original_debts: Debt[];
  simplified_debts: Debt[];
  whiteboard?: string | null;
  whiteboard_lock_version?: number;
  whiteboard_updated_at?: string | null;
  whiteboard_updated_by?: number | null;
  group_type?: GroupType | string;
  invite_link?: string;
  group_reminders?: unknown;
  avatar?: Record<string, string | null>;
  tall_avatar?: Record<string, string | null>;
  custom_avatar?: boolean;
  cover_photo?: Record<string, string | null>;
  country_code?: string;
}

/** The reduced user shape inside expenses and comments. */
export interface UserSummary {
  id: number;
  first_name: string;
  last_name?: string | null;
  picture?: Picture;
  custom_picture?: boolean;
}

export interface ExpenseUser {
  user?: UserSummary;
  user_id: number;
  paid_share: string;
  owed_share: string;
  net_balance: string;
}

export interface Repayment {
  from: number;
  to: number;
  amount: string;
}

export interface CategoryRef {
  id: number;
  name: string;
}

export type RepeatInterval = 'never' | 'weekly' | 'fortnightly' | 'monthly' | 'yearly';

/** How many days before a recurring expense comes round its reminder goes out; -1 for none. */
export type ReminderDays = -1 | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 14;

export interface Expense {
  id: number;
  group_id: number | null;
  friendship_id?: number | null;
  expense_bundle_id?: number | null;
  description: string;
  repeats?: boolean;
  repeat_interval?: RepeatInterval | null;
  email_reminder?: boolean;
  email_reminder_in_advance?: number | null;
  next_repeat?: string | null;
  details?: string | null;
  comments_count?: number;
  payment: boolean;
  creation_method?: string | null;
  transaction_method?: string;
  transaction_confirmed?: boolean;
  transaction_id?: string | number | null;
  transaction_status?: string | null;
  cost: string;
  currency_code: string;
  repayments: Repayment[];
  date: string;
  created_at: string;
  created_by?: UserSummary | null;
  updated_at: string;
  updated_by?: UserSummary | null;
  deleted_at?: string | null;
  deleted_by?: UserSummary | null;
  category?: CategoryRef;
  receipt?: Receipt;
  users: ExpenseUser[];
  /** Only from getExpense, and only from edition 2 on. */
  comments?: Comment[];
}

export interface Comment {
  id: number;
  content: string;
  comment_type: 'User' | 'System' | string;
  relation_type: string;
  relation_id: number;
  created_at: string;
  deleted_at: string | null;
  user: UserSummary | null;
}

export interface NotificationSource {
  type: string;
  id: number;
  url?: string | null;
}

export interface Notification {
  id: number;
  type: number;
  created_at: string;
  created_by: number;
  source?: NotificationSource;
  image_url?: string;
  image_shape?: 'square' | 'circle' | string;
  content: string;
}

export interface Currency {
  currency_code: string;
  unit: string;
}

export interface Subcategory {
  id: number;
  name: string;
  icon?: string;
  icon_types?: Record<string, Record<string, string>>;
  colors?: { light?: string; dark?: string };
}

export interface Category extends Subcategory {
  subcategories: Subcategory[];
}

// ---- inputs ---------------------------------------------------------------------------------

/** A person on an expense or in a group: an existing user by id, or anyone by e-mail and name. */
export type PersonRef =
  | { user_id: number }
  | { email: string; first_name: string; last_name?: string | null };

/** A share of an expense. Amounts are decimal strings with at most two decimals ("12.50"). */
export type ExpenseShare = PersonRef & { paid_share: string; owed_share: string };

export interface ExpenseFields {
  description?: string;
  /** Decimal string, at most two decimals: "20", "20.5", "20.50". */
  cost?: string;
  currency_code?: string;
  /** ISO 8601 timestamp or a Date. */
  date?: string | Date;
  /** A subcategory id (18 = General). */
  category_id?: number;
  group_id?: number;
  details?: string;
  /** How often the expense recurs; 'never' stops it. */
  repeat_interval?: RepeatInterval;
  /** Whether the people involved get an e-mail before the next occurrence of a recurring expense. */
  email_reminder?: boolean;
  /** How many days before the next occurrence that e-mail goes out. */
  email_reminder_in_advance?: ReminderDays;
  payment?: boolean;
  /** Shares per person; the service replaces all shares with this set. */
  users?: ExpenseShare[];
  /** Path of a file to attach as the receipt (sent as multipart part `receipt`). */
  receipt?: string;
}

export interface NewExpense extends ExpenseFields {
  description: string;
  cost: string;
  /**
   * Split the cost equally over all current members of `group_id`, the caller paying. Defaults
   * to true when no `users` are given, and is false when they are. Requires a non-zero group_id.
   */
  split_equally?: boolean;
}

/** Only the fields set are sent; `split_equally` is not accepted by update_expense. */
export interface ExpenseUpdate extends ExpenseFields {
  id: number;
}

export interface ExpenseFilters {
  /** Number of expenses to skip. */
  offset?: number;
  /** Page size; 0 asks for all (the service caps it). The service's default is 20. */
  limit?: number;
  group_id?: number;
  /** Expenses between the caller and this user (sent as friendship_id in edition 1). */
  friend_id?: number;
  dated_after?: string | Date;
  dated_before?: string | Date;
  updated_after?: string | Date;
  updated_before?: string | Date;
  /** true hides deleted expenses (not in edition 1). */
  visible?: boolean;
}

export interface UserUpdate {
  id: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  password?: string;
  locale?: string;
  default_currency?: string;
  date_format?: string;
  default_group_id?: number;
}

export interface NewGroup {
  name: string;
  group_type?: GroupType;
  simplify_by_default?: boolean;
  whiteboard?: string;
  country_code?: string;
  /** Members besides the caller, who is added automatically. */
  users?: PersonRef[];
}

export interface NewFriend {
  email: string;
  first_name?: string;
  last_name?: string;
}

// ---- results --------------------------------------------------------------------------------

/**
 * What a mutation resolves to: the affected object when the service applied it, and the
 * service's validation errors (`{}` on success). When the service refused (HTTP 200 with errors,
 * the service's convention), the object is absent and `errors` says why.
 */
export type ExpenseResult = { expense?: Expense; errors: ServiceErrors };
export type UserResult = { user?: CurrentUser; errors: ServiceErrors };
export type GroupResult = { group?: Group; errors: ServiceErrors };
export type MemberResult = { success: boolean; user?: GroupMember; errors: ServiceErrors };
export type CommentResult = { comment?: Comment; errors: ServiceErrors };
export type FriendResult = { friend?: Friend; errors: ServiceErrors };
export type SuccessResult = { success: boolean; errors: ServiceErrors };

export interface OAuth1Token {
  oauth_token: string;
  oauth_token_secret: string;
}

export interface OAuth2Token {
  access_token: string;
  token_type: string;
}
