/** Slack user <-> service account: linking, people resolution, lookups, channel bindings. */
export {
  type ChannelBinding,
  type ChannelBindings,
  type ChannelKey,
  createChannelBindings,
} from './bindings.js';
export {
  createDirectory,
  DIRECTORY_TTL_MS,
  type Directory,
  type SlackPerson,
} from './directory.js';
export {
  type ConsumeResult,
  createLinkStates,
  LINK_STATE_TTL_MS,
  type LinkState,
  type LinkStates,
  type PendingCommand,
} from './link-states.js';
export {
  CALLBACK_PATH,
  createLinking,
  type Linking,
  type LinkingOptions,
  START_PATH,
} from './linking.js';
export { type ResolvedPerson, type ResolveProblem, resolvePeople } from './people.js';
export { createServiceFactory, type ServiceFactory, type ServiceSettings } from './service.js';
export { TtlCache } from './ttl-cache.js';
