/** Every operation of the service, one module per resource with its types. */
export * as comments from './comments.js';
export * as expenses from './expenses.js';
export * as friends from './friends.js';
export * as groups from './groups.js';
export * as notifications from './notifications.js';
export * as other from './other.js';
export * as users from './users.js';
