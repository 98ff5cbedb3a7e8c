import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureJson, utf8Length } from '../../src/index.js';

describe('utf8Length', () => {
  it('matches Buffer.byteLength on hand-picked strings (ASCII, 2-, 3-, 4-byte, lone surrogates)', () => {
    const cases = ['', 'abc', 'é', '€', '😀', 'a😀b', '\ud800', '\udc00', 'x\ud800', '\ud800x', '\udc00\ud800', '\ud83d\ude00\ud83d', '\u007f\u0080\u07ff\u0800\uffff'];
    for (const s of cases) expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });

  it('matches Buffer.byteLength on random strings of any UTF-16 code units', () => {
    const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 });
    fc.assert(
      fc.property(units, (codes) => {
        const s = String.fromCharCode(...codes);
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
    );
  });
});

describe('measureJson', () => {
  it('counts the bytes of compact JSON', () => {
    const v = { a: 'é😀', b: [1, null, true], '\ud800': '\\"' };
    expect(measureJson(v)).toEqual({ bytes: Buffer.byteLength(JSON.stringify(v), 'utf8') });
    expect(measureJson(undefined)).toEqual({ bytes: 0 });
  });

  it('asks a tokenizer only when given one', () => {
    const seen: string[] = [];
    const size = measureJson({ a: 1 }, { name: 'fake', count: (t) => (seen.push(t), 42) });
    expect(size).toEqual({ bytes: 7, tokens: 42 });
    expect(seen).toEqual(['{"a":1}']);
  });
});
