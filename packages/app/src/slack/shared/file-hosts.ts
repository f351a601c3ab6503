/**
 * Where the bot token may go with a file download. Slack serves a file's bytes from its own file
 * host (`url_private_download` on files.slack.com) and wants the bot token with the request; any
 * other host named there would receive the token too, so a download goes only to Slack's file
 * hosts, or, when SLACK_API_URL names a stand-in (the sandbox, tests), to that stand-in's origin,
 * which serves its files beside its Web API.
 */

/** Slack's own hosts for files' bytes (url_private, url_private_download). */
export const SLACK_FILE_HOSTS: readonly string[] = ['files.slack.com'];

export interface FileHosts {
  /** Whether a download from `url` may carry the bot token. */
  allows(url: URL): boolean;
  /** Says which hosts are allowed, for a refusal the person or the operator reads. */
  readonly described: string;
}

function isSlack(hostname: string): boolean {
  return hostname === 'slack.com' || hostname.endsWith('.slack.com');
}

/** The file hosts for a Web API base (config's SLACK_API_URL; undefined: Slack's own). */
export function fileHosts(apiUrl: string | undefined): FileHosts {
  const api = apiUrl === undefined ? undefined : new URL(apiUrl);
  if (api === undefined || isSlack(api.hostname)) {
    return {
      allows: (url) =>
        url.protocol === 'https:' &&
        url.port === '' &&
        url.username === '' &&
        url.password === '' &&
        SLACK_FILE_HOSTS.includes(url.hostname),
      described: SLACK_FILE_HOSTS.join(', '),
    };
  }
  return {
    allows: (url) => url.origin === api.origin && url.username === '' && url.password === '',
    described: api.host,
  };
}
