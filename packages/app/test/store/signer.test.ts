import { describe, expect, it } from 'vitest';
import { createSigner } from '../../src/store/index.js';

const key = Buffer.alloc(32, 3);
const NOW = Date.UTC(2026, 11, 6, 12);
const HOUR = 3600_000;

describe('the signer of values handed to Slack', () => {
  const signer = createSigner(key);

  it('gives back a value it signed, for the same context, before it expires', () => {
    const signed = signer.sign('modal\nT1\nU1', '{"c":"C1"}', NOW + HOUR);
    expect(signed.startsWith('{"c":"C1"}~')).toBe(true);
    expect(signer.verify('modal\nT1\nU1', signed, NOW)).toEqual({ ok: true, value: '{"c":"C1"}' });
  });

  it('refuses it for another context, changed in any character, or under another key', () => {
    const signed = signer.sign('modal\nT1\nU1', '{"c":"C1"}', NOW + HOUR);
    expect(signer.verify('modal\nT1\nU2', signed, NOW)).toEqual({ ok: false, reason: 'forged' });
    expect(signer.verify('offer\nT1\nU1', signed, NOW)).toEqual({ ok: false, reason: 'forged' });
    for (let i = 0; i < signed.length; i += 1) {
      const changed = `${signed.slice(0, i)}${signed[i] === 'A' ? 'B' : 'A'}${signed.slice(i + 1)}`;
      expect(signer.verify('modal\nT1\nU1', changed, NOW).ok, `at ${i}`).toBe(false);
    }
    const other = createSigner(Buffer.alloc(32, 4));
    expect(other.verify('modal\nT1\nU1', signed, NOW).ok).toBe(false);
  });

  it('says a value past its expiry expired, and a made-up expiry forged', () => {
    const signed = signer.sign('c', 'v', NOW + HOUR);
    expect(signer.verify('c', signed, NOW + HOUR + 1000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    const [value, , tag] = signed.split('~');
    const later = Math.ceil((NOW + 100 * HOUR) / 1000).toString(36);
    expect(signer.verify('c', `${value}~${later}~${tag}`, NOW + 2 * HOUR)).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  it('refuses what it never signed: nothing, plain JSON, a bare mark, a value with marks in it', () => {
    for (const text of [undefined, '', '{"c":"C1"}', '~', '~~', 'a~b~c', '{"c":"~"}~zz~'])
      expect(signer.verify('c', text, NOW).ok, String(text)).toBe(false);
    const marked = signer.sign('c', 'a~b~c', NOW + HOUR);
    expect(signer.verify('c', marked, NOW)).toEqual({ ok: true, value: 'a~b~c' });
  });
});
