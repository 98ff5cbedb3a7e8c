/**
 * Property test: random schemas made of definitions that reference each other (acyclic), with random
 * siblings beside each `$ref` (annotations, independent assertions, and keywords that interact with the
 * target: additionalProperties, properties, items, unevaluatedProperties). adapt-to-client must keep ajv's
 * verdict on random arguments, for every profile, in 2020-12 and in draft-07.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptToClient } from '../../src/index.js';
import { ajvDialectOf, makeAjv } from '../helpers/ajv.js';

// One ajv per dialect for the whole file (no formats: none are generated): compiling is the cost here.
const ajvs = { draft7: makeAjv('draft7', false), draft2019: makeAjv('draft2019', false), draft2020: makeAjv('draft2020', false) };
function verdicts(schema: unknown, instances: readonly unknown[]): boolean[] {
  const validate = ajvs[ajvDialectOf(schema)].compile(schema as object);
  return instances.map((d) => validate(d) as boolean);
}

const leaf = (modern: boolean) =>
  fc.oneof(
    fc.constant({ type: 'string' }),
    fc.constant({ type: 'integer', minimum: 0 }),
    fc.constant({ type: 'string', minLength: 2, description: 'target' }),
    fc.constant({ enum: ['x', 1, null] }),
    fc.constant(true),
    fc.constant({ type: 'object', additionalProperties: { type: 'string' } }),
    fc.constant({ type: 'object', properties: { p: { type: 'integer' } }, additionalProperties: false }),
    fc.constant({ type: 'array', items: { type: 'integer' } }),
    modern ? fc.constant({ unevaluatedProperties: false, properties: { q: true } }) : fc.constant({ maxProperties: 1 }),
  );
const siblings = (modern: boolean) =>
  fc.oneof(
    fc.constant({}),
    fc.constant({ description: 'd' }),
    fc.constant({ title: 't', default: 1 }),
    fc.constant({ type: 'object' }),
    fc.constant({ properties: { p: { type: 'integer' } } }),
    fc.constant({ minProperties: 1 }),
    fc.constant({ additionalProperties: false }),
    fc.constant({ maxLength: 3 }),
    fc.constant({ allOf: [{ not: { const: 'zz' } }] }),
    fc.constant({ items: { type: 'string' } }),
    fc.constant({ required: ['p'] }),
    modern ? fc.constant({ unevaluatedProperties: false }) : fc.constant({ description: 'e' }),
  );

function schemaArb(modern: boolean) {
  const container = modern ? '$defs' : 'definitions';
  const ref = (i: number) => fc.tuple(fc.integer({ min: i + 1, max: 4 }), siblings(modern)).map(([j, s]) => ({ $ref: `#/${container}/D${j}`, ...s }));
  const def = (i: number) =>
    i === 4
      ? leaf(modern)
      : fc.oneof(leaf(modern), ref(i), fc.tuple(ref(i), ref(i)).map(([p, q]) => ({ type: 'object', properties: { p, q } })), ref(i).map((r) => ({ anyOf: [r, { type: 'null' }] })));
  return fc.tuple(def(0), def(1), def(2), def(3), def(4), ref(-1), ref(-1)).map(([d0, d1, d2, d3, d4, a, b]) => ({
    ...(modern ? {} : { $schema: 'http://json-schema.org/draft-07/schema#' }),
    type: 'object',
    properties: { a, b },
    [container]: { D0: d0, D1: d1, D2: d2, D3: d3, D4: d4 },
  }));
}

const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('x', 'xyz', 'zz', null, -1, 0, 2),
    fc.array(tie('v'), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('p', 'q', 'a', 'b'), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const args = fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 }), { minLength: 6, maxLength: 6 });

describe.each([
  ['2020-12', true],
  ['draft-07', false],
] as const)('%s', (_label, modern) => {
  it.each(['ref-free', 'gemini', 'kimi', 'openai-strict', 'claude'])('%s keeps every verdict', (profile) => {
    fc.assert(
      fc.property(schemaArb(modern), args, (schema, instances) => {
        const r = adaptToClient([{ name: 'fz_tool', inputSchema: schema }], { profile, growthCap: 100 });
        expect(r.report.skipped).toEqual([]);
        if (r.tools[0]!.inputSchema === schema) return;
        expect(verdicts(r.tools[0]!.inputSchema, instances)).toEqual(verdicts(schema, instances));
      }),
      { numRuns: 15, seed: 7 },
    );
  });
});

// Exhaustive: every target × every sibling set beside one `$ref`, with arguments aimed at that property.
const TARGETS = (modern: boolean): unknown[] => [
  { type: 'string' },
  { type: 'string', minLength: 2, description: 'target' },
  { enum: ['x', 1, null] },
  true,
  false,
  { type: 'object', additionalProperties: { type: 'string' } },
  { type: 'object', properties: { p: { type: 'integer' } }, additionalProperties: false },
  { type: 'object', patternProperties: { '^q': { type: 'integer' } } },
  { type: 'array', items: { type: 'integer' } },
  { type: 'array', contains: { type: 'integer' } },
  { if: { type: 'object' }, then: { required: ['p'] } },
  ...(modern ? [{ unevaluatedProperties: false, properties: { q: true } }, { prefixItems: [{ type: 'string' }] }] : [{ maxProperties: 1 }, { items: [{ type: 'string' }] }]),
];
const SIBLINGS = (modern: boolean): Record<string, unknown>[] => [
  {},
  { description: 'd' },
  { title: 't', default: 1, description: 'use site' },
  { type: 'object' },
  { properties: { p: { type: 'integer' } } },
  { properties: { q: { type: 'string' } } },
  { additionalProperties: false },
  { minProperties: 1 },
  { maxLength: 3 },
  { items: { type: 'string' } },
  { minContains: 2 },
  { then: { required: ['q'] } },
  { allOf: [{ not: { const: 'zz' } }] },
  { required: ['p'] },
  ...(modern ? [{ unevaluatedProperties: false }, { unevaluatedItems: false }] : [{ description: 'e' }]),
];
const AIMED = ['x', 'xyz', 'zz', 1, null, [], ['x'], [1], ['x', 1], [1, 1], {}, { p: 1 }, { p: 'x' }, { q: 1 }, { q: 'x' }, { p: 1, q: 'x' }, { r: 'x' }, { qq: 1 }].map((a) => ({ a }));

describe.each([
  ['2020-12', true],
  ['draft-07', false],
] as const)('%s, every target beside every sibling set', (_label, modern) => {
  const container = modern ? '$defs' : 'definitions';
  // The merge-or-allOf decision lives in inlining; kimi's sibling rewrite is always allOf and the broad property covers it.
  it.each(['ref-free'])('%s keeps every verdict', (profile) => {
    for (const target of TARGETS(modern)) {
      for (const sib of SIBLINGS(modern)) {
        const s = { ...(modern ? {} : { $schema: 'http://json-schema.org/draft-07/schema#' }), type: 'object', properties: { a: { $ref: `#/${container}/T`, ...sib } }, [container]: { T: target } };
        const r = adaptToClient([{ name: 'fz_tool', inputSchema: s }], { profile, growthCap: 100 });
        if (r.tools[0]!.inputSchema === s) continue; // left as it was (reported)
        expect(verdicts(r.tools[0]!.inputSchema, AIMED), JSON.stringify(s)).toEqual(verdicts(s, AIMED));
      }
    }
  });
});
