/**
 * `ref-cycle`: a `$ref` that leads back to itself without reading the value. The oracle is ajv itself: a
 * schema is on a cycle when ajv runs out of stack (a RangeError) compiling it or validating one of a few
 * values with it; every hand-written schema below is judged so, and the rule must agree. Found as a user:
 * `check` passed a tool whose `$defs` referred to each other in a ring, and ajv threw on it in every client.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { lintTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const VALUES = [null, 1, 'x', true, {}, [], { a: 1 }, { a: 'x' }, { a: {} }, { a: [] }, { kids: [{}] }];

/** True when ajv runs out of stack compiling the schema or validating one of {@link VALUES} with it. */
function ajvLoops(schema: object): boolean {
  let validate;
  try {
    validate = new Ajv2020({ strict: false }).compile(structuredClone(schema));
  } catch (e) {
    if (e instanceof RangeError) return true;
    throw e;
  }
  for (const v of VALUES) {
    try {
      validate(v);
    } catch (e) {
      if (e instanceof RangeError) return true;
      throw e;
    }
  }
  return false;
}

const found = (schema: object) => lintTools(deepFreeze([{ name: 't', description: 'Does one thing.', inputSchema: schema }]), { collisionThreshold: false }).filter((f) => f.code === 'ref-cycle');

const root = (extra: Record<string, unknown>) => ({ type: 'object', properties: { a: { $ref: '#/$defs/A', description: 'a' } }, ...extra });

// [what it is, the schema]; whether it loops is ajv's to say.
const CASES: [string, object][] = [
  ['two definitions referring to each other', root({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } })],
  ['a ring of three', root({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/C' }, C: { $ref: '#/$defs/A' } } })],
  ['a definition referring to itself', root({ $defs: { A: { $ref: '#/$defs/A' } } })],
  ['through anyOf (loops for a value no earlier branch takes)', root({ $defs: { A: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/A' }] } } })],
  ['through allOf', root({ $defs: { A: { allOf: [{ type: 'object' }, { $ref: '#/$defs/B' }] }, B: { allOf: [{ $ref: '#/$defs/A' }] } } })],
  ['through not', root({ $defs: { A: { not: { $ref: '#/$defs/A' } } } })],
  ['through oneOf at the root', { type: 'object', oneOf: [{ $ref: '#' }] }],
  ['a property named `not` referring to itself', { type: 'object', properties: { not: { $ref: '#/properties/not' } } }],
  ['through an anchor', root({ $defs: { A: { $anchor: 'a', anyOf: [{ type: 'number' }, { $ref: '#b' }] }, B: { $anchor: 'b', $ref: '#a' } } })],
  // Not cycles: each way back reads a part of the value first.
  ['a tree (items of a property)', root({ $defs: { A: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/A' } } } } } })],
  ['a property named `not` under a definition', root({ $defs: { A: { type: 'object', properties: { not: { $ref: '#/$defs/A' } } } } })],
  ['a property named `allOf`', root({ $defs: { A: { type: 'object', properties: { allOf: { type: 'array', items: { $ref: '#/$defs/A' } } } } } })],
  ['a chain that ends', root({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/C' }, C: { type: 'string' } } })],
  ['additionalProperties back to the root', { type: 'object', additionalProperties: { $ref: '#' } }],
];

describe('ref-cycle', () => {
  for (const [what, schema] of CASES) {
    it(`${what}: reported exactly when ajv runs out of stack`, () => {
      const loops = ajvLoops(schema);
      const findings = found(schema);
      expect(findings.length, JSON.stringify(findings)).toBe(loops ? 1 : 0);
    });
  }

  it('both answers occur among the cases (the oracle was asked something)', () => {
    const verdicts = CASES.map(([, s]) => ajvLoops(s));
    expect(verdicts.filter(Boolean).length).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThanOrEqual(4);
  });

  it('names the first site in document order, the others on the way back, and is an error', () => {
    const [f] = found(root({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/C' }, C: { $ref: '#/$defs/A' } } }));
    expect(f!.severity).toBe('error');
    expect(f!.path).toBe('/0/inputSchema/$defs/A/$ref');
    expect(f!.message).toContain('`$ref` `#/$defs/B` leads back to itself through `#/$defs/C` at `/$defs/B/$ref`, then `#/$defs/A` at `/$defs/C/$ref`');
  });

  it('a cycle through then/else is not reported (they apply only on a condition), as documented', () => {
    expect(found(root({ $defs: { A: { if: false, then: { $ref: '#/$defs/A' } } } }))).toEqual([]);
  });

  it('a thousand definitions in a ring: one finding, found in linear time', () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) defs[`D${i}`] = { $ref: `#/$defs/D${(i + 1) % 1000}` };
    const findings = found({ type: 'object', properties: { a: { $ref: '#/$defs/D0' } }, $defs: defs });
    expect(findings.map((f) => f.path)).toEqual(['/0/inputSchema/$defs/D0/$ref']);
  });
});
