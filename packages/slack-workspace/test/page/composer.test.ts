import { describe, expect, it } from 'vitest';
import { encodeMessage, escapeText, wrapLinks } from '../../src/page/components/composer.js';
import { textForEditing } from '../../src/page/components/message-edit.js';
import type { Person, State } from '../../src/page/types.js';

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

describe('mentions of the app and links', () => {
  const bot = { id: 'U0BOT', name: 'Split' };

  it('sends @Split as the bot’s mention, bare ids in a message and names in a command', () => {
    expect(encodeMessage('@Split 40 lunch @ann', people, { bot, labels: false })).toBe(
      '<@U0BOT> 40 lunch <@U1>',
    );
    expect(encodeMessage('/split 40 lunch @Split @ann', people, { bot })).toBe(
      '/split 40 lunch <@U0BOT|split> <@U1|ann>',
    );
  });

  it('wraps bare links as Slack’s client does, leaving the sentence’s punctuation out', () => {
    expect(
      wrapLinks('see https://splitwise.com/#/groups/7, and http://x.test/a?b=1&amp;c=2.'),
    ).toBe('see <https://splitwise.com/#/groups/7>, and <http://x.test/a?b=1&amp;c=2>.');
    expect(encodeMessage('@ann see https://x.test/@ann', people, { labels: false })).toBe(
      '<@U1> see <https://x.test/@ann>',
    );
  });
});

describe('editing a message', () => {
  it('shows the text as typed: names for mentions, bare links, entities undone', () => {
    const state = {
      app: { name: 'Split', bot_user_id: 'U0BOT' },
      people,
    } as unknown as State;
    expect(
      textForEditing(
        '<@U0BOT> 40 fish &amp; chips <@U1> <https://x.test/a?b=1&amp;c=2> &lt;3',
        state,
      ),
    ).toBe('@Split 40 fish & chips @Ann https://x.test/a?b=1&c=2 <3');
  });
});
