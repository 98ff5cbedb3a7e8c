/**
 * fast-check grammar of hostile-but-plausible tool schemas for the fuzz harness (test/helpers/fuzz-harness.ts): every
 * dialect toolslim reads (draft-04, -06, -07, 2019-09, 2020-12, unstamped, OpenAPI-style `nullable`), and
 * in each of them the keywords of the others — the mixes the attack of issue 12 found: `$id`/`id` in every
 * position (inside `prefixItems`, `dependentSchemas`, beside a root `$ref`, percent-encoded, relative,
 * fragment-only), anchors, `$ref` siblings, references into siblings and foreign keywords, definitions in
 * both containers and nested, `nullable` beside `enum`/`const`, draft-04 boolean bounds.
 */
import fc from 'fast-check';

export type FuzzDialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12' | 'unstamped' | 'openapi';

const STAMPS: Readonly<Record<FuzzDialect, string | undefined>> = {
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  unstamped: undefined,
  openapi: undefined,
};

const NAMES = ['a', 'b', 'c', 'id', 'title'] as const;
const DEFS = ['D0', 'D1', 'D2'] as const;
/** Identifiers that start a resource (no fragment-only ones). */
const RESOURCE_IDS = ['item.json', 'http://example.com/s/x.json', 'sub/y.json', 'a%20b.json', 'urn:example:z'] as const;
const IDS = ['item.json', 'http://example.com/s/x.json', 'sub/y.json', 'a%20b.json', '#anc', '#other', 'urn:example:z', 'item.json#'] as const;

function legacy(d: FuzzDialect): boolean {
  return d === 'draft-04' || d === 'draft-06' || d === 'draft-07' || d === 'openapi';
}

/** The definitions container a dialect uses, and sometimes the other one. */
function defsKeyArb(d: FuzzDialect): fc.Arbitrary<string> {
  const own = d === '2019-09' || d === '2020-12' || d === 'unstamped' ? '$defs' : 'definitions';
  return fc.constantFrom(own, own, own, own === '$defs' ? 'definitions' : '$defs');
}

function refArb(defsKey: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...DEFS).map((n) => `#/${defsKey}/${n}`) },
    { weight: 1, arbitrary: fc.constantFrom('#/$defs/D0', '#/definitions/D1', '#/$defs/D%31', '#/definitions/D1/properties/a') },
    { weight: 1, arbitrary: fc.constantFrom('#anc', '#other', 'item.json', 'item.json#/definitions/D0', '#', '#/properties/a', '#/properties/b/items/0') },
  );
}

function schemaArb(d: FuzzDialect, defsKey: string, maxDepth: number): fc.Arbitrary<unknown> {
  const idKey = d === 'draft-04' ? fc.constantFrom('id', 'id', '$id') : fc.constantFrom('$id', '$id', 'id');
  const bound =
    d === 'draft-04' || d === 'openapi'
      ? fc.record({ type: fc.constant('number'), minimum: fc.integer({ min: 0, max: 2 }), exclusiveMinimum: fc.boolean(), maximum: fc.integer({ min: 5, max: 9 }), exclusiveMaximum: fc.boolean() }, { requiredKeys: ['type'] })
      : fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -2, max: 2 }), exclusiveMaximum: fc.integer({ min: 3, max: 9 }) }, { requiredKeys: ['type'] });
  const nullableArb = fc.record(
    {
      type: fc.constantFrom<unknown>('string', 'integer', ['string', 'integer'], 'object'),
      enum: fc.constantFrom<unknown>(['x', 'y'], ['x', null], [1, 2]),
      const: fc.constantFrom<unknown>('x', 1),
      nullable: fc.boolean(),
    },
    { requiredKeys: ['nullable'] },
  );
  const { node } = fc.letrec<{ node: unknown; leaf: unknown; composite: unknown }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth, withCrossShrink: true }, tie('leaf'), tie('leaf'), tie('composite')),
    leaf: fc.oneof(
      fc.constantFrom(true, false),
      fc.record({ type: fc.constantFrom<unknown>('string', 'integer', 'number', 'boolean', 'null', 'object', 'array', ['string', 'null'], ['integer']) }),
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 3 }), title: fc.constant('A title'), description: fc.constant('The a'), format: fc.constantFrom('uuid', 'date', 'email') }, { requiredKeys: ['type'] }),
      bound,
      fc.record({ enum: fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('x', 'y'), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ const: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant({ $ref: '#/data', title: 't' })) }),
      nullableArb,
      refArb(defsKey).map(($ref) => ({ $ref })),
      // `$ref` siblings; an `$id` beside it never one the `$ref` names (a reference resolving only through
      // an identifier its own dialect ignores there is a loop, in no reading a schema).
      fc.record({ $ref: refArb(defsKey), type: fc.constantFrom('string', 'object'), minLength: fc.constant(2), description: fc.constant('via ref'), $id: fc.constantFrom('sub/y.json', 'urn:example:z', '#other', 'a%20b.json') }, { requiredKeys: ['$ref'] }),
      fc.record({ $anchor: fc.constantFrom('anc', 'other'), type: fc.constantFrom('string', 'integer') }),
      fc.tuple(idKey, fc.constantFrom(...IDS), fc.constantFrom('string', 'integer')).map(([k, id, type]) => ({ [k]: id, type })),
      fc.constant({ 'x-vendor': { title: 'kept', type: 'object' }, type: 'object', additionalProperties: true, required: [], properties: {} }),
    ),
    composite: fc.oneof(
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.dictionary(fc.constantFrom(...NAMES), tie('node'), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
          additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), tie('node')),
          unevaluatedProperties: fc.constant(false),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      fc.record({ not: tie('node') }),
      fc.record({ if: tie('node'), then: tie('node'), else: tie('node') }, { requiredKeys: ['if'] }),
      fc.record({ type: fc.constant('array'), items: fc.oneof(tie('node'), fc.array(tie('node'), { maxLength: 2 })), additionalItems: tie('node') }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('array'), prefixItems: fc.array(tie('node'), { minLength: 1, maxLength: 2 }), items: tie('node'), unevaluatedItems: fc.constant(false) }, { requiredKeys: ['type', 'prefixItems'] }),
      fc.record({ dependencies: fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(tie('node'), fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 })), { maxKeys: 2 }) }),
      fc.record({ dependentSchemas: fc.dictionary(fc.constantFrom(...NAMES), tie('node'), { maxKeys: 2 }), dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }), { maxKeys: 2 }) }, { requiredKeys: [] }),
      fc.record({ type: fc.constant('object'), patternProperties: fc.constant({ '^x': { type: 'string' } }), propertyNames: fc.constant({ maxLength: 5 }) }),
      fc.record({ type: fc.constant('array'), contains: tie('node'), minContains: fc.constant(1) }, { requiredKeys: ['type', 'contains'] }),
      // A nested definitions container (hoist-nested-defs), in either spelling, in a resource of its own
      // (the dialect's identifier, so that `#/…/N` resolves there), or referenced by its full pointer from
      // the root definitions' entry it sits in.
      fc.tuple(fc.constantFrom('definitions', '$defs'), tie('node'), fc.constantFrom(...RESOURCE_IDS)).map(([k, inner, id]) => ({ [d === 'draft-04' ? 'id' : '$id']: id, properties: { a: { $ref: `#/${k}/N` } }, [k]: { N: inner } })),
      // An identifier beside subschemas (`$id` inside `prefixItems`/`dependentSchemas`, the attack's classes).
      fc.tuple(idKey, fc.constantFrom(...IDS), tie('node')).map(([k, id, inner]) => ({ type: 'array', prefixItems: [{ [k]: id, ...(typeof inner === 'object' && inner !== null ? inner : {}) }] })),
      fc.tuple(idKey, fc.constantFrom(...IDS), tie('node')).map(([k, id, inner]) => ({ dependentSchemas: { a: { [k]: id, properties: { b: inner } } } })),
    ),
  }));
  return node;
}

/** One tool's inputSchema: a dialect, its stamp (or none), properties, definitions, sometimes a root `$ref` or root `$id`. */
export function fuzzDocumentArb(): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom<FuzzDialect>('draft-04', 'draft-06', 'draft-07', 'draft-07', '2019-09', '2020-12', '2020-12', 'unstamped', 'openapi').chain((d) =>
    defsKeyArb(d).chain((defsKey) =>
      fc
        .record({
          props: fc.dictionary(fc.constantFrom(...NAMES), schemaArb(d, defsKey, 3), { minKeys: 1, maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
          defs: fc.array(schemaArb(d, defsKey, 2), { minLength: DEFS.length, maxLength: DEFS.length }),
          rootRef: fc.option(fc.record({ ref: fc.constantFrom(...DEFS), id: fc.option(fc.constantFrom(...IDS), { nil: undefined }) }), { nil: undefined, freq: 6 }),
          rootId: fc.option(fc.constantFrom('http://example.com/root.json', 'root.json', 'http://example.com/a%20b/root.json'), { nil: undefined, freq: 4 }),
          both: fc.boolean(),
        })
        .map(({ props, required, defs, rootRef, rootId, both }) => {
          const doc: Record<string, unknown> = {};
          const stamp = STAMPS[d];
          if (stamp !== undefined) doc.$schema = stamp;
          if (rootId !== undefined) doc[d === 'draft-04' ? 'id' : '$id'] = rootId;
          if (rootRef !== undefined) {
            doc.$ref = `#/${defsKey}/${rootRef.ref}`;
            if (rootRef.id !== undefined) doc.$id = rootRef.id;
          }
          doc.type = 'object';
          doc.properties = props;
          if (required.length > 0) doc.required = required;
          const container: Record<string, unknown> = {};
          defs.forEach((x, i) => (container[DEFS[i]!] = x));
          doc[defsKey] = container;
          // Both containers at once, now and then (reconcile merges them).
          if (both && legacy(d)) doc[defsKey === '$defs' ? 'definitions' : '$defs'] = { D1: { type: 'string' } };
          return doc;
        }),
    ),
  );
}

/** A list of 1–2 tools. */
export function fuzzToolsArb(): fc.Arbitrary<Record<string, unknown>[]> {
  return fc
    .array(fc.record({ description: fc.constantFrom('Get a thing. See https://example.com/docs', 'List things', 'Do it.\n\nExample: {"a":1}'), inputSchema: fuzzDocumentArb() }), { minLength: 1, maxLength: 2 })
    .map((ts) => ts.map((t, i) => ({ name: `tool_${i}`, description: t.description, inputSchema: t.inputSchema })));
}
