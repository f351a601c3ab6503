export { DEFAULT_BASE_URL, ServiceClient, type ServiceClientOptions } from './client.js';
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
export type { AttemptReport, FetchLike } from './request.js';
export * from './types.js';
export { CLIENT_VERSION, USER_AGENT } from './version.js';
