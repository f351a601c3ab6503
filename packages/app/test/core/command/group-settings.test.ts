import { describe, expect, it } from 'vitest';
import { DEFAULT_EXAMPLE, ME } from '../../../src/core/command/index.js';
import { ANN, asTyped, BOB, errors, parse } from './helpers.js';

describe('group default', () => {
  it('saves a currency for the group, alone or with a split', () => {
    expect(parse('group default Roommates EUR')).toEqual({
      kind: 'group_default',
      group: 'Roommates',
      action: 'currency',
      currency: 'EUR',
    });
    expect(parse('group default Euro trip currency €')).toEqual({
      kind: 'group_default',
      group: 'Euro trip',
      action: 'currency',
      currency: 'EUR',
    });
    expect(parse('group default jpy')).toEqual({
      kind: 'group_default',
      group: null,
      action: 'currency',
      currency: 'JPY',
    });
    expect(parse(`group default Roommates me 50% ${ANN} 50% EUR`)).toMatchObject({
      action: 'set',
      group: 'Roommates',
      currency: 'EUR',
    });
  });

  it('keeps a word for a currency in the group name, and refuses two currencies', () => {
    expect(parse('group default Euro trip')).toEqual({
      kind: 'group_default',
      group: 'Euro trip',
      action: 'show',
    });
    expect(parse('group default Roommates USD EUR')).toEqual({
      kind: 'error',
      message: 'One currency for the group, please: I see USD and EUR.',
      example: '/split group default Roommates EUR',
    });
    expect(parse('group default Roommates EUR clear')).toEqual({
      kind: 'error',
      message: 'Clear the default, or set a new one: not both at once.',
      example: DEFAULT_EXAMPLE,
    });
  });

  it('saves percentages for me and the people named, in a named group', () => {
    expect(parse(`group default Roommates me 60% ${ANN} 40%`)).toEqual({
      kind: 'group_default',
      group: 'Roommates',
      action: 'set',
      split: {
        kind: 'percent',
        percents: [
          { id: ME, basisPoints: 6000 },
          { id: 'U0ANN', basisPoints: 4000 },
        ],
      },
      currency: null,
    });
  });

  it('takes shares, and the group after the people with "in"', () => {
    expect(parse(`group default ${ANN} 2x ${BOB} 1x me 1x in Trip to Rome`)).toEqual({
      kind: 'group_default',
      group: 'Trip to Rome',
      action: 'set',
      split: {
        kind: 'shares',
        shares: [
          { id: 'U0ANN', shares: 2 },
          { id: 'U0BOB', shares: 1 },
          { id: ME, shares: 1 },
        ],
      },
      currency: null,
    });
  });

  it('leaves the group out in a bound channel', () => {
    expect(parse(`group default me 50% ${ANN} 50%`)).toMatchObject({
      kind: 'group_default',
      group: null,
      action: 'set',
    });
  });

  it('shows the default when nobody is named, and clears it', () => {
    expect(parse('group default Roommates')).toEqual({
      kind: 'group_default',
      group: 'Roommates',
      action: 'show',
    });
    expect(parse('group default')).toEqual({ kind: 'group_default', group: null, action: 'show' });
    expect(parse('group default Roommates clear')).toEqual({
      kind: 'group_default',
      group: 'Roommates',
      action: 'clear',
    });
    expect(parse('group default off')).toEqual({
      kind: 'group_default',
      group: null,
      action: 'clear',
    });
  });

  it('offers an example that parses', () => {
    expect(parse(asTyped(DEFAULT_EXAMPLE)).kind).toBe('group_default');
  });
});

describe('group default refusals', () => {
  errors([
    [
      `group default Roommates me 600 ${ANN} 400`,
      'A default split is in percentages (60%) or shares (2x), which fit any cost; an amount fits one cost only.',
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates me 60% ${ANN}`,
      "Give <@U0ANN> a percentage or a share too: a default names everyone's part.",
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates me ${ANN} 40%`,
      "Give yourself a percentage or a share too: a default names everyone's part.",
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates me 60% ${ANN} 2x`,
      'Use one kind: percentages for everyone, or shares (2x) for everyone.',
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates me 60% ${ANN} 30%`,
      'The percentages add up to 90%, not 100%.',
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates me 60.125% ${ANN} 39.875%`,
      'Percentages take at most two decimals ("60.125%").',
      DEFAULT_EXAMPLE,
    ],
    [
      `group default Roommates clear me 60% ${ANN} 40%`,
      'Clear the default, or set a new one: not both at once.',
      DEFAULT_EXAMPLE,
    ],
  ]);
});

describe('feed', () => {
  it('turns on, off, and shows its state', () => {
    expect(parse('feed on')).toEqual({ kind: 'feed', action: 'on' });
    expect(parse('feed off')).toEqual({ kind: 'feed', action: 'off' });
    expect(parse('feed')).toEqual({ kind: 'feed', action: 'status' });
    expect(parse('FEED Stop')).toEqual({ kind: 'feed', action: 'off' });
  });

  it('refuses anything else with an example', () => {
    expect(parse('feed daily')).toEqual({
      kind: 'error',
      message: 'I don\'t know "feed daily". Try feed on or feed off.',
      example: '/split feed on',
    });
  });
});
