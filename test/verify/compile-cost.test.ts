/** compile-cost.ts: the counts ajv's compile time follows, and the nesting of generated code, on hand-written inputs. */
import { describe, expect, it } from 'vitest';
import { codeNesting, compileCost, longestDependentList } from '../../src/verify/compile-cost.js';
import { runBounded } from '../helpers/bounded.js';

describe('compileCost', () => {
  it('counts objects, the widest oneOf, patterns, references and the longest dependent list', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', pattern: '^a$' },
        b: { oneOf: [{ const: 1 }, { const: 2 }, { $ref: '#/$defs/d' }] },
        c: { anyOf: [{ oneOf: [{}, {}] }] },
      },
      patternProperties: { '^x': {}, '^y': { pattern: 7 } },
      dependentRequired: { a: ['b', 'c'], b: ['a'] },
      dependencies: { c: ['a', 'b', 'x'], d: { required: ['a'] } },
      $defs: { d: { $dynamicRef: '#node', description: 'a `pattern` word is not a key' } },
    };
    // Objects: root, properties, a, b, the three oneOf branches, c, its anyOf member, its two oneOf branches,
    // patternProperties, ^x, ^y, dependentRequired, dependencies, d (its object), $defs, $defs/d: 19.
    expect(compileCost(schema)).toEqual({ objects: 19, widestOneOf: 3, patterns: 3, refs: 2, dependentNames: 3 });
    expect(longestDependentList(schema)).toBe(3);
  });

  it('stops past maxObjects, so an object that holds itself ends', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(runBounded(() => compileCost(schema, 100), 120_000).objects).toBe(101);
    expect(compileCost({ a: {}, b: {} }, 1).objects).toBe(2);
    expect(compileCost({ a: {}, b: {} }, 3).objects).toBe(3);
  });
});

describe('codeNesting', () => {
  it('counts blocks, not braces inside double-quoted strings (escapes included)', () => {
    expect(codeNesting('')).toBe(0);
    expect(codeNesting('function f(){if(a){b}else{c}}')).toBe(2);
    expect(codeNesting('{{"}}}{{{"}}')).toBe(2);
    expect(codeNesting('{"\\"{{{"}')).toBe(1);
    expect(codeNesting('{{{}}}{{}}')).toBe(3);
  });
});
