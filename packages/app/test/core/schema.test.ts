import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Infer,
  int,
  literal,
  object,
  oneOf,
  optional,
  type Result,
  string,
} from '../../src/core/schema.js';

const ref = object({
  v: literal(1),
  e: int({ min: 1 }),
  c: optional(string({ max: 5 })),
  k: oneOf(['f', 'g']),
});

function value<T>(result: Result<T>): T | undefined {
  return result.ok ? result.value : undefined;
}

describe('value schemas', () => {
  it('infer the shape, with optional keys optional', () => {
    expectTypeOf<Infer<typeof ref>>().toEqualTypeOf<{
      v: 1;
      e: number;
      c?: string | undefined;
      k: 'f' | 'g';
    }>();
  });

  it('accept what they describe and drop keys they do not declare', () => {
    expect(ref.safeParse({ v: 1, e: 7, k: 'g', extra: 'x' })).toEqual({
      ok: true,
      value: { v: 1, e: 7, k: 'g' },
    });
    const parsed = value(ref.safeParse({ v: 1, e: 7, k: 'g', extra: 'x' }));
    expect(Object.keys(parsed ?? {})).toEqual(['v', 'e', 'k']);
    expect(value(ref.safeParse({ v: 1, e: 7, c: 'abcde', k: 'f' }))).toEqual({
      v: 1,
      e: 7,
      c: 'abcde',
      k: 'f',
    });
  });

  it.each([
    ['a wrong literal', { v: 2, e: 7, k: 'f' }],
    ['a missing key', { v: 1, k: 'f' }],
    ['a number below the minimum', { v: 1, e: 0, k: 'f' }],
    ['a fraction', { v: 1, e: 1.5, k: 'f' }],
    ['an unsafe integer', { v: 1, e: 2 ** 53, k: 'f' }],
    ['a number as a string', { v: 1, e: '7', k: 'f' }],
    ['NaN', { v: 1, e: Number.NaN, k: 'f' }],
    ['a string over its maximum', { v: 1, e: 7, c: 'abcdef', k: 'f' }],
    ['a value outside oneOf', { v: 1, e: 7, k: 'x' }],
    ['null for an optional key', { v: 1, e: 7, c: null, k: 'f' }],
    ['an array', [1, 7, 'f']],
    ['null', null],
    ['a string', 'v=1'],
    ['undefined', undefined],
  ])('refuse %s', (_, input) => {
    expect(ref.safeParse(input)).toEqual({ ok: false });
  });

  it('check bounds, patterns and lists exactly', () => {
    const n = int({ min: 0, max: 3 });
    expect([-1, 0, 3, 4].map((x) => n.safeParse(x).ok)).toEqual([false, true, true, false]);
    const code = string({ regex: /^[A-Z]{3}$/ });
    expect(['USD', 'usd', 'EURO', ''].map((x) => code.safeParse(x).ok)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const bit = oneOf([0, 1]);
    expect([0, 1, 2, '1', true].map((x) => bit.safeParse(x).ok)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('give the same answer every time with a global regex', () => {
    const code = string({ regex: /^[A-Z]{3}$/g });
    expect([code.safeParse('USD').ok, code.safeParse('USD').ok]).toEqual([true, true]);
  });

  it('parse throws on a value we built wrong, without echoing it', () => {
    expect(ref.parse({ v: 1, e: 3, k: 'f' })).toEqual({ v: 1, e: 3, k: 'f' });
    expect(() => ref.parse({ v: 1, e: 3, k: 'secret-value' })).toThrow(
      'value does not match its schema',
    );
    try {
      ref.parse({ v: 1, e: 3, k: 'secret-value' });
    } catch (error) {
      expect(String(error)).not.toContain('secret-value');
    }
  });
});

describe('readJson', () => {
  it('reads JSON text holding the value, and nothing else', () => {
    expect(ref.readJson('{"v":1,"e":3,"k":"g","x":1}')).toEqual({ v: 1, e: 3, k: 'g' });
    expect(ref.readJson(undefined)).toBeUndefined();
    expect(ref.readJson('{"v":1,"e":3,')).toBeUndefined();
    expect(ref.readJson('{"v":2,"e":3,"k":"g"}')).toBeUndefined();
    expect(ref.readJson('{"__proto__":{"v":1},"e":3,"k":"g"}')).toBeUndefined();
  });
});

describe('value schemas on hostile input', () => {
  it('keep __proto__ and constructor in JSON from reaching any prototype', () => {
    const hostile = JSON.parse(
      '{"v":1,"e":7,"k":"f","__proto__":{"polluted":true,"e":1},"constructor":{"prototype":{"polluted":true}}}',
    );
    const parsed = value(ref.safeParse(hostile));
    expect(parsed).toEqual({ v: 1, e: 7, k: 'f' });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed ?? {}, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((parsed as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('do not take a required key from the prototype chain', () => {
    const inherited = Object.create({ v: 1, e: 7, k: 'f' });
    expect(ref.safeParse(inherited)).toEqual({ ok: false });
    const viaProto = JSON.parse('{"__proto__":{"v":1,"e":7,"k":"f"}}');
    expect(ref.safeParse(viaProto)).toEqual({ ok: false });
  });

  it('keep a declared key named __proto__ a plain key', () => {
    const odd = object({ ['__proto__']: string() });
    const parsed = value(odd.safeParse(JSON.parse('{"__proto__":"x"}')));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe('x');
  });

  it('never throw, even on getters and proxies that do', () => {
    const getter = Object.defineProperty({ v: 1, k: 'f' }, 'e', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(ref.safeParse(getter)).toEqual({ ok: false });
    const proxy = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
      },
    );
    expect(ref.safeParse(proxy)).toEqual({ ok: false });
  });

  it('refuse an oversized string without copying it into the result', () => {
    const big = JSON.parse(`{"v":1,"e":7,"k":"f","c":"${'x'.repeat(100_000)}"}`);
    expect(ref.safeParse(big)).toEqual({ ok: false });
  });
});
