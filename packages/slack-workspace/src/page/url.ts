// The acting person, the open conversation and tab live in the query string, so a reload (or a
// shared link) shows the same view.
export interface Location {
  as?: string;
  channel?: string;
  tab?: 'home' | 'messages';
}

export function readLocation(search: string = window.location.search): Location {
  const params = new URLSearchParams(search);
  const tab = params.get('tab');
  return {
    as: params.get('as') || undefined,
    channel: params.get('channel') || undefined,
    tab: tab === 'home' || tab === 'messages' ? tab : undefined,
  };
}

export function hrefFor(location: Location): string {
  const params = new URLSearchParams();
  if (location.as) params.set('as', location.as);
  if (location.channel) params.set('channel', location.channel);
  if (location.tab) params.set('tab', location.tab);
  return `?${params}`;
}

export function writeLocation(location: Location): void {
  const href = hrefFor(location);
  if (href !== window.location.search) window.history.replaceState(null, '', href);
}
