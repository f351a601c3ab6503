/**
 * The client's version, sent in every User-Agent. A constant rather than a read of package.json at
 * run time, so the module works the same bundled, compiled or run from source; a test keeps it
 * equal to package.json's version.
 */
export const CLIENT_VERSION = '0.1.0';

export const USER_AGENT = `slack-split-service-client/${CLIENT_VERSION} (node)`;
