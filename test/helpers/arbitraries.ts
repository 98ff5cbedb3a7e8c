/**
 * fast-check grammar of tool lists over draft-07 and 2020-12 keywords: refs, definitions (including
 * cycles and nested containers), unions, conditionals, annotations, data keywords, boolean schemas, plus
 * instances biased towards the generated property names so that both verdicts occur.
 */
import fc from 'fast-check';

export type GenDialect = 'draft-07' | '2020-12';
const NAMES = ['a', 'b', 'c', 'title', 'id'] as const;
const DEF_COUNT = 4;

function schemaArb(dialect: GenDialect, maxDepth: number): fc.Arbitrary<unknown> {
  const defsKey = dialect === 'draft-07' ? 'definitions' : '$defs';
  const { node } = fc.letrec<{ node: unknown; leaf: unknown; composite: unknown }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth, withCrossShrink: true }, tie('leaf'), tie('leaf'), tie('composite')),
    leaf: fc.oneof(
      fc.constantFrom(true, false),
      fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null', 'object', 'array') }, { requiredKeys: [] }),
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 3 }), title: fc.constant('A title'), description: fc.constantFrom('The a', 'Some text. Example: {"a":1}', 'See https://example.com/x') }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -2, max: 2 }), exclusiveMaximum: fc.integer({ min: 3, max: 9 }), $comment: fc.constant('note') }, { requiredKeys: ['type'] }),
      fc.record({ enum: fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('x', 'y'), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ const: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant({ additionalProperties: true, title: 't' })) }),
      fc.integer({ min: 0, max: DEF_COUNT - 1 }).map((i) => ({ $ref: `#/${defsKey}/D${i}` })),
      fc.integer({ min: 0, max: DEF_COUNT - 1 }).map((i) => ({ $ref: `#/${defsKey}/D${i}`, description: 'via ref' })),
      fc.constant({ type: ['string'], default: { title: 'kept', $ref: 'data' } }),
      fc.constant({ 'x-vendor': { title: 'kept', type: 'object' }, type: 'object', additionalProperties: true, required: [], properties: {} }),
    ),
    composite: fc.oneof(
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.dictionary(fc.constantFrom(...NAMES), tie('node'), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
          additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), tie('node')),
          title: fc.constant('Obj'),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ not: tie('node') }),
      fc.record({ if: tie('node'), then: tie('node'), else: tie('node') }, { requiredKeys: ['if'] }),
      dialect === 'draft-07'
        ? fc.record({ type: fc.constant('array'), items: fc.oneof(tie('node'), fc.array(tie('node'), { maxLength: 2 })), additionalItems: tie('node') }, { requiredKeys: ['type'] })
        : fc.record({ type: fc.constant('array'), prefixItems: fc.array(tie('node'), { maxLength: 2 }), items: tie('node') }, { requiredKeys: ['type'] }),
      dialect === 'draft-07'
        ? fc.record({ dependencies: fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(tie('node'), fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 })), { maxKeys: 2 }) })
        : fc.record({ dependentSchemas: fc.dictionary(fc.constantFrom(...NAMES), tie('node'), { maxKeys: 2 }), dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }), { maxKeys: 2 }) }, { requiredKeys: [] }),
      fc.record({ type: fc.constant('object'), patternProperties: fc.constant({ '^x': { type: 'string' } }), propertyNames: fc.constant({ maxLength: 5 }) }),
      fc.record({ type: fc.constant('array'), contains: tie('node') }),
    ),
  }));
  return node;
}

/** A tool's inputSchema in the given dialect with a definitions container, maybe nested definitions too. */
export function documentArb(dialect: GenDialect): fc.Arbitrary<Record<string, unknown>> {
  const defsKey = dialect === 'draft-07' ? 'definitions' : '$defs';
  return fc
    .record({
      props: fc.dictionary(fc.constantFrom(...NAMES), schemaArb(dialect, 3), { minKeys: 1, maxKeys: 3 }),
      required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
      defs: fc.array(schemaArb(dialect, 2), { minLength: DEF_COUNT, maxLength: DEF_COUNT }),
      stamp: fc.boolean(),
      extraUnused: fc.boolean(),
    })
    .map(({ props, required, defs, stamp, extraUnused }) => {
      const container: Record<string, unknown> = {};
      defs.forEach((d, i) => (container[`D${i}`] = d));
      if (extraUnused) container.Unused = { type: 'object', properties: { z: { $ref: `#/${defsKey}/D0` } } };
      const doc: Record<string, unknown> = {};
      if (dialect === 'draft-07' || stamp) doc.$schema = dialect === 'draft-07' ? 'http://json-schema.org/draft-07/schema#' : 'https://json-schema.org/draft/2020-12/schema';
      doc.type = 'object';
      doc.properties = props;
      if (required.length > 0) doc.required = required;
      doc[defsKey] = container;
      return doc;
    });
}

/** A list of 1–3 tools in one dialect. */
export function toolsArb(): fc.Arbitrary<Record<string, unknown>[]> {
  return fc.constantFrom<GenDialect>('draft-07', '2020-12').chain((dialect) =>
    fc.array(
      fc.record({ description: fc.constantFrom('Get a thing. See https://example.com/docs', 'List things', 'Do it.\n\nExample: {"a":1}'), inputSchema: documentArb(dialect) }),
      { minLength: 1, maxLength: 3 },
    ).map((ts) => ts.map((t, i) => ({ name: `tool_${i}`, description: t.description, inputSchema: t.inputSchema }))),
  );
}

const scalar = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.constantFrom('x', 'y', '', 'abcd', 'xa'), fc.boolean(), fc.constant(null), fc.double({ min: -1, max: 4, noNaN: true }));
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', maxDepth: 3 }, scalar, scalar, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...NAMES, 'xa', 'z'), tie('v'), { maxKeys: 3 })),
})).v;

/** Instances biased towards objects over the generated property names. */
export function instancesArb(): fc.Arbitrary<unknown[]> {
  return fc.array(fc.oneof(fc.dictionary(fc.constantFrom(...NAMES, 'z'), value, { maxKeys: 4 }), value), { minLength: 8, maxLength: 16 });
}
