import { describe, expect, it } from 'vitest';
import { reconcileDialect } from '../../src/index.js';

// reconcile-dialect skips its conversion walk when a schema has none of the keywords that could need it.
// Each case hides exactly one such keyword one level down (so the quick look has to descend to find it)
// and names, by hand, the code the conversion must report: a keyword missing from the quick look's list
// would make its case come back with nothing.

const D7 = 'http://json-schema.org/draft-07/schema#';
const D4 = 'http://json-schema.org/draft-04/schema#';
const D2020 = 'https://json-schema.org/draft/2020-12/schema';

type Case = [name: string, stamp: string | undefined, inner: Record<string, unknown>, code: string, options?: Record<string, unknown>];

const cases: Case[] = [
  ['array `items` (tuple) to 2020-12', D7, { type: 'array', items: [{ type: 'string' }] }, 'converted-tuple'],
  ['`additionalItems` without a tuple', D7, { type: 'array', additionalItems: false }, 'dropped-inert-keyword'],
  ['`dependencies` to 2020-12', D7, { type: 'object', dependencies: { a: ['b'] } }, 'converted-dependencies'],
  ['draft-04 boolean `exclusiveMinimum`', D4, { type: 'number', minimum: 1, exclusiveMinimum: true }, 'converted-exclusive'],
  ['OpenAPI `nullable`', undefined, { type: 'string', nullable: true }, 'converted-nullable'],
  ['a plain-name `$id`', D7, { $id: '#thing', type: 'string' }, 'converted-id'],
  ['draft-04 `id`', D4, { id: 'http://example.com/inner', type: 'string' }, 'converted-id'],
  ['nested `definitions` of a resource', D7, { $id: 'http://example.com/r', definitions: { A: { type: 'string' } } }, 'renamed-definitions'],
  ['a `$ref` sibling in draft-07', D7, { $ref: '#/properties/y', minimum: 1 }, 'dropped-ref-sibling'],
  ['a newer keyword in draft-07', D7, { type: 'array', prefixItems: [{ type: 'string' }] }, 'dropped-foreign-keyword'],
  ['an embedded `$schema`', D7, { $schema: D4, type: 'string' }, 'embedded-dialect'],
  ['an empty `enum`', D7, { enum: [] }, 'empty-enum'],
  ['OpenAPI `example`', undefined, { type: 'string', example: 'x' }, 'converted-example', { assume: 'openapi-3.0' }],
  ['`prefixItems` to draft-07', D2020, { type: 'array', prefixItems: [{ type: 'string' }] }, 'converted-tuple', { target: 'draft-07' }],
  ['`dependentRequired` to draft-07', D2020, { type: 'object', dependentRequired: { a: ['b'] } }, 'converted-dependencies', { target: 'draft-07' }],
  ['`$anchor` to draft-07', D2020, { $anchor: 'thing', type: 'string' }, 'converted-id', { target: 'draft-07' }],
  ['a `$ref` with siblings to draft-07', D2020, { $ref: '#/properties/y', minimum: 1 }, 'wrapped-ref', { target: 'draft-07' }],
  ['a keyword draft-07 cannot say', D2020, { $dynamicRef: '#meta' }, 'unconvertible', { target: 'draft-07' }],
  // Keywords the quick look matches by value (object `items`, a number bound, the target's own container name give no work).
  ['nested `$defs` of a resource to draft-07', D2020, { $id: 'http://example.com/r', $defs: { A: { type: 'string' } } }, 'renamed-definitions', { target: 'draft-07' }],
  ['a boolean `exclusiveMaximum` read as 2020-12', D2020, { type: 'number', maximum: 5, exclusiveMaximum: true }, 'converted-exclusive'],
  ['array `items` in 2020-12 itself', D2020, { type: 'array', items: [{ type: 'string' }] }, 'converted-tuple'],
];

describe('reconcile-dialect finds one convertible keyword anywhere', () => {
  it.each(cases)('%s', (_name, stamp, inner, code, options) => {
    // No definitions container: one at the root is itself a reason for the full walk.
    const schema = { ...(stamp ? { $schema: stamp } : {}), type: 'object', properties: { x: inner, y: { type: 'string' } } };
    const { report } = reconcileDialect([{ name: 't', inputSchema: schema }], options as never);
    const codes = [...report.changes.map((c) => c.code), ...report.diagnostics.map((d) => d.code)];
    expect(codes).toContain(code);
  });

  it('a schema with nothing to convert gets only the stamp policy', () => {
    const schema = { $schema: D7, type: 'object', properties: { a: { type: 'string', enum: ['x'], description: 'A' }, b: { type: 'array', items: { type: 'integer', minimum: 0 } } }, required: ['a'], additionalProperties: false };
    const { tools, report } = reconcileDialect([{ name: 't', inputSchema: schema }]);
    expect(report.changes.map((c) => [c.op, c.path, c.code])).toEqual([['remove', '/0/inputSchema/$schema', 'removed-stamp']]);
    const { $schema, ...rest } = schema;
    void $schema;
    expect(tools[0]!.inputSchema).toEqual(rest);
  });
});
