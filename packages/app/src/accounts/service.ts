/**
 * Service clients for the app: one per call site and token (construction only stores options),
 * all pointed at the configured service with the same timeout policy.
 */
import {
  type AttemptReport,
  type FetchLike,
  ServiceClient,
  type ServiceClientOptions,
} from '../service/index.js';
import type { ServiceTokenRecord } from '../store/index.js';

interface ServiceSettings {
  apiUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per HTTP attempt. Slack users wait on it, so it is shorter than the client's default. */
  timeoutMs?: number;
  /** Extra attempts for reads only; writes are never retried by the client. */
  retries?: number;
  /** Told of every HTTP attempt of every client (logs, metrics). */
  onAttempt?: (report: AttemptReport) => void;
  /** How every client sends its HTTP requests; the global fetch by default. */
  fetch?: FetchLike;
}

export interface ServiceFactory {
  /** A client acting for the person whose link this is. */
  forLink(link: Pick<ServiceTokenRecord, 'access_token'>): ServiceClient;
  /** A client with only the app's OAuth credentials, for the authorization-code exchange. */
  forApp(): ServiceClient;
}

const DEFAULT_SERVICE_TIMEOUT_MS = 8_000;

export function createServiceFactory(settings: ServiceSettings): ServiceFactory {
  // Built without spreads, and a link's token set on its client rather than spread into a copy of
  // these: on Node 20 every read of a spread's copy goes through V8's runtime, and a client is
  // made for every booking.
  const base: ServiceClientOptions = {
    baseUrl: settings.apiUrl,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    consumerKey: settings.clientId,
    consumerSecret: settings.clientSecret,
    timeoutMs: settings.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS,
    retries: settings.retries ?? 1,
  };
  if (settings.onAttempt) base.onAttempt = settings.onAttempt;
  if (settings.fetch) base.fetch = settings.fetch;
  return {
    forLink: (link) => {
      const client = new ServiceClient(base);
      // As the constructor took it: an empty token leaves the client without one.
      if (link.access_token) client.setOAuth2AccessToken(link.access_token);
      return client;
    },
    forApp: () => new ServiceClient(base),
  };
}
