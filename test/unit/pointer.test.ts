import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeToken, existsAt, formatPointer, getAt, isArrayIndex, parsePointer, PointerError, unescapeToken } from '../../src/json/pointer.js';
import { formatRefPointer, parsePointerTokenwise, parseRef } from '../../src/schema/ref-syntax.js';

describe('tokens', () => {
  it('escapes `~` before `/` (RFC 6901 §4)', () => {
    expect(escapeToken('a/b')).toBe('a~1b');
    expect(escapeToken('a~b')).toBe('a~0b');
    expect(escapeToken('~1')).toBe('~01');
    expect(escapeToken('/~')).toBe('~1~0');
    expect(escapeToken('plain')).toBe('plain');
  });

  it('unescapes `~1` before `~0`, so `~01` is `~1`, not `/`', () => {
    expect(unescapeToken('a~1b')).toBe('a/b');
    expect(unescapeToken('~01')).toBe('~1');
    expect(unescapeToken('~10')).toBe('/0');
  });

  it('rejects `~` not followed by 0 or 1', () => {
    expect(() => unescapeToken('a~2')).toThrow(PointerError);
    expect(() => unescapeToken('a~')).toThrow(PointerError);
  });

  it('round-trips any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => unescapeToken(escapeToken(s)) === s), { seed: 27 });
  });

  it('knows canonical array indices', () => {
    for (const t of ['0', '7', '10', '12345']) expect(isArrayIndex(t), t).toBe(true);
    for (const t of ['', '-', '01', '1e2', ' 1', '1.0', '-1', '0x1', 'length']) expect(isArrayIndex(t), t).toBe(false);
  });
});

describe('pointers', () => {
  it('parses', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
    expect(parsePointer('//x/')).toEqual(['', 'x', '']);
  });

  it('rejects a pointer that does not start with `/` or has a bad escape', () => {
    expect(() => parsePointer('a/b')).toThrow(PointerError);
    expect(() => parsePointer('/a/~')).toThrow(PointerError);
  });

  it('formats and parses back any tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (tokens) => {
        expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
      }),
      { seed: 50 },
    );
    expect(formatPointer(['a/b', 3, '~'])).toBe('/a~1b/3/~0');
  });

  it('splits at every `/` as `split` does, empty tokens and all', () => {
    const pointer = fc.array(fc.constantFrom('/', '/', 'a', 'é', '~0', '~1', '0', ' '), { maxLength: 12 }).map((a) => '/' + a.join(''));
    fc.assert(
      fc.property(pointer, (p) => {
        expect(parsePointer(p)).toEqual(p.slice(1).split('/').map(unescapeToken));
      }),
      { seed: 51, numRuns: 2000 },
    );
  });
});

describe('getAt / existsAt (own properties only)', () => {
  const doc = JSON.parse('{"a":[10,20,{"b":null}],"__proto__":{"x":1},"o":{"":"empty"}}');

  it('reads objects and arrays', () => {
    expect(getAt(doc, ['a', '1'])).toBe(20);
    expect(getAt(doc, ['a', '2', 'b'])).toBe(null);
    expect(getAt(doc, ['o', ''])).toBe('empty');
    expect(getAt(doc, [])).toBe(doc);
  });

  it('rejects non-canonical and out-of-range indices, and array properties', () => {
    for (const t of ['01', '-', '3', '1e0', 'length', '-1']) expect(getAt(doc, ['a', t]), t).toBeUndefined();
  });

  it('treats `__proto__`, `constructor` and `toString` as data, never the prototype chain', () => {
    expect(getAt(doc, ['__proto__', 'x'])).toBe(1);
    expect(getAt({}, ['__proto__'])).toBeUndefined();
    expect(getAt({}, ['constructor'])).toBeUndefined();
    expect(getAt({}, ['toString'])).toBeUndefined();
    expect(getAt({ a: {} }, ['a', 'hasOwnProperty'])).toBeUndefined();
    expect(getAt(Object.create(null), ['x'])).toBeUndefined();
  });

  it('does not descend into primitives', () => {
    expect(getAt({ s: 'abc' }, ['s', '0'])).toBeUndefined();
    expect(getAt({ s: 'abc' }, ['s', 'length'])).toBeUndefined();
  });

  it('existsAt tells a present `null`/`undefined`-free slot from a missing one', () => {
    expect(existsAt(doc, ['a', '2', 'b'])).toBe(true);
    expect(existsAt(doc, ['a', '2', 'c'])).toBe(false);
    expect(existsAt(doc, ['__proto__'])).toBe(true);
    expect(existsAt({}, ['__proto__'])).toBe(false);
    expect(existsAt(doc, ['a', '3'])).toBe(false);
    expect(existsAt(doc, [])).toBe(true);
  });
});

describe('$ref parsing', () => {
  it('local pointers, with percent-decoding before `~` unescaping', () => {
    expect(parseRef('#')).toEqual({ kind: 'pointer', tokens: [] });
    expect(parseRef('#/$defs/a%20b')).toEqual({ kind: 'pointer', tokens: ['$defs', 'a b'] });
    expect(parseRef('#/%24defs/x')).toEqual({ kind: 'pointer', tokens: ['$defs', 'x'] });
    expect(parseRef('#/a%7E1b')).toEqual({ kind: 'pointer', tokens: ['a/b'] });
    expect(parseRef('#/a%2Fb')).toEqual({ kind: 'pointer', tokens: ['a', 'b'] });
  });

  it('an empty reference is the current document', () => {
    expect(parseRef('')).toEqual({ kind: 'pointer', tokens: [] });
  });

  it('anchors', () => {
    expect(parseRef('#foo')).toEqual({ kind: 'anchor', name: 'foo' });
    expect(parseRef('#f%C3%BCr')).toEqual({ kind: 'anchor', name: 'für' });
  });

  it('anything with a URI part is external', () => {
    expect(parseRef('other.json#/a')).toEqual({ kind: 'external', uri: 'other.json', fragment: '/a' });
    expect(parseRef('https://x.example/s')).toEqual({ kind: 'external', uri: 'https://x.example/s', fragment: '' });
    expect(parseRef('urn:uuid:1234#x')).toEqual({ kind: 'external', uri: 'urn:uuid:1234', fragment: 'x' });
  });

  it('malformed percent-escapes and pointer escapes are invalid, with a reason', () => {
    for (const r of ['#/%zz', '#/a%E2%82', '#/a~2', '#/a~', '#%']) {
      const p = parseRef(r);
      expect(p.kind, r).toBe('invalid');
      expect((p as { reason: string }).reason.length).toBeGreaterThan(0);
    }
  });

  it('ajv’s reading (split, then decode each token) differs only for an encoded slash', () => {
    expect(parsePointerTokenwise('/$defs/a%2Fb')).toEqual(['$defs', 'a/b']);
    expect(parsePointerTokenwise('/$defs/a%20b')).toEqual(['$defs', 'a b']);
    expect(parsePointerTokenwise('/$defs/plain')).toBeUndefined();
    expect(parsePointerTokenwise('anchor%20x')).toBeUndefined();
    expect(parsePointerTokenwise('/%zz')).toBeUndefined();
  });

  it('formatRefPointer writes a fragment that parses back to the same tokens', () => {
    expect(formatRefPointer(['$defs', 'a b', '100%', 'a/b'])).toBe('#/$defs/a%20b/100%25/a~1b');
    expect(formatRefPointer(['$defs', 'User'])).toBe('#/$defs/User');
    // Well-formed strings (lone surrogates cannot be percent-encoded in UTF-8).
    const token = fc.string({ unit: 'grapheme' });
    fc.assert(
      fc.property(fc.array(token), (tokens) => {
        expect(parseRef(formatRefPointer(tokens))).toEqual({ kind: 'pointer', tokens });
      }),
      { seed: 142 },
    );
  });
});
