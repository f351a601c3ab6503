export {
  createDigestPreferences,
  DEFAULT_DIGEST_HOUR,
  type DigestChoices,
  DigestPreferenceError,
  type DigestPreferences,
  type DigestSubscription,
  type DigestUserKey,
  digestKey,
} from '../../store/digest.js';
export {
  createDigestRunner,
  type DigestLogger,
  type DigestOutcome,
  type DigestRunner,
  type DigestRunnerOptions,
  type DigestRunReport,
  type DigestServiceClient,
  type DigestSlackClient,
  digestClaimKey,
  emptyRunReport,
  isTransient,
} from './runner.js';
export {
  type DigestScheduler,
  type DigestSchedulerOptions,
  startDigestScheduler,
} from './scheduler.js';
export {
  type BalanceChange,
  type BalanceSnapshot,
  changesBetween,
  snapshotOf,
} from './snapshot.js';
export { isDue, isValidTimeZone, type LocalTime, localTime } from './time.js';
export {
  DIGEST_ACTION_IDS,
  digestMessage,
  digestRevokedMessage,
  parseSettleUpValue,
  type SettleUpValue,
} from './views.js';
