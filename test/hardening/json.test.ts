import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyIterative, stringifyJson } from '../../src/json/stringify.js';

describe('stringifyJson', () => {
  it('matches JSON.stringify on random JSON values, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (v, indent) => {
        expect(stringifyIterative(v, indent)).toBe(JSON.stringify(v, null, indent));
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it('writes 100,000 levels of nesting, which JSON.stringify cannot', () => {
    const depth = 100_000;
    const text = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const value = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifyJson(value)).toBe(text);
  });

  it('omits undefined members and writes null for undefined array elements, like JSON.stringify', () => {
    const v = { a: undefined, b: [undefined, 1], c: () => 1 };
    expect(stringifyIterative(v, 2)).toBe(JSON.stringify(v, null, 2));
  });
  it('calls toJSON as JSON.stringify does: once per place, with the key, its result written as it is', () => {
    let calls = 0;
    const self: Record<string, unknown> = { a: 1 };
    // Returns its own object: JSON.stringify writes {"a":1}; this serializer called it again forever (the
    // guard turns the old loop into a failure instead of a hang).
    self.toJSON = () => {
      if (++calls > 100) throw new Error('toJSON called again on its own result');
      return self;
    };
    const keys: string[] = [];
    const keyed = { toJSON: (k: string) => (keys.push(k), `at ${k}`) };
    const gone = { toJSON: () => undefined };
    const cases: unknown[] = [
      self,
      { x: self, y: [self] },
      { k: keyed, list: [keyed, keyed] },
      { kept: 1, gone, alsoGone: { toJSON: () => () => 1 } },
      [gone, { toJSON: () => Symbol('s') }],
      { date: new Date(0) },
      { nested: { toJSON: () => ({ inner: { toJSON: () => 'inner once' } }) } },
    ];
    for (const value of cases) {
      for (const indent of [0, 2]) {
        keys.length = 0;
        calls = 0;
        const expected = JSON.stringify(value, null, indent);
        const expectedKeys = [...keys];
        keys.length = 0;
        calls = 0;
        expect(stringifyIterative(value, indent)).toBe(expected);
        expect(keys).toEqual(expectedKeys);
      }
    }
    calls = 0;
    expect(stringifyIterative(self)).toBe('{"a":1}');
  });
});

describe('utf8LengthPortable (the fallback without Buffer)', () => {
  it('counts like Buffer.byteLength, surrogate pairs and lone surrogates included', async () => {
    const { utf8LengthPortable } = await import('../../src/core/measure.js');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8LengthPortable(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
