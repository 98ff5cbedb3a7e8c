/**
 * inline-small-refs reaches its fixed point in one run (issue 27 item 6): generated nests of definitions
 * (references inside definitions, chains, a definition used once inside one used several times, self and
 * mutual recursion, references with sibling descriptions, references to other parameters and chains of them) at several budgets. The old step granted a fresh
 * budget per run and failed this (its second run inlined more). Fixed seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineSmallRefs } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const NAMES = ['A', 'B', 'C', 'D', 'E'];
const leaf = fc.constantFrom<unknown>({ type: 'string' }, { type: 'integer', minimum: 0 }, { enum: ['x', 'y'] }, { type: 'string', description: 'A fairly long description of this field, to make it cost' });
/** `u0`, `u1`: a reference to another parameter (`#/properties/u0`), as zod-to-json-schema writes a repeated type. */
const ref = (n: string, described: boolean) => {
  const $ref = n.startsWith('u') ? `#/properties/${n}` : `#/$defs/${n}`;
  return described ? { $ref, description: `About ${n}` } : { $ref };
};
/** A definition: an object whose properties are leaves or references to any definition (cycles allowed). */
const body = fc.array(fc.oneof(leaf, fc.record({ to: fc.constantFrom(...NAMES), described: fc.boolean() }).map((r) => ref(r.to, r.described))), { minLength: 1, maxLength: 3 }).map((props) => ({ type: 'object', properties: Object.fromEntries(props.map((p, i) => [`p${i}`, p])) }));
const schema = fc.record({ defs: fc.tuple(body, body, body, body, body), uses: fc.array(fc.record({ to: fc.constantFrom(...NAMES, 'u0', 'u1'), described: fc.boolean() }), { minLength: 1, maxLength: 4 }) }).map(({ defs, uses }) => ({
  type: 'object',
  properties: Object.fromEntries(uses.map((u, i) => [`u${i}`, ref(u.to, u.described)])),
  $defs: Object.fromEntries(NAMES.map((n, i) => [n, defs[i]])),
}));

describe('inline-small-refs on generated nests of definitions', () => {
  it('a second run changes nothing, at every budget', () => {
    fc.assert(
      fc.property(schema, fc.constantFrom(0, 0.05, 0.1, 0.3, 1, 100), (inputSchema, maxGrowth) => {
        const tools = deepFreeze([{ name: 't', inputSchema }]);
        const once = inlineSmallRefs(tools as never, { maxGrowth });
        const twice = inlineSmallRefs(once.tools as never, { maxGrowth });
        expect(twice.report.changes, JSON.stringify(inputSchema)).toEqual([]);
        expect(JSON.stringify(twice.tools)).toBe(JSON.stringify(once.tools));
      }),
      { numRuns: 150, seed: 20261205 },
    );
  });
});

describe('inline-small-refs on schemas whose expansion would blow up', () => {
  it('a diamond of 30 levels (2^30 copies expanded) is left alone, reported', () => {
    const defs = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`L${i}`, i === 29 ? { type: 'string' } : { type: 'object', properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } } }]));
    const tools = deepFreeze([{ name: 'diamond', inputSchema: { type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, $defs: defs } }]);
    const r = inlineSmallRefs(tools as never, { maxGrowth: 100 });
    expect(r.report.changes).toEqual([]);
    expect(r.report.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['left-alone /0/inputSchema']);
    expect(r.report.diagnostics[0]!.message).toMatch(/would pass 262144 bytes/);
  });
  it('64 large definitions are left alone, reported, without expanding them', () => {
    const defs = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`D${i}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`f${k}`, { type: 'string', description: `field ${k} of ${i}` }])) }]));
    const tools = deepFreeze([{ name: 'big', inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`p${i}`, { $ref: `#/$defs/D${i}` }])), $defs: defs } }]);
    const r = inlineSmallRefs(tools as never, { maxGrowth: 100 });
    expect(r.report.changes).toEqual([]);
    expect(r.report.diagnostics.map((d) => d.code)).toEqual(['left-alone']);
    expect(r.report.diagnostics[0]!.message).toMatch(/64 definitions in a schema of \d+ bytes/);
  });
});
