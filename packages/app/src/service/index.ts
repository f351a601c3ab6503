export { DEFAULT_BASE_URL, ServiceClient, type ServiceClientOptions } from './client.js';
export type { OAuth1Token } from './credentials.js';
export type { PersonRef } from './encode.js';
export {
  ServiceBadRequestException,
  ServiceBaseException,
  ServiceConnectionException,
  ServiceEditionException,
  type ServiceErrors,
  ServiceException,
  ServiceInputException,
  ServiceNotAllowedException,
  ServiceNotFoundException,
  ServiceRateLimitedException,
  ServiceServerException,
  ServiceTimeoutException,
  ServiceUnauthorizedException,
} from './errors.js';
export { createLeanFetch, type LeanFetch, type LeanFetchOptions } from './lean-fetch.js';
export type { OAuth2Token } from './oauth2.js';
export type { Edition } from './operation.js';
export type { AttemptReport, FetchLike } from './request.js';
export type { Comment, CommentResult } from './resources/comments.js';
export type {
  CategoryRef,
  Expense,
  ExpenseFields,
  ExpenseFilters,
  ExpenseResult,
  ExpenseShare,
  ExpenseUpdate,
  ExpenseUser,
  NewExpense,
  Receipt,
  ReminderDays,
  Repayment,
  RepeatInterval,
} from './resources/expenses.js';
export type { Balance, Friend, FriendGroup, FriendResult, NewFriend } from './resources/friends.js';
export type {
  Debt,
  Group,
  GroupMember,
  GroupResult,
  GroupType,
  MemberResult,
  NewGroup,
} from './resources/groups.js';
export type { Notification, NotificationSource } from './resources/notifications.js';
export type { Category, Currency, Subcategory } from './resources/other.js';
export type {
  CurrentUser,
  NotificationSettings,
  Picture,
  RegistrationStatus,
  User,
  UserResult,
  UserSummary,
  UserUpdate,
} from './resources/users.js';
export type { SuccessResult } from './results.js';
export { CLIENT_VERSION, USER_AGENT } from './version.js';
