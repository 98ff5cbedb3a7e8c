/**
 * adapt-to-client's merge-allof step: `allOf` merged into the schema that holds it where the profile
 * rejects `allOf`, only when that keeps every verdict. The expected schemas are written by hand; ajv
 * (compiling the original and the merged schema apart) judges equivalence on hand-picked and on seeded
 * generated instances; a naive merge run through the same oracle shows the oracle can tell a wrong merge.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToolForProfile, getProfile, presetForProfile, transformTools } from '../../src/index.js';
import { EditContext } from '../../src/core/context.js';
import { SlotEditor } from '../../src/transforms/adapt-to-client/editor.js';
import { mergeAllOf } from '../../src/transforms/adapt-to-client/steps/merge-allof.js';
import { compile } from '../helpers/ajv.js';
import { deepFreeze } from '../helpers/freeze.js';

function run(schema: unknown, profile = 'gemini') {
  const ctx = new EditContext(deepFreeze(structuredClone(schema)), {});
  const ed = new SlotEditor(ctx, '');
  mergeAllOf.run(ed, { profile: getProfile(profile), dialect: '2020-12', source: 'assumed', isArguments: true, growthLimit: (b) => 2 * b });
  return { root: ed.root as Record<string, unknown>, ops: ctx.changes.map((o) => `${o.op} ${o.path} ${o.code}`), notes: ed.notes.map((n) => `${n.code} ${n.path}: ${String(n.data.reason ?? '')}`) };
}

/** ajv's verdicts on each instance, the original and the rewritten schema each compiled on its own. */
function sameVerdicts(before: unknown, after: unknown, instances: readonly unknown[]): { same: boolean; differs?: unknown } {
  const a = compile(before);
  const b = compile(after);
  for (const d of instances) if (a(d) !== b(d)) return { same: false, differs: d };
  return { same: true };
}

const VALUES: readonly unknown[] = [null, true, false, 0, 1, -1, 0.5, 2, 3, 5, 5.5, 10, 11, 1000000, -0.5, '', 'a', 'ab', 'abc', 'abcd', 'x1', [], ['a'], [1], ['a', 1], ['a', 'b'], ['a', 'b', 1], [1, 2, 3], {}, { a: 'x' }, { a: 1 }, { b: true }, { a: 'x', b: 1 }, { ab: 'x' }, { c: 1 }];
const inProperty = (node: unknown) => ({ type: 'object', properties: { p: node }, $defs: { Id: { type: 'string', minLength: 2 } } });
const asProperty = (values: readonly unknown[]) => [{}, ...values.map((v) => ({ p: v }))];

const KAZUPH_TIMEOUT = { allOf: [{ type: ['number', 'string'] }, { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1000000 }], default: 5000 };
const KAZUPH_TOOL = {
  name: 'fetch',
  description: 'Fetch a URL',
  inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { url: { type: 'string' }, timeout: KAZUPH_TIMEOUT }, required: ['url'], additionalProperties: false },
};

describe('merge-allof: what it merges (hand-written)', () => {
  it('merges the @kazuph/mcp-fetch timeout: types intersected, the node’s default kept in its place', () => {
    const r = run(inProperty(KAZUPH_TIMEOUT));
    expect((r.root.properties as Record<string, unknown>).p).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1000000, default: 5000 });
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1000000,"default":5000}');
    expect(r.ops).toEqual(['replace /properties/p merged-allof']);
    expect(r.notes).toEqual([]);
    expect(sameVerdicts(inProperty(KAZUPH_TIMEOUT), r.root, asProperty(VALUES))).toEqual({ same: true });
  });

  it('reads integer within number, drops `true` branches and keeps the node’s keys in order', () => {
    const node = { title: 'N', allOf: [{ type: 'number', maximum: 10 }, true, { type: ['integer', 'null'], minimum: 1 }], description: 'd' };
    const r = run(inProperty(node));
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"title":"N","type":"integer","maximum":10,"minimum":1,"description":"d"}');
    expect(sameVerdicts(inProperty(node), r.root, asProperty(VALUES))).toEqual({ same: true });
  });

  it('merges nested allOf, outer first, until none is left', () => {
    const node = { allOf: [{ allOf: [{ type: 'string' }, { minLength: 1 }] }, { maxLength: 3 }] };
    const r = run(inProperty(node));
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"type":"string","minLength":1,"maxLength":3}');
    expect(r.ops).toEqual(['replace /properties/p merged-allof', 'replace /properties/p merged-allof']);
    expect(sameVerdicts(inProperty(node), r.root, asProperty(VALUES))).toEqual({ same: true });
  });

  it('merges a root allOf (openai-strict refuses a combinator at the root)', () => {
    const schema = { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a'] }] };
    const r = run(schema, 'openai-strict');
    expect(JSON.stringify(r.root)).toBe('{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}');
    expect(sameVerdicts(schema, r.root, VALUES)).toEqual({ same: true });
  });

  it('is not asked for by a profile that accepts allOf', () => {
    for (const p of ['mcp', 'claude', 'openai', 'kimi', 'ref-free']) expect(mergeAllOf.applies(getProfile(p)), p).toBe(false);
    for (const p of ['gemini', 'openai-strict']) expect(mergeAllOf.applies(getProfile(p)), p).toBe(true);
  });
});

describe('merge-allof: object intersections (zod)', () => {
  // zod-to-json-schema writes z.intersection(a, b) of two objects as `allOf` of both, each with its own
  // `properties` and `required` (draft-07: their `additionalProperties: false` taken out).
  const OBJECTS: readonly unknown[] = [{}, { a: 'x' }, { b: 1 }, { a: 'x', b: 1 }, { a: 1, b: 1 }, { a: 'x', b: 'y' }, { a: 'x', b: 1, c: null }, { c: 1 }, [], 'a', null];

  it('merges `required` (their union, in order) and `properties` whose names stand in one place each', () => {
    const node = { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } }, required: ['b', 'a'] }], description: 'both' };
    const r = run(inProperty(node));
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a","b"],"description":"both"}');
    expect(r.notes).toEqual([]);
    expect(sameVerdicts(inProperty(node), r.root, asProperty(OBJECTS))).toEqual({ same: true });
  });

  it('merges `properties` of one branch with `required` of the node and of another branch', () => {
    const node = { type: 'object', required: ['b'], allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { const: 1 } }, required: ['a'] }] };
    const r = run(inProperty(node));
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"type":"object","required":["b","a"],"properties":{"a":{"type":"string"},"b":{"const":1}}}');
    expect(sameVerdicts(inProperty(node), r.root, asProperty(OBJECTS))).toEqual({ same: true });
  });

  it('names a server key with a backtick in its reason as a JSON string, not in a code span it would close', () => {
    const node = { allOf: [{ type: 'string' }, { 'x`y': 1 }] };
    expect(run(inProperty(node)).notes).toEqual(['allof-kept /properties/p/allOf: `allOf/1` holds "x`y", which is not a keyword of 2020-12: what it means beside other keywords is not known']);
  });

  it('leaves a property named in two branches, and a `required` that is not a list of names', () => {
    const twice = { allOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { minLength: 2 } } }] };
    expect(run(inProperty(twice)).notes).toEqual(['allof-kept /properties/p/allOf: the property "a" stands in both `allOf/0` and `allOf/1` (its schemas would need an `allOf` of their own)']);
    const odd = { allOf: [{ required: ['a'] }, { required: 'b' }] };
    expect(run(inProperty(odd)).notes).toEqual(['allof-kept /properties/p/allOf: `required` in `allOf/1` is not a list of names']);
    const pattern = { allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, patternProperties: { '^a': { minLength: 3 } } }] };
    expect(run(inProperty(pattern)).notes[0]).toMatch(/^allof-kept \/properties\/p\/allOf: `properties`, `patternProperties` are read together/);
  });

  it('keeps every verdict on seeded object intersections', () => {
    const name = fc.constantFrom('a', 'b', 'c');
    const sub = fc.constantFrom<unknown>({ type: 'string' }, { type: 'number' }, { const: 1 }, { minLength: 2 }, {});
    const branch = fc.record({ properties: fc.dictionary(name, sub, { maxKeys: 2 }), required: fc.uniqueArray(name, { maxLength: 2 }) }, { requiredKeys: [] });
    const instance = fc.dictionary(name, fc.constantFrom<unknown>('x', 'xy', 1, 2, null), { maxKeys: 3 });
    let merged = 0;
    fc.assert(
      fc.property(fc.array(branch, { minLength: 2, maxLength: 3 }), fc.array(instance, { minLength: 20, maxLength: 20 }), (branches, instances) => {
        const schema = inProperty({ type: 'object', allOf: branches });
        const r = run(schema);
        if (r.ops.length > 0) merged++;
        expect(sameVerdicts(schema, r.root, asProperty(instances))).toEqual({ same: true });
      }),
      { seed: 42, numRuns: 150 },
    );
    expect(merged).toBeGreaterThan(40);
  });
});

describe('merge-allof: what it leaves (sabotage cases)', () => {
  const kept: [string, unknown, RegExp][] = [
    ['conflicting types', { allOf: [{ type: 'string' }, { type: ['number', 'boolean'] }] }, /no type in common/],
    ['additionalProperties beside properties of another branch', { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { additionalProperties: false }] }, /`allOf\/1` holds `additionalProperties`/],
    ['additionalProperties on the node', { additionalProperties: false, allOf: [{ properties: { a: { type: 'string' } } }] }, /the schema itself holds `additionalProperties`/],
    ['$ref in a branch', { allOf: [{ $ref: '#/$defs/Id' }, { maxLength: 3 }] }, /`allOf\/0` holds `\$ref`/],
    ['a keyword in two branches', { allOf: [{ minimum: 1 }, { minimum: 2 }] }, /`minimum` stands in both `allOf\/0` and `allOf\/1`/],
    ['an annotation on the node and a branch', { description: 'a', allOf: [{ type: 'string', description: 'b' }] }, /`description` stands in both the schema itself and `allOf\/0`/],
    ['a false branch', { allOf: [false, { type: 'string' }] }, /`allOf\/0` is `false`/],
    ['items after a tuple of another branch', { allOf: [{ prefixItems: [{ type: 'string' }] }, { items: false }] }, /`items`, `prefixItems` are read together/],
    ['contains and maxContains apart', { allOf: [{ contains: { type: 'string' } }, { maxContains: 1 }] }, /`contains`, `maxContains` are read together/],
    ['if/then', { allOf: [{ if: { type: 'string' }, then: { minLength: 2 } }, { maxLength: 3 }] }, /holds `if`/],
    ['unevaluatedProperties', { allOf: [{ properties: { a: true } }, { unevaluatedProperties: false }] }, /holds `unevaluatedProperties`/],
    ['$id in a branch', { allOf: [{ $id: 'https://example.com/x', type: 'string' }] }, /embeds a schema resource/],
    ['$anchor in a branch', { allOf: [{ $anchor: 'x', type: 'string' }] }, /holds `\$anchor`/],
    ['definitions in a branch', { allOf: [{ $defs: { A: { type: 'string' } } }, { type: 'string' }] }, /holds `\$defs`/],
    ['an unknown keyword', { allOf: [{ type: 'string', nullable: true }] }, /`nullable`, which is not a keyword of 2020-12/],
    ['an empty allOf', { allOf: [] }, /not a non-empty array/],
  ];
  it.each(kept)('keeps %s and says why', (_label, node, why) => {
    const schema = inProperty(node);
    const r = run(schema, 'openai-strict');
    expect(r.root).toEqual(schema);
    expect(r.ops).toEqual([]);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/^allof-kept \/properties\/p\/allOf: /);
    expect(r.notes[0]).toMatch(why);
  });

  it('keeps an allOf a reference points into (merging would move what it names)', () => {
    const schema = { type: 'object', properties: { p: { allOf: [{ type: 'string' }, { minLength: 2 }] }, q: { $ref: '#/properties/p/allOf/1' } } };
    const r = run(schema, 'openai-strict');
    expect(r.root).toEqual(schema);
    expect(r.notes).toEqual(['allof-kept /properties/p/allOf: a reference points into it (`/properties/p/allOf/1`), and merging would move what it names']);
  });

  it('keeps every allOf while a reference does not resolve', () => {
    const schema = { type: 'object', properties: { p: { allOf: [{ type: 'string' }, { minLength: 2 }] }, q: { $ref: '#/$defs/Missing' } } };
    const r = run(schema, 'openai-strict');
    expect(r.root).toEqual(schema);
    expect(r.notes[0]).toMatch(/does not resolve/);
  });

  it('merges the outer allOf and keeps an inner one it cannot merge, reported where it ends up', () => {
    const node = { allOf: [{ type: 'string' }, { properties: { a: { allOf: [{ minimum: 1 }, { minimum: 2 }] } } }] };
    const r = run(inProperty(node), 'openai-strict');
    expect(JSON.stringify((r.root.properties as Record<string, unknown>).p)).toBe('{"type":"string","properties":{"a":{"allOf":[{"minimum":1},{"minimum":2}]}}}');
    expect(r.notes).toEqual(['allof-kept /properties/p/properties/a/allOf: `minimum` stands in both `allOf/0` and `allOf/1`']);
  });
});

describe('merge-allof: through the profile-tuned preset', () => {
  for (const profile of ['gemini', 'openai-strict']) {
    it(`${profile} no longer rejects the @kazuph/mcp-fetch tool`, () => {
      const input = deepFreeze(structuredClone([KAZUPH_TOOL]));
      expect(checkToolForProfile(KAZUPH_TOOL, profile).filter((f) => f.severity === 'error').map((f) => f.code)).toContain('keyword-rejected');
      const r = transformTools(input, { transforms: presetForProfile('safe', profile) });
      const tool = r.tools[0] as Record<string, unknown>;
      expect(checkToolForProfile(tool as never, profile).filter((f) => f.severity === 'error')).toEqual([]);
      expect(JSON.stringify(tool)).not.toContain('allOf');
      expect(r.report.changes.map((c) => c.code)).toContain('merged-allof');
      const again = transformTools(r.tools, { transforms: presetForProfile('safe', profile) });
      expect(JSON.stringify(again.tools)).toBe(JSON.stringify(r.tools));
    });
  }

  it('gemini: an allOf held back by a keyword the lossy steps drop is merged in the same run', () => {
    const tool = { name: 'pick', inputSchema: { type: 'object', properties: { p: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a'], additionalProperties: false }] } } } };
    const r = transformTools(deepFreeze(structuredClone([tool])), { transforms: presetForProfile('safe', 'gemini') });
    const out = r.tools[0] as unknown as { inputSchema: { properties: { p: unknown } } };
    expect(out.inputSchema.properties.p).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    expect(r.report.diagnostics.filter((d) => d.code === 'allof-kept')).toEqual([]);
    const again = transformTools(r.tools, { transforms: presetForProfile('safe', 'gemini') });
    expect(again.report.changes).toEqual([]);
  });

  it('openai-strict: an allOf held back by `if` is merged before close-objects, so one run reaches the fixed point', () => {
    // relax-assertions drops the `if`; merged only after close-objects, the optional property would be left
    // as `anyOf: [{"type": "number"}, {"type": "null"}]`, which the next run's normalize-schema collapses.
    const tool = { name: 'pick', inputSchema: { type: 'object', properties: { p: { allOf: [{ type: 'number' }, { if: { minimum: 5 }, then: { maximum: 10 } }] } } } };
    const r = transformTools(deepFreeze(structuredClone([tool])), { transforms: presetForProfile('safe', 'openai-strict') });
    const out = r.tools[0] as unknown as { inputSchema: { properties: { p: unknown } } };
    expect(out.inputSchema.properties.p).toEqual({ type: ['number', 'null'] });
    expect(checkToolForProfile(r.tools[0]!, 'openai-strict').filter((f) => f.severity === 'error')).toEqual([]);
    const again = transformTools(r.tools, { transforms: presetForProfile('safe', 'openai-strict') });
    expect(again.report.changes).toEqual([]);
  });
});

// ---- Generated cases (fast-check, fixed seed) ----

const typeName = fc.constantFrom('null', 'boolean', 'object', 'array', 'number', 'string', 'integer');
const typeValue = fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }));
const small = fc.integer({ min: -1, max: 6 });
/** Keywords whose meaning does not depend on their siblings, one generator each. */
const SAFE: Record<string, fc.Arbitrary<unknown>> = {
  minimum: small,
  maximum: small,
  exclusiveMinimum: small,
  exclusiveMaximum: small,
  multipleOf: fc.constantFrom(1, 2, 0.5),
  minLength: fc.integer({ min: 0, max: 3 }),
  maxLength: fc.integer({ min: 0, max: 3 }),
  pattern: fc.constantFrom('^a', '\\d', 'b$'),
  enum: fc.uniqueArray(fc.constantFrom<unknown>(0, 1, 5, 'a', 'ab', null, true), { minLength: 1, maxLength: 3 }),
  const: fc.constantFrom<unknown>(1, 'a', null),
  required: fc.uniqueArray(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 2 }),
  properties: fc.dictionary(fc.constantFrom('a', 'b'), fc.constantFrom<unknown>({ type: 'string' }, { type: 'integer' }, false, true), { maxKeys: 2 }),
  minProperties: fc.integer({ min: 0, max: 2 }),
  minItems: fc.integer({ min: 0, max: 2 }),
  maxItems: fc.integer({ min: 0, max: 2 }),
  uniqueItems: fc.boolean(),
  not: fc.constantFrom<unknown>({ type: 'string' }, { const: 1 }, { minimum: 3 }),
  anyOf: fc.constantFrom<unknown>([{ type: 'string' }, { type: 'number' }], [{ minimum: 2 }, { type: 'null' }]),
  description: fc.constantFrom('d', 'e'),
  default: fc.constantFrom<unknown>(1, 'a'),
};
/** Keywords a merge must refuse or read with care (their siblings decide what they mean). */
const HAZARDS: Record<string, fc.Arbitrary<unknown>> = {
  additionalProperties: fc.constantFrom<unknown>(false, { type: 'integer' }),
  items: fc.constantFrom<unknown>(false, { type: 'string' }),
  prefixItems: fc.constant([{ type: 'string' }]),
  contains: fc.constant({ type: 'string' }),
  maxContains: fc.constant(1),
  if: fc.constant({ type: 'string' }),
  then: fc.constant({ minLength: 2 }),
  else: fc.constant({ type: 'integer' }),
  unevaluatedProperties: fc.constant(false),
  $ref: fc.constant('#/$defs/Id'),
};

/** A schema object from `pool` (a few keywords, each at most once), with `type` sometimes. */
function objectFrom(pool: Record<string, fc.Arbitrary<unknown>>, keys: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ type: fc.option(typeValue, { nil: undefined }), picked: fc.subarray([...keys], { maxLength: Math.min(3, keys.length) }) }).chain(({ type, picked }) =>
    fc.tuple(...picked.map((k) => pool[k]!)).map((values) => {
      const o: Record<string, unknown> = {};
      if (type !== undefined) o.type = type;
      picked.forEach((k, i) => (o[k] = values[i]));
      return o;
    }),
  );
}

/**
 * Any `allOf` node: branches drawn from every keyword (hazards too), booleans now and then, keywords
 * repeated. Each case draws from a few keywords only, so that keywords meet (and interact) often.
 */
const ALL_KEYS = [...Object.keys(SAFE), ...Object.keys(HAZARDS)];
const anyNode = fc.shuffledSubarray(ALL_KEYS, { minLength: 4, maxLength: 10 }).chain((keys) => {
  const pool = { ...SAFE, ...HAZARDS };
  return fc
    .record({
      own: objectFrom(pool, keys),
      branches: fc.array(fc.oneof({ weight: 8, arbitrary: objectFrom(pool, keys) }, { weight: 1, arbitrary: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    })
    .map(({ own, branches }) => ({ ...own, allOf: branches }));
});

/**
 * An `allOf` node whose keywords (from `pool`) each stand in one place: dealt to the node or one branch;
 * `type` goes anywhere and always includes a common name. With `tied`, keywords read together
 * (`exclusiveMinimum` with `minimum`) are dealt to one place: such a node must merge.
 */
function dealtNode(pool: Record<string, fc.Arbitrary<unknown>>, tied: boolean) {
  const TIED: Record<string, string> = { exclusiveMinimum: 'minimum', exclusiveMaximum: 'maximum' };
  return fc
    .record({
      common: typeName,
      extraTypes: fc.array(fc.option(fc.uniqueArray(typeName, { maxLength: 2 }), { nil: undefined }), { minLength: 4, maxLength: 4 }),
      dealt: fc.array(fc.tuple(fc.constantFrom(...Object.keys(pool)), fc.integer({ min: 0, max: 3 })), { maxLength: 6 }),
      count: fc.integer({ min: 1, max: 3 }),
      ownFirst: fc.boolean(),
    })
    .chain(({ common, extraTypes, dealt, count, ownFirst }) => {
      const seen = new Set<string>();
      const picks = dealt.filter(([k]) => (seen.has(k) ? false : (seen.add(k), true)));
      return fc.tuple(...picks.map(([k]) => pool[k]!)).map((values) => {
        const places: Record<string, unknown>[] = Array.from({ length: count + 1 }, () => ({}));
        extraTypes.slice(0, count + 1).forEach((extra, i) => {
          if (extra !== undefined) places[i]!.type = [...new Set([common, ...extra])];
        });
        const placeOf = new Map(picks.map(([k, at]) => [k, at % (count + 1)]));
        picks.forEach(([k], i) => (places[(tied ? placeOf.get(TIED[k] ?? k) : undefined) ?? placeOf.get(k)!]![k] = values[i]));
        const [own, ...branches] = places;
        return ownFirst ? { allOf: branches, ...own } : { ...own, allOf: branches };
      });
    });
}
const mergeableNode = dealtNode(SAFE, true);
/** Keywords each in one place, but drawn from those read together: only the group and hazard rules stand between them and a wrong merge. */
const INTERACTING: Record<string, fc.Arbitrary<unknown>> = {
  ...HAZARDS,
  minContains: fc.constantFrom(0, 2),
  minimum: small,
  exclusiveMinimum: small,
  maximum: small,
  exclusiveMaximum: small,
  properties: SAFE.properties!,
  patternProperties: fc.constant({ '^a': { type: 'integer' } }),
};
const interactingNode = dealtNode(INTERACTING, false);

const instance = fc.oneof(fc.constantFrom(...VALUES), fc.jsonValue({ maxDepth: 2 }));

describe('merge-allof: generated cases (fast-check, seed 42)', () => {
  it('merges every node built to be mergeable, and ajv gives the same verdicts before and after', () => {
    let merged = 0;
    fc.assert(
      fc.property(mergeableNode, fc.array(instance, { maxLength: 12 }), (node, extra) => {
        const schema = inProperty(node);
        const r = run(schema, 'gemini');
        const out = (r.root.properties as Record<string, unknown>).p as Record<string, unknown>;
        expect(out, JSON.stringify(node)).not.toHaveProperty('allOf');
        expect(r.notes).toEqual([]);
        merged++;
        const verdict = sameVerdicts(schema, r.root, asProperty([...VALUES, ...extra]));
        expect(verdict, `${JSON.stringify(node)} → ${JSON.stringify(out)}`).toEqual({ same: true });
      }),
      { seed: 42, numRuns: 150 },
    );
    expect(merged).toBe(150);
  });

  it('never changes a verdict where keywords read together are dealt apart (each keyword in one place)', () => {
    let merged = 0;
    let kept = 0;
    fc.assert(
      fc.property(interactingNode, fc.array(instance, { maxLength: 12 }), (node, extra) => {
        const schema = inProperty(node);
        const r = run(schema, 'openai-strict');
        if (r.ops.length > 0) merged++;
        else kept++;
        const verdict = sameVerdicts(schema, r.root, asProperty([...VALUES, ...extra]));
        expect(verdict, `${JSON.stringify(node)} → ${JSON.stringify((r.root.properties as Record<string, unknown>).p)}`).toEqual({ same: true });
      }),
      { seed: 42, numRuns: 200 },
    );
    expect(merged).toBeGreaterThan(20);
    expect(kept).toBeGreaterThan(20);
  });

  it('never changes a verdict on any allOf, merging some and keeping the rest with a reason', () => {
    let merged = 0;
    let kept = 0;
    fc.assert(
      fc.property(anyNode, fc.array(instance, { maxLength: 12 }), (node, extra) => {
        const schema = inProperty(node);
        const r = run(schema, 'openai-strict');
        const out = (r.root.properties as Record<string, unknown>).p as Record<string, unknown>;
        if (r.ops.length > 0) merged++;
        if (r.notes.length > 0) kept++;
        // Either merged away, or kept exactly as it was and said why.
        if (r.ops.length === 0) {
          expect(out).toEqual(node);
          expect(r.notes).toHaveLength(1);
        }
        const verdict = sameVerdicts(schema, r.root, asProperty([...VALUES, ...extra]));
        expect(verdict, `${JSON.stringify(node)} → ${JSON.stringify(out)}`).toEqual({ same: true });
      }),
      { seed: 42, numRuns: 200 },
    );
    // Both sides were exercised: the generator reaches merges and refusals alike.
    expect(merged).toBeGreaterThan(20);
    expect(kept).toBeGreaterThan(20);
  });

  it('the oracle tells a naive merge (Object.assign of the branches) from an equivalent one', () => {
    const naive = (node: Record<string, unknown>) => {
      const { allOf, ...own } = node;
      return Object.assign({}, own, ...(allOf as unknown[]).filter((b) => typeof b === 'object'));
    };
    const result = fc.check(
      fc.property(anyNode, (node) => sameVerdicts(inProperty(node), inProperty(naive(node)), asProperty(VALUES)).same),
      { seed: 42, numRuns: 200 },
    );
    expect(result.failed).toBe(true);
  });

  it('is byte-deterministic and leaves nothing more for a second run', () => {
    fc.assert(
      fc.property(anyNode, (node) => {
        const schema = inProperty(node);
        const a = run(schema, 'openai-strict');
        const b = run(schema, 'openai-strict');
        expect(JSON.stringify(a.root)).toBe(JSON.stringify(b.root));
        expect(run(a.root, 'openai-strict').ops).toEqual([]);
      }),
      { seed: 42, numRuns: 100 },
    );
  });
});
