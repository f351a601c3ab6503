/** `/split list` and `/split export`: the word filter, its quoted phrases and its errors. */
import { describe, expect, it } from 'vitest';
import { ANN, ctx, parse } from './helpers.js';

const open = { from: null, to: null };

describe('list filters', () => {
  it.each([
    ['list about taxi', { mentions: [], group: null, loose: null, range: open, words: ['taxi'] }],
    [
      'list about taxi, airport',
      { mentions: [], group: null, loose: null, range: open, words: ['taxi', 'airport'] },
    ],
    [
      'list "pizza night"',
      { mentions: [], group: null, loose: null, range: open, words: ['pizza night'] },
    ],
    [
      'list matching “Pizza   night”',
      { mentions: [], group: null, loose: null, range: open, words: ['Pizza night'] },
    ],
    [
      `list ${ANN} about taxi in Roommates since 2026-10-01`,
      {
        mentions: ['U0ANN'],
        group: 'Roommates',
        loose: null,
        range: { from: '2026-10-01', to: null },
        words: ['taxi'],
      },
    ],
    [
      'list in Trip to Rome containing dinner',
      { mentions: [], group: 'Trip to Rome', loose: null, range: open, words: ['dinner'] },
    ],
    [
      'list in "Talk about it" "pizza"',
      { mentions: [], group: 'Talk about it pizza', loose: null, range: open, words: [] },
    ],
    [
      'list Trip to Rome',
      { mentions: [], group: null, loose: 'Trip to Rome', range: open, words: [] },
    ],
    // Words with no mark: a group's name if the person has one so called, else a search.
    ['list taxi', { mentions: [], group: null, loose: 'taxi', range: open, words: [] }],
    [
      `list taxi ${ANN} last week`,
      {
        mentions: ['U0ANN'],
        group: null,
        loose: 'taxi',
        range: { from: '2026-11-09', to: '2026-11-15' },
        words: [],
      },
    ],
    // Beside a group named with `in`, they can only be words of the description.
    [
      'list taxi airport in Roommates',
      { mentions: [], group: 'Roommates', loose: null, range: open, words: ['taxi', 'airport'] },
    ],
  ])('%s', (text, filters) => {
    expect(parse(text, ctx)).toEqual({ kind: 'list', ...filters });
  });

  it('export takes the same filters', () => {
    expect(parse(`export ${ANN} about taxi last month`, ctx)).toEqual({
      kind: 'export',
      mentions: ['U0ANN'],
      group: null,
      loose: null,
      range: { from: '2026-10-01', to: '2026-10-31' },
      words: ['taxi'],
    });
    expect(parse('csv', ctx)).toEqual({
      kind: 'export',
      mentions: [],
      group: null,
      loose: null,
      range: open,
      words: [],
    });
  });

  it('lets a date range reach past today, which an expense may not', () => {
    expect(parse('list about dinner from 2026-11-01 to 2026-12-31', ctx)).toEqual({
      kind: 'list',
      mentions: [],
      group: null,
      loose: null,
      range: { from: '2026-11-01', to: '2026-12-31' },
      words: ['dinner'],
    });
    expect(parse('40 dinner @ann on 2026-12-01'.replace('@ann', ANN), ctx)).toEqual({
      kind: 'error',
      message: 'Tue, Dec 1, 2026 is in the future: an expense needs a past date.',
      example: '/split 40 lunch @ann on 2026-11-20',
    });
  });

  it.each([
    ['list about', 'Which words should the description have?', '/split list about taxi'],
    [
      'list about in Roommates',
      'Which words should the description have?',
      '/split list about taxi',
    ],
    ['export about', 'Which words should the description have?', '/split export about taxi'],
    ['list in', 'Which group? Name it after "in".', '/split list in Roommates'],
    [
      `list about ${'x'.repeat(201)}`,
      'Search for fewer words: at most 200 characters.',
      '/split list about "pizza night"',
    ],
    [
      'list since Feb 30',
      'There is no February 30 ("Feb 30").',
      '/split list @ann in Roommates from 2026-11-01 to 2026-11-20',
    ],
    [
      'export since someday',
      'I could not read the date after "since".',
      '/split export @ann in Roommates from 2026-11-01 to 2026-11-20',
    ],
  ])('%s is refused with an example', (text, message, example) => {
    expect(parse(text, ctx)).toEqual({ kind: 'error', message, example });
  });
});
