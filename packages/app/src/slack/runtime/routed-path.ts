/**
 * The path of a request as Bolt's HTTPReceiver routes it: the WHATWG URL parser's pathname, which
 * decodes `%2e` segments, resolves `.` and `..`, turns `\` into `/`, drops the fragment and the
 * query, and takes the path out of an absolute-form target (`POST http://host/slack/events`).
 * Whatever looks at a request beside Bolt (the future-timestamp check, the ack gate) must use the
 * same path, or a request Bolt serves as an event would pass them by.
 */
export function routedPath(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    // Bolt's own parse throws on the same target, so no route of Bolt's serves it.
    return '';
  }
}
