import { describe, expect, it } from 'vitest';
import { encodeMessage, escapeText } from '../../src/page/components/composer.js';
import type { Person } from '../../src/page/types.js';

const person = (id: string, name: string, display: string, real: string): Person => ({
  id,
  name,
  display_name: display,
  real_name: real,
  email: `${name}@example.com`,
  is_bot: false,
  tz: 'UTC',
  locale: 'en-US',
});

const people = [
  person('U1', 'ann', 'Ann', 'Ann Lee'),
  person('U2', 'annabel', 'Ann B', 'Annabel Byrne'),
  person('U3', 'bob', '', 'Bob Stone'),
];

describe('what the composer sends', () => {
  it('escapes exactly &, < and > as Slack does', () => {
    expect(escapeText('fish & chips <b> "x" \'y\'')).toBe('fish &amp; chips &lt;b&gt; "x" \'y\'');
  });

  it('turns @display name and @user name into <@id|name>, longest name first', () => {
    expect(encodeMessage('/split 40 lunch @Ann B @ann @bob', people)).toBe(
      '/split 40 lunch <@U2|annabel> <@U1|ann> <@U3|bob>',
    );
  });

  it('falls back to the real name when there is no display name', () => {
    expect(encodeMessage('thanks @Bob Stone!', people)).toBe('thanks <@U3|bob>!');
  });

  it('leaves unknown names, e-mail addresses and partial names alone', () => {
    expect(encodeMessage('@zed mail ann@example.com @annie', people)).toBe(
      '@zed mail ann@example.com @annie',
    );
  });
});
