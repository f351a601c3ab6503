/**
 * What Slack sends to an app, built and signed as the workspace sends it: the payload builders and
 * the request signing, for tests and tools that play Slack's part against an app.
 */
export * from './payloads.js';
export * from './signing.js';
