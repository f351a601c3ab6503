/** Slack's Block Kit limits: the simulated workspace's own checks, so tests and sandbox agree. */
export { blockKitErrors, type Surface, viewErrors } from '@split/slack-workspace';
