/**
 * The default gate (`structural`) against each class of verdict defect found by the attack of issue 12,
 * injected by a deliberately wrong test-only transform: the tool must come back unchanged with a `verify`
 * error, and an independent reading (the test's own ajv, draft-04 by ajv-draft-04, draft-07 with the
 * siblings of `$ref` ignored as the spec says) must confirm the reported instance is judged differently.
 * The real reconcile-dialect on the same inputs must pass the same gate untouched by it.
 */
import { describe, expect, it } from 'vitest';
import { defineTransform, generateProbeInstances, reconcileDialect, transformTools, type AnyTransform, type EditContext, type McpTool } from '../../src/index.js';
import { findRewriteSites } from '../../src/verify/probe.js';
import { verdicts } from '../helpers/ajv.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';
import { readingVerdicts, type Reading } from '../helpers/readings.js';

type Schema = Record<string, any>;

/** A test-only lossless transform that rewrites each inputSchema through `edit`. */
function wrong(name: string, edit: (schema: Schema, ctx: EditContext) => void): AnyTransform {
  return defineTransform({
    name,
    description: `test-only: ${name}`,
    safety: 'lossless',
    defaultOptions: {},
    messages: { edited: `Edited by ${name}` },
    apply(doc, ctx) {
      const s = doc.tool.inputSchema;
      if (typeof s === 'object' && s !== null) edit(s as Schema, ctx);
    },
  });
}

/** The before-reading of a case: by `$schema`, or one of the spec readings. */
function verdictOf(reading: Reading | undefined, schema: unknown, data: unknown): unknown {
  return reading && reading !== 'none' ? readingVerdicts(reading, schema, [data]) : verdicts(schema, [data]);
}

interface Case {
  readonly name: string;
  readonly schema: Schema;
  readonly bad: AnyTransform;
  /** How the original is read, when its `$schema` alone does not say. */
  readonly readAs?: Reading;
}

const cases: Case[] = [
  {
    name: 'nullable beside enum: null appended to the enum (OpenAPI 3.0.3: the enum keeps rejecting null)',
    schema: { type: 'object', properties: { status: { type: 'string', enum: ['open', 'closed'], nullable: true } } },
    bad: wrong('enum-gets-null', (s, ctx) => {
      ctx.replace('/inputSchema/properties/status/type', ['string', 'null'], 'edited');
      ctx.replace('/inputSchema/properties/status/enum', ['open', 'closed', null], 'edited');
      ctx.remove('/inputSchema/properties/status/nullable', 'edited');
      void s;
    }),
  },
  {
    name: 'nullable beside const: wrapped in anyOf with {type: null}',
    schema: { type: 'object', properties: { kind: { type: 'string', const: 'a', nullable: true } }, required: ['kind'] },
    bad: wrong('const-wrapped', (s, ctx) => {
      void s;
      ctx.replace('/inputSchema/properties/kind', { anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }] }, 'edited');
    }),
  },
  {
    name: 'nullable inside a definition reached through $ref',
    schema: { type: 'object', properties: { s: { $ref: '#/$defs/S' } }, required: ['s'], $defs: { S: { type: 'integer', enum: [1, 2], nullable: true } } },
    bad: wrong('def-enum-gets-null', (s, ctx) => {
      void s;
      ctx.replace('/inputSchema/$defs/S', { type: ['integer', 'null'], enum: [1, 2, null] }, 'edited');
    }),
  },
  {
    name: 'kept foreign keyword: draft-07 unevaluatedProperties activated by dropping the stamp',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { strict: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false }, other: { $ref: '#/definitions/Loose' } },
      definitions: { Loose: { $ref: '#/properties/strict/unevaluatedProperties' } },
    },
    bad: wrong('stamp-dropped-07', (s, ctx) => {
      void s;
      ctx.remove('/inputSchema/$schema', 'edited');
      ctx.rename('/inputSchema/definitions', '$defs', 'edited');
      ctx.replace('/inputSchema/properties/other/$ref', '#/$defs/Loose', 'edited');
    }),
  },
  {
    name: 'kept foreign keyword: 2019-09 prefixItems activated by dropping the stamp',
    schema: {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] }, first: { $ref: '#/properties/pair/prefixItems/0' } },
    },
    bad: wrong('stamp-dropped-2019', (s, ctx) => {
      void s;
      ctx.remove('/inputSchema/$schema', 'edited');
    }),
  },
  {
    name: 'draft-04 $id becomes a resource boundary once the stamp goes ($ref resolves elsewhere)',
    readAs: 'draft4',
    schema: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { p: { $id: 'http://example.com/p.json', type: 'object', properties: { q: { $ref: '#/definitions/S' } }, definitions: { S: { type: 'integer' } } } },
      definitions: { S: { type: 'string' } },
    },
    bad: wrong('stamp-dropped-04', (s, ctx) => {
      void s;
      ctx.remove('/inputSchema/$schema', 'edited');
    }),
  },
  {
    name: 'draft-07 ref sibling kept although the target drops its own copy',
    readAs: 'draft7-spec',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { $ref: '#/definitions/B', type: 'string' } },
      definitions: { B: { $ref: '#/definitions/C', type: 'string' }, C: { description: 'anything' } },
    },
    bad: wrong('sibling-kept', (s, ctx) => {
      void s;
      ctx.remove('/inputSchema/$schema', 'edited');
      ctx.remove('/inputSchema/definitions/B/type', 'edited');
    }),
  },
];

describe('the default gate catches each class of verdict defect', () => {
  for (const c of cases) {
    it(c.name, () => {
      const input = deepFreeze(jsonClone([{ name: 't', description: 'd', inputSchema: c.schema }])) as McpTool[];
      const r = transformTools(input, { transforms: [c.bad] });
      expect(r.report.stats.verify?.level).toBe('structural');
      expect(r.tools[0], 'the tool is returned unchanged').toBe(input[0]);
      const errors = r.report.diagnostics.filter((d) => d.transform === 'verify');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.code).toBe('verdict');
      expect(errors[0]!.message).toContain(`\`${c.bad.name}\``);
      // The instance the gate reports really is judged differently, by readings built without the gate.
      const instance = JSON.parse(errors[0]!.message.match(/verdict \(targeted probe[^)]*\): `(.*?)` was /)![1]!);
      const broken = c.bad(input, {}, { verify: false }).tools[0]!.inputSchema;
      expect(verdictOf(c.readAs, c.schema, instance)).not.toEqual(verdicts(broken, [instance]));
    });

    it(`${c.name}: the real reconcile-dialect passes the same gate`, () => {
      const input = deepFreeze(jsonClone([{ name: 't', description: 'd', inputSchema: c.schema }])) as McpTool[];
      const r = reconcileDialect(input);
      expect(r.report.diagnostics.filter((d) => d.transform === 'verify')).toEqual([]);
    });
  }

  it('costs nothing for tools nothing touched, nor for a rename the proof covers', () => {
    const untouched = { name: 'u', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } };
    const renamedOnly = { name: 'r', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: '#/definitions/A' } }, definitions: { A: { type: 'string' } } } };
    const r = reconcileDialect(deepFreeze([untouched, renamedOnly]) as McpTool[]);
    // The draft-07 tool is rewritten (definitions → $defs with its `$ref`, stamp removed), yet no keyword
    // changed meaning: no probe, and the rename is a conversion the compile proof covers (conversions.ts).
    expect(r.report.stats.verify).toMatchObject({ tools: 1, compiled: 0, instances: 0 });
    // A copy into `$defs` with the `$ref` left on `definitions` matches no rule: compiled.
    const stale = defineTransform({
      name: 'stale-ref',
      description: 'test-only: copies definitions without retargeting',
      safety: 'lossless',
      defaultOptions: {},
      messages: { edited: 'Renamed' },
      apply(_doc, ctx) {
        ctx.remove('/inputSchema/$schema', 'edited');
        ctx.add('/inputSchema/$defs', { A: { type: 'string' } }, 'edited');
      },
    });
    const s = transformTools(deepFreeze([renamedOnly]) as McpTool[], { transforms: [stale] });
    expect(s.report.stats.verify!.compiled).toBeGreaterThan(0);
  });

  it('a draft-07 `items` holding one subschema is compared in step with 2020-12 `items`: a site only where something inside changed meaning', () => {
    const before = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { n: { type: 'number', description: 'A number' } } } } } };
    const reworded = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { n: { type: 'number', description: 'Number' } } } } } };
    expect(findRewriteSites(before, reworded, 'draft-07', '2020-12')).toEqual({ before: [], after: [] });
    const retyped = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } } } };
    const sites = findRewriteSites(before, retyped, 'draft-07', '2020-12');
    expect(sites.before.map((x) => x.path)).toEqual(['/properties/list/items/properties/n']);
    expect(sites.after.map((x) => x.path)).toEqual(['/properties/list/items/properties/n']);
    // The array form is another keyword in 2020-12: the whole array-typed schema is a site.
    const tuple = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { list: { type: 'array', items: [{ type: 'number' }] } } };
    const unstamped = { type: 'object', properties: { list: { type: 'array', items: [{ type: 'number' }] } } };
    expect(findRewriteSites(tuple, unstamped, 'draft-07', '2020-12').after.map((x) => x.path)).toEqual(['/properties/list']);
  });
});

describe('generateProbeInstances', () => {
  it('places candidates at the position a nested subschema validates, with required members around them', () => {
    const schema = {
      type: 'object',
      required: ['id', 'inner'],
      properties: { id: { type: 'string', minLength: 2 }, inner: { type: 'object', required: ['n'], properties: { n: { type: 'integer' }, tags: { type: 'array', items: { $ref: '#/$defs/Tag' } } } } },
      $defs: { Tag: { type: 'string', enum: ['x', 'y'] } },
    };
    const { values } = generateProbeInstances(schema, { sites: [{ path: '/$defs/Tag', values: ['z'] }] });
    // Every instance carries the required members, and the probed value sits in `inner.tags[0]`.
    for (const v of values as Schema[]) {
      expect(Object.keys(v).sort()).toEqual(['id', 'inner']);
      expect(Array.isArray(v.inner.tags)).toBe(true);
    }
    const placed = (values as Schema[]).map((v) => v.inner.tags[0]);
    expect(placed).toEqual(expect.arrayContaining(['x', 'y', 'z', null]));
    // The carrier is valid, so the probed value decides: the verdicts follow the enum.
    const judged = verdicts(schema, values) as boolean[];
    (values as Schema[]).forEach((v, i) => expect(judged[i], JSON.stringify(v)).toBe(['x', 'y'].includes(v.inner.tags[0])));
  });

  it('skips a site no route reaches (an unreferenced definition)', () => {
    const schema = { type: 'object', $defs: { Lost: { type: 'string' } } };
    expect(generateProbeInstances(schema, { sites: [{ path: '/$defs/Lost' }] }).values).toEqual([]);
  });
});
