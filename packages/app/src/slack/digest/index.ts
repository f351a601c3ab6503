export {
  createDigestPreferences,
  DigestPreferenceError,
  type DigestPreferences,
  type DigestSubscription,
} from '../../store/digest.js';
export { isTransient } from './failures.js';
export {
  createDigestRunner,
  type DigestLogger,
  type DigestRunner,
  type DigestRunnerOptions,
  type DigestRunReport,
  type DigestSlackClient,
  emptyRunReport,
} from './runner.js';
export { type DigestScheduler, startDigestScheduler } from './scheduler.js';
export { isDue, isValidTimeZone, localTime } from './time.js';
