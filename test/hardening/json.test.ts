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
