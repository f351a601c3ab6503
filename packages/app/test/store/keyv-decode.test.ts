/**
 * The store's reader against Keyv's own, on what Keyv writes and on text written by hand: the
 * same value every time, whichever path it takes.
 */
import { defaultDeserialize, defaultSerialize } from '@keyv/serialize';
import { describe, expect, it } from 'vitest';
import { decodeStored } from '../../src/store/keyv-decode.js';

const values: unknown[] = [
  { value: { team_id: 'T1', user_id: 'U1', snapshot: null, tz: 'Europe/Paris' }, expires: null },
  { value: ':starts with a colon' },
  { value: '::two colons' },
  { value: ['a', ':b', { c: ':d' }] },
  { value: { ':key': 'plain', nested: [[':deep']] } },
  { value: { quote: 'he said ":" then ",":" and [":' } },
  { value: Buffer.from('secret bytes') },
  { value: { note: 'ends with a backslash\\', next: ':x' } },
  ':top-level',
  'plain',
  42,
  null,
  [],
];

describe('decodeStored', () => {
  it('reads what Keyv wrote as Keyv does', () => {
    for (const value of values) {
      const text = defaultSerialize(value);
      expect(decodeStored(text)).toEqual(defaultDeserialize(text));
    }
  });

  it('undoes the escape of a string starting with a colon, and the Buffer marker', () => {
    expect(decodeStored(defaultSerialize({ value: ':x', list: [':y'] }))).toEqual({
      value: ':x',
      list: [':y'],
    });
    expect(decodeStored('{"value":"::x","list":[":y"]}')).toEqual({ value: ':x', list: ['y'] });
    expect(decodeStored('{"value":":base64:aGk="}')).toEqual({ value: Buffer.from('hi') });
  });

  it('reads text written with spaces or with the colon escaped as Keyv does', () => {
    for (const text of [
      '{ "value" : "::x" }',
      '[ "a",\n  "::b" ]',
      '{"value":"\\u003a\\u003ax"}',
      '{"value":"\\u003Abase64:aGk="}',
      ' ":top"',
      '{"a, ":":y"}',
    ]) {
      expect(decodeStored(text)).toEqual(defaultDeserialize(text));
    }
  });
});
