/**
 * Generated schemas (fast-check): a draft-07 document converted to 2020-12 and read by Ajv2020 gives the
 * verdict draft-07 gives (ajv with keywords beside `$ref` ignored, as draft-07 specifies) on generated
 * instances; a 2020-12 document converted to draft-07 and read that way gives Ajv2020's verdict. Nested
 * definitions are then hoisted and the verdicts must still hold.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyToSchema, hoistNestedDefs, reconcileDialect, type JsonSchema } from '../src/index.js';

const DRAFT7 = 'http://json-schema.org/draft-07/schema#';
const DRAFT2020 = 'https://json-schema.org/draft/2020-12/schema';

/** A subschema in either dialect's vocabulary; `$ref`s point at root definitions `d0`, `d1` or a nested one. */
function subschema(dialect: 'draft-07' | '2020-12', defs: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null', 'array', 'object') }),
      fc.record({ enum: fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', 'b', null)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ minimum: fc.integer({ min: -2, max: 2 }), maxLength: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ $ref: fc.constantFrom(`#/${defs}/d0`, `#/${defs}/d1`, `#/${defs}/d2/${defs}/inner`) }),
      // `$ref` with siblings: ignored beside it in draft-07, applied in 2020-12
      fc.record({ $ref: fc.constantFrom(`#/${defs}/d0`, `#/${defs}/d1`), maxItems: fc.integer({ min: 0, max: 2 }), minimum: fc.integer({ min: 0, max: 2 }), description: fc.constant('d') }, { requiredKeys: ['$ref'] }),
      fc.record({ properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }), required: fc.subarray(['a', 'b']) }),
      fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ items: tie('node') }),
      dialect === 'draft-07'
        ? fc.record({ items: fc.array(tie('node'), { minLength: 1, maxLength: 2 }), additionalItems: fc.oneof(fc.boolean(), tie('node')) }, { requiredKeys: ['items'] })
        : fc.record({ prefixItems: fc.array(tie('node'), { minLength: 1, maxLength: 2 }), items: fc.oneof(fc.boolean(), tie('node')) }, { requiredKeys: ['prefixItems'] }),
      dialect === 'draft-07'
        ? fc.record({ dependencies: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.subarray(['a', 'b', 'c']), tie('node')), { maxKeys: 2 }) })
        : fc.record({ dependentRequired: fc.dictionary(fc.constantFrom('a', 'b'), fc.subarray(['a', 'b', 'c']), { maxKeys: 2 }), dependentSchemas: fc.dictionary(fc.constantFrom('b', 'c'), tie('node'), { maxKeys: 2 }) }),
    ),
  })).node;
}

/** A whole document: a root subschema and root definitions, one of which nests its own definitions. */
function documentOf(dialect: 'draft-07' | '2020-12'): fc.Arbitrary<Record<string, unknown>> {
  const defs = dialect === 'draft-07' ? 'definitions' : '$defs';
  // Definitions are leaves or references to leaves, so no reference cycle is unguarded.
  const leafish = fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'integer', 'array', 'object') }),
    fc.record({ minimum: fc.integer({ min: -1, max: 1 }), type: fc.constant('integer') }),
    fc.record({ items: fc.record({ type: fc.constantFrom('string', 'integer') }) }),
  );
  return fc.record({ root: subschema(dialect, defs), d0: leafish, d1: leafish, inner: leafish }).map(({ root, d0, d1, inner }) => ({
    $schema: dialect === 'draft-07' ? DRAFT7 : DRAFT2020,
    ...root,
    [defs]: { d0, d1, d2: { [defs]: { inner } } },
  }));
}

const instance = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, 0, 1, 2, 3, -1, 1.5, 'a', 'b', 'abc', ''),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

function verdicts(reading: 'draft7-spec' | 'draft2020', schema: JsonSchema, data: readonly unknown[]): boolean[] {
  const ajv = reading === 'draft2020' ? new Ajv2020({ strict: false, logger: false, validateSchema: false }) : new Ajv({ strict: false, logger: false, validateSchema: false, ignoreKeywordsWithRef: true });
  const validate = ajv.compile(schema as object);
  return data.map((d) => validate(d) as boolean);
}

describe('generated schemas keep their verdicts across dialects', () => {
  it('draft-07 → 2020-12 (and hoisted)', () => {
    fc.assert(
      fc.property(documentOf('draft-07'), fc.array(instance, { minLength: 8, maxLength: 8 }), (schema, data) => {
        const before = verdicts('draft7-spec', schema, data);
        const converted = applyToSchema(reconcileDialect, schema);
        expect(converted.report.skipped).toEqual([]);
        expect(verdicts('draft2020', converted.schema, data)).toEqual(before);
        const hoisted = applyToSchema(hoistNestedDefs, converted.schema, { refTargets: true });
        expect(hoisted.report.skipped).toEqual([]);
        expect(verdicts('draft2020', hoisted.schema, data)).toEqual(before);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it('2020-12 → draft-07 (read as draft-07 specifies, keywords beside $ref ignored)', () => {
    fc.assert(
      fc.property(documentOf('2020-12'), fc.array(instance, { minLength: 8, maxLength: 8 }), (schema, data) => {
        const before = verdicts('draft2020', schema, data);
        const converted = applyToSchema(reconcileDialect, schema, { target: 'draft-07' });
        expect(converted.report.skipped).toEqual([]);
        expect(converted.report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(verdicts('draft7-spec', converted.schema, data)).toEqual(before);
        const hoisted = applyToSchema(hoistNestedDefs, converted.schema);
        expect(verdicts('draft7-spec', hoisted.schema, data)).toEqual(before);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
