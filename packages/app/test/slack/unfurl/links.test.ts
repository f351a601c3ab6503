/**
 * Which links name an expense or a group at the service: its own web addresses only, read
 * strictly, in time linear in the link however it is written.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_LINKS_EXAMINED,
  MAX_LINKS_PER_EVENT,
  serviceLinks,
} from '../../../src/slack/unfurl/link-shared.js';
import { parseServiceLink } from '../../../src/slack/unfurl/links.js';

describe('parseServiceLink', () => {
  it('reads the addresses the service writes for an expense', () => {
    expect(parseServiceLink('https://secure.splitwise.com/expenses/42')).toEqual({
      kind: 'expense',
      id: 42,
    });
    expect(parseServiceLink('https://www.splitwise.com/expenses/42')).toEqual({
      kind: 'expense',
      id: 42,
    });
    expect(parseServiceLink('https://splitwise.com/expenses/42/')).toEqual({
      kind: 'expense',
      id: 42,
    });
    expect(parseServiceLink('https://SECURE.Splitwise.com/expenses/42?utm=x#top')).toEqual({
      kind: 'expense',
      id: 42,
    });
  });

  it('reads a group, with or without the #/, and a group’s expense', () => {
    expect(parseServiceLink('https://secure.splitwise.com/#/groups/7')).toEqual({
      kind: 'group',
      id: 7,
    });
    expect(parseServiceLink('https://secure.splitwise.com/groups/7')).toEqual({
      kind: 'group',
      id: 7,
    });
    expect(parseServiceLink('https://secure.splitwise.com/#/groups/7/')).toEqual({
      kind: 'group',
      id: 7,
    });
    expect(parseServiceLink('https://secure.splitwise.com/#/groups/7/expenses/42')).toEqual({
      kind: 'expense',
      id: 42,
      groupId: 7,
    });
    expect(parseServiceLink('https://secure.splitwise.com/groups/7/expenses/42')).toEqual({
      kind: 'expense',
      id: 42,
      groupId: 7,
    });
  });

  it('refuses hosts that only look like the service’s', () => {
    for (const url of [
      'https://splitwise.com.evil.test/expenses/42',
      'https://evilsplitwise.com/expenses/42',
      'https://secure.splitwise.com.:443/expenses/42',
      'https://secure.splitwise.com:8443/expenses/42',
      'https://user:pass@secure.splitwise.com/expenses/42',
      'https://ann@secure.splitwise.com/expenses/42',
      'ftp://secure.splitwise.com/expenses/42',
      'javascript://secure.splitwise.com/expenses/42',
      'https://example.com/?next=https://secure.splitwise.com/expenses/42',
      'https://example.com/#/groups/7',
      'not a url',
      '',
    ]) {
      expect(parseServiceLink(url), url).toBeUndefined();
    }
  });

  it('refuses ids that are not plain positive numbers, and other paths', () => {
    for (const url of [
      'https://secure.splitwise.com/expenses/0',
      'https://secure.splitwise.com/expenses/-1',
      'https://secure.splitwise.com/expenses/1e3',
      'https://secure.splitwise.com/expenses/4.2',
      'https://secure.splitwise.com/expenses/%34%32',
      'https://secure.splitwise.com/expenses/42abc',
      'https://secure.splitwise.com/expenses/1234567890123456',
      'https://secure.splitwise.com/expenses/',
      'https://secure.splitwise.com/expenses',
      'https://secure.splitwise.com/expenses/42/edit',
      'https://secure.splitwise.com/friends/42',
      'https://secure.splitwise.com/#/groups/0',
      'https://secure.splitwise.com/#/groups/x/expenses/42',
      'https://secure.splitwise.com/#/friends/42',
      'https://secure.splitwise.com/#groups/7',
      'https://secure.splitwise.com/',
      'https://secure.splitwise.com/api/v3.0/get_expense/42',
    ]) {
      expect(parseServiceLink(url), url).toBeUndefined();
    }
    expect(parseServiceLink('https://secure.splitwise.com/expenses/123456789012345')).toEqual({
      kind: 'expense',
      id: 123456789012345,
    });
  });

  it('refuses a very long link, and many empty or repeated segments', () => {
    expect(
      parseServiceLink(`https://secure.splitwise.com/expenses/42?${'a'.repeat(3_000)}`),
    ).toBeUndefined();
    expect(
      parseServiceLink(`https://secure.splitwise.com/${'/'.repeat(1_900)}expenses/42`),
    ).toBeUndefined();
    expect(
      parseServiceLink(`https://secure.splitwise.com/#/${'groups/7/'.repeat(200)}`),
    ).toBeUndefined();
  });
});

describe('serviceLinks', () => {
  it('keeps the service’s links of an event, each once, in order, at most a handful', () => {
    const links = [
      { url: 'https://secure.splitwise.com/#/groups/7' },
      { url: 'https://www.splitwise.com/' },
      { url: 'https://secure.splitwise.com/#/groups/7' },
      ...Array.from({ length: 10 }, (_, i) => ({
        url: `https://secure.splitwise.com/expenses/${i + 1}`,
      })),
    ];
    const kept = serviceLinks(links);
    expect(kept).toHaveLength(MAX_LINKS_PER_EVENT);
    expect(kept.map((s) => s.url)).toEqual([
      'https://secure.splitwise.com/#/groups/7',
      'https://secure.splitwise.com/expenses/1',
      'https://secure.splitwise.com/expenses/2',
      'https://secure.splitwise.com/expenses/3',
      'https://secure.splitwise.com/expenses/4',
    ]);
  });

  it('looks at the first links of an event only, however many it lists', () => {
    const others = Array.from({ length: MAX_LINKS_EXAMINED - 1 }, (_, i) => ({
      url: `https://example.com/${i}`,
    }));
    const last = { url: 'https://secure.splitwise.com/expenses/1' };
    expect(serviceLinks([...others, last]).map((s) => s.url)).toEqual([last.url]);
    expect(serviceLinks([...others, { url: 'not a link' }, last])).toEqual([]);
  });
});
