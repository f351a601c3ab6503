/**
 * What the ledger stores (records, in epoch milliseconds and minor units) and what it answers
 * (resources, in the wire's shapes: snake_case, decimal strings, ISO timestamps).
 */

export const NOTIFICATION_KEYS = [
  'added_as_friend',
  'added_to_group',
  'expense_added',
  'expense_updated',
  'bills',
  'payments',
  'monthly_summary',
  'announcements',
] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

export type RegistrationStatus = 'confirmed' | 'dummy' | 'invited' | 'unsubscribed';

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string | null;
  email: string;
  registration_status: RegistrationStatus;
  default_currency: string;
  locale: string;
  country_code: string;
  date_format: string;
  default_group_id: number;
  notifications_read: number;
  notification_settings: Record<NotificationKey, boolean>;
  created_at: number;
}

export interface FriendshipRecord {
  id: number;
  created_at: number;
  updated_at: number;
}

export type GroupType = 'home' | 'trip' | 'couple' | 'other' | 'apartment' | 'house';
export const GROUP_TYPES: ReadonlySet<string> = new Set([
  'home',
  'trip',
  'couple',
  'other',
  'apartment',
  'house',
]);

export interface GroupRecord {
  id: number;
  name: string;
  group_type: GroupType;
  simplify_by_default: boolean;
  whiteboard: string | null;
  whiteboard_updated_at: number | null;
  whiteboard_updated_by: number | null;
  whiteboard_lock_version: number;
  country_code: string | null;
  invite_token: string;
  /** Current members in the order they joined (the equal-split remainder order). */
  members: number[];
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  deleted_by: number | null;
}

export interface ShareRecord {
  user_id: number;
  paid: number;
  owed: number;
}

export interface ReceiptRecord {
  id: number;
  /**
   * What its URL names it by: 128 random bits, so that no receipt can be found by counting, and
   * it is served only to a caller who may see its expense.
   */
  key: string;
  /** The expense it was uploaded with; served only while it is that expense's receipt. */
  expense_id: number;
  filename: string;
  contentType: string;
  data: Buffer;
}

export type RepeatInterval = 'weekly' | 'fortnightly' | 'monthly' | 'yearly';

/** What an expense says, as a request gives it; the record adds identity and history. */
export interface ExpenseFields {
  /** 0 for non-group expenses (null on the wire). */
  group_id: number;
  description: string;
  details: string | null;
  cost: number;
  currency_code: string;
  date: number;
  repeat_interval: RepeatInterval | null;
  payment: boolean;
  creation_method: string | null;
  category_id: number;
}

export interface ExpenseRecord extends ExpenseFields {
  id: number;
  shares: ShareRecord[];
  receipt_id: number | null;
  created_at: number;
  created_by: number;
  updated_at: number;
  updated_by: number | null;
  deleted_at: number | null;
  deleted_by: number | null;
  /** Comment ids, oldest first (System and User, deleted ones included). */
  comments: number[];
}

export interface CommentRecord {
  id: number;
  expense_id: number;
  content: string;
  comment_type: 'User' | 'System';
  /** 0 for System comments. */
  user_id: number;
  created_at: number;
  deleted_at: number | null;
}

export interface NotificationRecord {
  id: number;
  type: number;
  created_at: number;
  created_by: number;
  source: { type: 'Expense' | 'Group' | 'User'; id: number };
  image_shape: 'square' | 'circle';
  content: string;
}

// ---- Wire resources ----

export interface Picture {
  small: string;
  medium: string;
  large: string;
}

export interface User {
  id: number;
  first_name: string;
  last_name: string | null;
  email: string;
  registration_status: RegistrationStatus;
  picture: Picture;
  custom_picture: boolean;
}

export interface CurrentUser extends User {
  force_refresh_at: string | null;
  locale: string;
  country_code: string;
  date_format: string;
  default_currency: string;
  default_group_id: number;
  notifications_read: string;
  notifications_count: number;
  notifications: Record<NotificationKey, boolean>;
  add_friend_url: string;
}

export interface Balance {
  currency_code: string;
  amount: string;
}

export interface Friend extends User {
  balance: Balance[];
  groups: { group_id: number; balance: Balance[] }[];
  updated_at: string;
}

export interface Debt {
  from: number;
  to: number;
  amount: string;
  currency_code: string;
}

export interface GroupMember extends User {
  balance: Balance[];
}

export interface Group {
  id: number;
  name: string;
  created_at: string | null;
  updated_at: string;
  members: GroupMember[];
  simplify_by_default: boolean;
  original_debts: Debt[];
  simplified_debts: Debt[];
  group_type?: string;
  whiteboard?: string | null;
  whiteboard_lock_version?: number;
  whiteboard_updated_at?: string | null;
  whiteboard_updated_by?: number | null;
  invite_link?: string;
  group_reminders?: null;
  avatar: Record<string, string | null>;
  tall_avatar: Record<string, string>;
  custom_avatar: boolean;
  cover_photo: Record<string, string>;
}

export interface ReducedUser {
  id: number;
  first_name: string;
  last_name: string | null;
  picture: { medium: string | null };
}

export interface ExpenseUser {
  user: ReducedUser;
  user_id: number;
  paid_share: string;
  owed_share: string;
  net_balance: string;
}

export interface Comment {
  id: number;
  content: string;
  comment_type: 'User' | 'System';
  relation_type: 'ExpenseComment';
  relation_id: number;
  created_at: string;
  deleted_at: string | null;
  user: ReducedUser;
}

export interface Expense {
  id: number;
  group_id: number | null;
  friendship_id?: null;
  expense_bundle_id: null;
  description: string;
  repeats: boolean;
  repeat_interval: RepeatInterval | null;
  email_reminder: boolean;
  email_reminder_in_advance: number;
  next_repeat: string | null;
  details: string | null;
  comments_count: number;
  payment: boolean;
  creation_method: string | null;
  transaction_method: 'offline';
  transaction_confirmed: boolean;
  transaction_id: null;
  transaction_status: null;
  cost: string;
  currency_code: string;
  repayments: { from: number; to: number; amount: string }[];
  date: string;
  created_at: string;
  created_by: ReducedUser & { custom_picture: boolean };
  updated_at: string;
  updated_by: (ReducedUser & { custom_picture: boolean }) | null;
  deleted_at: string | null;
  deleted_by: (ReducedUser & { custom_picture: boolean }) | null;
  category: { id: number; name: string };
  receipt: { large: string | null; original: string | null };
  users: ExpenseUser[];
  comments?: Comment[];
}

export interface Notification {
  id: number;
  type: number;
  created_at: string;
  created_by: number;
  source: { type: string; id: number; url: null };
  image_url: string;
  image_shape: 'square' | 'circle';
  content: string;
}

export interface Currency {
  currency_code: string;
  unit: string;
}

export interface Category {
  id: number;
  name: string;
  icon: string;
  icon_types: Record<string, Record<string, string>>;
  colors?: { light: string; dark: string };
  subcategories?: Category[];
}
