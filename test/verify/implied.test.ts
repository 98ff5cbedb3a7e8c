/**
 * The `structural` shortcut of src/verify/implied.ts, against ajv: every pair of schemas `compileImplied`
 * accepts is compiled by the gate's own reading (a fresh `AjvPool`, the ajv classes and options the gate
 * would have compiled with), and the original compiling while the rewrite does not fails the test. Pairs come
 * from the bench corpus and the fuzz harness's generated tools, each run step by step through the default
 * call's steps and the `max` preset (every version against the original and against the one before it), and
 * from seeded random mutations of those schemas (keywords removed, added and changed, stamps swapped), which
 * reach what no transform writes. Hand-written cases show each refusal matters: the rewrite really stops
 * compiling where the proof refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AjvPool, presetMax, presetSafe, transformTools, type McpTool } from '../../src/index.js';
import { getDeclaredDialect } from '../../src/schema/dialect.js';
import { compileImplied } from '../../src/verify/implied.js';
import type { ConversionRuleId } from '../../src/verify/conversions.js';
import { findRewriteSites } from '../../src/verify/probe.js';
import { generateKeyedInstances } from '../../src/verify/instances.js';
import { specValidator } from '../helpers/readings.js';
import { loadCorpus, VALIDATION_DIR } from '../helpers/corpus.js';
import { defineTransform } from '../../src/index.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';
import { fuzzDocumentArb, fuzzToolsArb } from '../helpers/fuzz-arbitraries.js';
import { objectsOf, schemaVersions } from '../helpers/histories.js';

type Schema = Record<string, unknown>;

const STAMP_07 = 'http://json-schema.org/draft-07/schema#';
const STAMP_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** What the oracle saw: pairs accepted, and accepted pairs whose original compiles. */
interface Tally {
  accepted: number;
  compiling: number;
  refused: number;
  /** Pairs the gate accepts with no ajv at all (no probe site, compile proven) whose verdicts were compared. */
  verdicts?: number;
  /** Per conversion rule (src/verify/conversions.ts): accepted pairs that relied on it. */
  rules?: Partial<Record<ConversionRuleId, number>>;
  /** Compare verdicts on every pair that relied on a conversion rule, and on one in `sample` of the others (default: all). */
  sample?: number;
  seen?: number;
  pool?: AjvPool;
}

/**
 * Checks one pair: accepted → the original compiling implies the rewrite compiling, by ajv. When the gate
 * would accept the pair without ajv at all (the probe finds no site either), every instance generated from
 * either schema (objects at the root, as the gate compares) is judged alike by an independent reading
 * (the spec's, test/helpers/readings.ts).
 */
function check(before: unknown, after: unknown, tally: Tally, where: string): void {
  const da = getDeclaredDialect(before).dialect;
  const db = getDeclaredDialect(after).dialect;
  const used = new Set<ConversionRuleId>();
  if (!compileImplied(before, after, da, db, used)) {
    tally.refused++;
    return;
  }
  tally.accepted++;
  // One pool per tally: it memoizes by schema text and gives schemas with identifiers their own ajv.
  const pool = (tally.pool ??= new AjvPool());
  const a = pool.compile(jsonClone(before), da);
  if (!a.ok) return;
  tally.compiling++;
  const b = pool.compile(jsonClone(after), db);
  expect(b.ok, `${where}: proven, but ajv refuses the rewrite (${b.ok ? '' : b.error})\nbefore: ${JSON.stringify(before)}\nafter: ${JSON.stringify(after)}`).toBe(true);
  const sites = findRewriteSites(before, after, da, db);
  if (sites.before.length + sites.after.length > 0) return;
  tally.seen = (tally.seen ?? 0) + 1;
  if (used.size === 0 && tally.sample !== undefined && tally.seen % tally.sample !== 0) return;
  tally.verdicts = (tally.verdicts ?? 0) + 1;
  for (const r of used) (tally.rules ??= {})[r] = (tally.rules?.[r] ?? 0) + 1;
  const differ = verdictDifference(before, after);
  expect(differ, `${where}: accepted without ajv, but ${differ}\nbefore: ${JSON.stringify(before)}\nafter: ${JSON.stringify(after)}`).toBeUndefined();
}

/** The first generated instance the spec's reading judges differently (objects at the root), or a refused compile. */
function verdictDifference(before: unknown, after: unknown, count = 32): string | undefined {
  const va = specValidator(jsonClone(before));
  const vb = specValidator(jsonClone(after));
  if (typeof va !== 'function') return undefined;
  if (typeof vb !== 'function') return `the rewrite does not compile: ${vb.error}`;
  const da = getDeclaredDialect(before).dialect;
  const db = getDeclaredDialect(after).dialect;
  for (const list of [generateKeyedInstances(before, { dialect: da, count }), generateKeyedInstances(after, { dialect: db, count })]) {
    for (const data of list.values) {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
      const x = va(data);
      const y = vb(data);
      if (x !== y) return `${JSON.stringify(data)} is ${String(x)} before and ${String(y)} after`;
    }
  }
  return undefined;
}

/** Original → every version, and each version → the next. */
function checkHistories(tools: readonly McpTool[], tally: Tally, where: string, withMax = true): void {
  for (const steps of withMax ? [[presetSafe], [presetMax]] : [[presetSafe]]) {
    schemaVersions(tools, steps).forEach((list, i) => {
      for (let k = 1; k < list.length; k++) {
        check(list[0], list[k], tally, `${where} tool ${i} version ${k}`);
        if (k > 1) check(list[k - 1], list[k], tally, `${where} tool ${i} step to ${k}`);
      }
    });
  }
}

/** Random edits of a schema, some of which ajv refuses in one reading and not the other. */
const BAD_VALUES: readonly unknown[] = [5, 'x', [1], { type: 'int' }, null, '(', -1, [{ pattern: '(' }], { a: 5 }];
const KEYS: readonly string[] = [
  '$schema', 'type', 'items', 'prefixItems', 'additionalItems', 'unevaluatedProperties', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'minContains', 'contains', 'pattern', 'format', 'nullable', '$ref', '$id', '$anchor', 'required', 'properties', 'definitions', '$defs',
  'additionalProperties', 'if', 'then', 'description', 'x-y', 'propertyNames', 'const', 'enum', 'maximum', 'exclusiveMinimum', '$comment', 'unknownWord',
];

/** Keywords ajv refuses with these values wherever it compiles them. */
const BAD_SIBLINGS: readonly [string, unknown][] = [['pattern', '('], ['maximum', 'x'], ['required', 5], ['properties', 5], ['minLength', 'x'], ['enum', 5], ['multipleOf', 'x']];

function mutationArb(): fc.Arbitrary<{ op: number; pick: number; key: string; value: unknown }[]> {
  return fc.array(
    fc.record({ op: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 7, 8), pick: fc.nat(), key: fc.constantFrom(...KEYS), value: fc.oneof(fc.constantFrom(...BAD_VALUES), fc.constantFrom(true, {}, [], STAMP_07, STAMP_2020, '#/definitions/D0', '#/$defs/D1', '#/properties/a', '#', 'string')) }),
    { minLength: 1, maxLength: 3 },
  );
}

function mutate(schema: unknown, edits: readonly { op: number; pick: number; key: string; value: unknown }[]): unknown {
  const copy = jsonClone(schema);
  for (const e of edits) {
    const nodes = objectsOf(copy);
    if (nodes.length === 0) break;
    const node = nodes[e.pick % nodes.length]!;
    const keys = Object.keys(node);
    if (e.op === 0 && keys.length > 0) delete node[keys[e.pick % keys.length]!];
    else if (e.op === 1) node[e.key] = jsonClone(e.value);
    else if (e.op === 2 && keys.length > 0) node[keys[e.pick % keys.length]!] = jsonClone(e.value);
    else if (e.op === 3 && typeof copy === 'object' && copy !== null) delete (copy as Schema).$schema;
    else if (e.op === 4 && typeof copy === 'object' && copy !== null) (copy as Schema).$schema = e.pick % 2 === 0 ? STAMP_07 : STAMP_2020;
    else if (e.op === 5) node.$ref = typeof e.value === 'string' ? e.value : '#/definitions/D0';
    // What ajv reads differently by class or by neighbour: `nullable` (needs `type`), a bad `$ref` sibling
    // (draft-07 never compiles it), array-form `items` (a different keyword in 2020-12).
    else if (e.op === 6) node.nullable = true;
    else if (e.op === 7) {
      const withRef = nodes.filter((n) => typeof n.$ref === 'string');
      const [k, v] = BAD_SIBLINGS[e.pick % BAD_SIBLINGS.length]!;
      if (withRef.length > 0) withRef[(e.pick >> 3) % withRef.length]![k] = v;
    } else if (e.op === 8) node.items = [jsonClone(e.value)];
    // Remove a keyword from a node that has it (`type` beside `nullable`, a definition a `$ref` names).
    else if (e.op === 9) {
      const having = nodes.filter((n) => Object.prototype.hasOwnProperty.call(n, e.key));
      if (having.length > 0) delete having[e.pick % having.length]![e.key];
    }
  }
  return copy;
}

describe('compileImplied against ajv', () => {
  it('bench corpus: every version the default steps and max make, proven pairs compile', { timeout: 300_000 }, () => {
    // Verdicts on every pair a conversion rule proved and on one in ten of the rest, to keep the suite's time.
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0, sample: 10 };
    // `max` (a superset of the default steps) on every third server, to keep the suite's time.
    loadCorpus().forEach(({ file, data }, i) => checkHistories(deepFreeze(data.toolsList.tools) as McpTool[], tally, file, i % 3 === 0));
    // The shortcut is what the corpus needs (most rewrites remove a draft-07 stamp and annotations), and it fires.
    if (process.env.IMPLIED_REPORT) console.log('corpus', tally.accepted, tally.compiling, tally.refused, tally.verdicts, tally.rules);
    expect(tally.compiling).toBeGreaterThan(1000);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('bench validation set: every version the default steps make, proven pairs compile and keep their verdicts', { timeout: 300_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0, sample: 10 };
    loadCorpus(VALIDATION_DIR).forEach(({ file, data }) => checkHistories(deepFreeze(data.toolsList.tools) as McpTool[], tally, file, false));
    if (process.env.IMPLIED_REPORT) console.log('validation', tally.accepted, tally.compiling, tally.refused, tally.verdicts, JSON.stringify(tally.rules));
    // OpenAPI-generated servers there convert `nullable` and `example`; both were relied on and checked.
    expect(tally.rules?.nullable ?? 0).toBeGreaterThan(0);
    expect(tally.rules?.example ?? 0).toBeGreaterThan(0);
  });

  it('fuzz harness tools (seeded): every version the default steps and max make, proven pairs compile', { timeout: 300_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0 };
    const samples = fc.sample(fuzzToolsArb(), { seed: 20261212, numRuns: 600 });
    samples.forEach((tools, s) => checkHistories(deepFreeze(tools) as McpTool[], tally, `fuzz sample ${s}`));
    if (process.env.IMPLIED_REPORT) console.log('fuzz', tally.accepted, tally.compiling, tally.refused, tally.verdicts, tally.rules);
    expect(tally.compiling).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
  });

  it('random mutations of corpus and fuzz schemas (seeded): proven pairs compile', { timeout: 300_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0, sample: 4 };
    const corpus = loadCorpus().flatMap(({ data }) => data.toolsList.tools.map((t) => t.inputSchema));
    const docs = [...corpus.filter((_, i) => i % 3 === 0), ...fc.sample(fuzzDocumentArb(), { seed: 7, numRuns: 600 })];
    // The original: a schema with random edits (what no transform writes); the rewrite: one more edit of
    // the kinds transforms make (a stamp removed, a keyword or definition removed, a value replaced).
    const edits = fc.sample(mutationArb(), { seed: 11, numRuns: docs.length * 4 });
    const last = fc.sample(fc.record({ op: fc.constantFrom(0, 2, 3, 3, 9, 9), pick: fc.nat(), key: fc.constantFrom('type', 'D0', 'D1', 'A', '$ref'), value: fc.constantFrom<unknown>(true, {}, 'string', 5) }), { seed: 12, numRuns: edits.length });
    edits.forEach((e, i) => {
      const before = mutate(docs[i % docs.length], e);
      const after = mutate(before, [last[i]!]);
      check(before, after, tally, `mutation ${i}`);
      check(after, before, tally, `reverse mutation ${i}`);
    });
    if (process.env.IMPLIED_REPORT) console.log('mutations', tally.accepted, tally.compiling, tally.refused, tally.verdicts, tally.rules);
    expect(tally.compiling).toBeGreaterThan(200);
    expect(tally.refused).toBeGreaterThan(200);
  });
});

describe('each refusal matters: the rewrite really stops compiling', () => {
  const cases: readonly [string, Schema, Schema][] = [
    [
      'draft-07 stamp removed, a `$ref` sibling ajv`s draft-07 class never compiled',
      { $schema: STAMP_07, properties: { a: { $ref: '#/definitions/A', pattern: '(' } }, definitions: { A: { type: 'string' } } },
      { properties: { a: { $ref: '#/definitions/A', pattern: '(' } }, definitions: { A: { type: 'string' } } },
    ],
    ['draft-07 stamp removed, array-form `items`', { $schema: STAMP_07, type: 'array', items: [{ type: 'string' }] }, { type: 'array', items: [{ type: 'string' }] }],
    ['draft-07 stamp removed, a 2020-12 keyword draft-07 ignores', { $schema: STAMP_07, dependentRequired: 5 }, { dependentRequired: 5 }],
    ['draft-07 stamp removed, `unevaluatedProperties` draft-07 ignores', { $schema: STAMP_07, unevaluatedProperties: 'no' }, { unevaluatedProperties: 'no' }],
    ['a definition removed that a `$ref` still names', { properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } }, { properties: { a: { $ref: '#/$defs/A' } } }],
    ['`type` removed beside `nullable`', { properties: { a: { type: 'string', nullable: true } } }, { properties: { a: { nullable: true } } }],
    ['a `$ref` into a keyword ajv does not compile, whose value changed', { properties: { a: { $ref: '#/x-defs/A' } }, 'x-defs': { A: { type: 'string' } } }, { properties: { a: { $ref: '#/x-defs/A' } }, 'x-defs': { A: { type: 'int' } } }],
    ['a `$ref` into an annotation, whose value changed', { properties: { a: { $ref: '#/properties/b/default' }, b: { default: { type: 'string' } } } }, { properties: { a: { $ref: '#/properties/b/default' }, b: { default: { type: 'int' } } } }],
    ['a definition removed that an `$anchor` reference names', { properties: { a: { $ref: '#A' } }, $defs: { A: { $anchor: 'A', type: 'string' } } }, { properties: { a: { $ref: '#A' } } }],
  ];
  for (const [name, before, after] of cases) {
    it(name, () => {
      const da = getDeclaredDialect(before).dialect;
      const db = getDeclaredDialect(after).dialect;
      const pool = new AjvPool();
      expect(pool.compile(before, da).ok).toBe(true);
      expect(pool.compile(after, db).ok).toBe(false);
      expect(compileImplied(before, after, da, db)).toBe(false);
    });
  }

  it('what the proof accepts: a draft-07 stamp and annotations removed, unused definitions pruned, neutral keywords dropped', () => {
    const before = { $schema: STAMP_07, type: 'object', title: 'T', properties: { a: { $ref: '#/definitions/A', description: 'd' }, b: { type: 'array', items: { type: 'string', pattern: '^x' } } }, required: [], additionalProperties: false, definitions: { A: { type: 'integer', minimum: 1 }, Unused: { type: 'int' } } };
    const after = { type: 'object', properties: { a: { $ref: '#/definitions/A' }, b: { type: 'array', items: { type: 'string', pattern: '^x' } } }, additionalProperties: false, definitions: { A: { type: 'integer', minimum: 1 } } };
    expect(compileImplied(before, after, 'draft-07', '2020-12')).toBe(true);
    // Not the other way: the rewrite would add a definition and a compiled keyword.
    expect(compileImplied(after, before, '2020-12', 'draft-07')).toBe(false);
  });
});

describe('in the gate', () => {
  it('the default call proves a zod-style draft-07 tool without ajv, and still compiles what it cannot prove', () => {
    const zod = { name: 'z', description: 'Do a thing.', inputSchema: { $schema: STAMP_07, type: 'object', properties: { a: { type: 'string', minLength: 1, description: 'The a' }, b: { type: 'array', items: { $ref: '#/properties/a' } } }, required: ['a'], additionalProperties: false } };
    const proven = transformTools(deepFreeze([zod]));
    expect(proven.report.changes.length).toBeGreaterThan(0);
    expect(proven.report.stats.verify).toMatchObject({ level: 'structural', tools: 1, failed: 0, compiled: 0 });
    // An identifier makes the proof give up: the gate compiles.
    const withId = { name: 't', inputSchema: { $schema: STAMP_07, type: 'object', properties: { p: { $id: 'http://example.com/p', type: 'string' } } } };
    const compiled = transformTools(deepFreeze([withId]));
    expect(compiled.report.changes.length).toBeGreaterThan(0);
    expect(compiled.report.stats.verify!.compiled).toBeGreaterThan(0);
    // `verdicts` compiles as before.
    expect(transformTools(deepFreeze([zod]), { verify: 'verdicts' }).report.stats.verify!.compiled).toBeGreaterThan(0);
  });
});

function hasAnyKey(node: Schema, keys: readonly string[]): boolean {
  return keys.some((k) => Object.prototype.hasOwnProperty.call(node, k));
}

/**
 * Seeded edits that give reconcile-dialect each conversion to make, as OpenAPI converters (`nullable`,
 * `example`) and zod-to-json-schema (a draft-07 stamp, `definitions`, tuples, `dependencies`) write them.
 */
function plantConversions(schema: unknown, picks: readonly number[], stamp: boolean): unknown {
  const copy = jsonClone(schema) as Schema;
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return copy;
  if (stamp) copy.$schema = STAMP_07;
  else delete copy.$schema;
  const nodes = objectsOf(copy).filter((n) => typeof n.type === 'string' && typeof n.$ref !== 'string');
  picks.forEach((p, i) => {
    const node = nodes.length > 0 ? nodes[p % nodes.length]! : copy;
    switch (i % 8) {
      case 0:
        node.nullable = p % 3 !== 0;
        // What OpenAPI converters write for a nullable union: `nullable` beside `oneOf`, no `type`.
        if (p % 4 === 3) {
          node.oneOf = [{ type: node.type }, { type: 'integer', minimum: 1 }];
          delete node.type;
        }
        break;
      case 1:
        node.example = Array.isArray(node.enum) ? node.enum[0] : 'x';
        break;
      case 2:
        node.type = 'array';
        node.items = [{ type: 'string', minLength: 2 }, { type: 'integer', maximum: 9 }];
        if (p % 3 === 1) node.additionalItems = false;
        else if (p % 3 === 2) node.additionalItems = { type: 'boolean' };
        break;
      case 3:
        copy.dependencies = p % 2 === 0 ? { a: ['b'], c: { required: ['d'] } } : { e: ['f', 'g'] };
        break;
      case 4:
        node.type = 'array';
        node.items = { type: 'number' };
        node.additionalItems = p % 2 === 0 ? false : { type: 'string' };
        break;
      case 5: {
        const defs = (copy.definitions ??= {}) as Schema;
        if (typeof defs === 'object' && defs !== null) {
          defs.Planted = { type: 'string', maxLength: 3 };
          if (typeof copy.properties === 'object' && copy.properties !== null) (copy.properties as Schema).planted = { $ref: '#/definitions/Planted' };
        }
        break;
      }
      case 6: {
        // A null union as Pydantic and zod write it: the node's type moves into a branch beside `{"type": "null"}`.
        if (node === copy || node.type === 'object' || node.type === 'null') break;
        // One in five an array of something (zod's `z.array(…).nullable()`): X then holds a subschema.
        const array = p % 5 === 2 && !hasAnyKey(node, ['items', 'prefixItems', 'additionalItems', 'contains', 'minItems']);
        const branch: Schema = array
          ? { type: 'array', items: p % 3 === 0 ? { type: 'string', minLength: 2 } : { type: 'object', properties: { k: { type: 'integer' } }, required: ['k'] }, minItems: 1 }
          : { type: node.type, ...(p % 5 === 0 ? { maxLength: 4 } : {}), ...(p % 5 === 1 && Array.isArray(node.enum) ? { enum: node.enum } : {}) };
        delete node.type;
        if (p % 5 === 1) delete node.enum;
        const union = p % 3 === 0 ? [{ type: 'null' }, branch] : [branch, { type: 'null' }];
        node[p % 2 === 0 || array ? 'anyOf' : 'oneOf'] = union;
        break;
      }
      case 7: {
        // An OpenAPI nullable object (reconcile-dialect splits it into a `oneOf` with null for typescript readers).
        if (node === copy || hasAnyKey(node, ['oneOf', 'anyOf', 'enum', 'const', 'properties', 'additionalProperties', 'required'])) break;
        node.type = p % 4 === 3 ? 'array' : 'object';
        node.nullable = true;
        if (node.type === 'array') node.items = { type: 'string', maxLength: 3 };
        else {
          node.properties = { q: { type: 'string', minLength: 1 }, r: { type: 'integer', example: 3 } };
          if (p % 2 === 0) node.required = ['q'];
          if (p % 3 === 0) node.additionalProperties = false;
        }
        break;
      }
    }
  });
  return copy;
}

describe('conversions with a known equivalence (src/verify/conversions.ts)', () => {
  it('seeded OpenAPI-style and draft-07 schemas: every conversion the default steps make that the gate accepts without ajv compiles and keeps its verdicts', { timeout: 240_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0 };
    const corpus = loadCorpus().flatMap(({ data }) => data.toolsList.tools.map((t) => t.inputSchema));
    const docs = [...corpus.filter((_, i) => i % 10 === 0), ...fc.sample(fuzzDocumentArb(), { seed: 31, numRuns: 100 })];
    const picks = fc.sample(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), { seed: 32, numRuns: docs.length });
    const tools = docs.map((d, i) => ({ name: `t${i}`, inputSchema: plantConversions(d, picks[i]!, i % 2 === 0) })) as McpTool[];
    checkHistories(deepFreeze(tools), tally, 'planted', false);
    if (process.env.IMPLIED_REPORT) console.log('planted', tally.accepted, tally.compiling, tally.refused, tally.verdicts, JSON.stringify(tally.rules));
    // Every rule was relied on, on many pairs, and every such pair was checked against ajv.
    for (const rule of ['nullable', 'example', 'tuples', 'inert-additional-items', 'dependencies', 'definitions', 'null-union', 'nullable-split'] as const) expect(tally.rules?.[rule] ?? 0, rule).toBeGreaterThan(10);
  });
});

describe('what a rule must see of the whole document', () => {
  it('moved subschemas are proven only where the rewrite mentions no `unevaluated*` (an ancestor could read them)', () => {
    const union = { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] };
    const collapsed = { type: ['array', 'null'], items: { type: 'string' } };
    const split = { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: ['null'] }] };
    const nullable = { type: 'object', nullable: true, properties: { a: { type: 'string' } } };
    for (const [x, y, rule] of [[union, collapsed, 'null-union'], [nullable, split, 'nullable-split']] as const) {
      const used = new Set<ConversionRuleId>();
      expect(compileImplied({ type: 'object', properties: { p: x } }, { type: 'object', properties: { p: y } }, '2020-12', '2020-12', used)).toBe(true);
      expect([...used]).toEqual([rule]);
      const guarded = { allOf: [{ properties: { p: x } }], unevaluatedProperties: false };
      const guardedAfter = { allOf: [{ properties: { p: y } }], unevaluatedProperties: false };
      expect(compileImplied(guarded, guardedAfter, '2020-12', '2020-12')).toBe(false);
      // The same rewrite with the keyword only as a key of an extension is refused too (the text is searched).
      expect(compileImplied({ type: 'object', properties: { p: x } }, { type: 'object', 'x-note': { unevaluatedItems: 1 }, properties: { p: y } }, '2020-12', '2020-12')).toBe(false);
    }
  });
});

/** A test-only lossless step that replaces the inputSchema with `after`. */
function replaceWith(after: Schema) {
  return defineTransform({
    name: 'sabotaged-conversion',
    description: 'test-only: a wrong conversion',
    safety: 'lossless',
    defaultOptions: {},
    messages: { edited: 'Converted (wrongly)' },
    apply(_doc, ctx) {
      ctx.replace('/inputSchema', jsonClone(after), 'edited');
    },
  });
}

describe('sabotaged conversions: the proof refuses them, the oracle would catch them, the gate does', () => {
  const obj = (properties: Schema, extra: Schema = {}): Schema => ({ type: 'object', properties, ...extra });
  const d07 = (properties: Schema, extra: Schema = {}): Schema => ({ $schema: STAMP_07, ...obj(properties, extra) });
  const ABCD = { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } };
  // `structural` compiles what the proof refuses and probes what can change a verdict; a `$ref` whose text
  // changed is not probed there (references are rewritten to follow moves), so that case needs `verdicts`.
  const VERDICTS_ONLY = new Set(['$defs move with a pointer retargeted to another definition']);
  const cases: readonly [string, Schema, Schema][] = [
    ['nullable removed without `"null"` joining `type`', obj({ a: { type: 'string', nullable: true } }), obj({ a: { type: 'string' } })],
    ['nullable → union that forgets the enum`s null', obj({ a: { type: 'string', enum: ['x', null], nullable: true } }), obj({ a: { type: ['string', 'null'], enum: ['x'] } })],
    ['`nullable: false` read as true', obj({ a: { type: 'string', nullable: false } }), obj({ a: { type: ['string', 'null'] } })],
    ['tuple → prefixItems that drops `additionalItems: false`', d07({ t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } }), obj({ t: { type: 'array', prefixItems: [{ type: 'string' }] } })],
    ['tuple → prefixItems that loses a member', d07({ t: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } }), obj({ t: { type: 'array', prefixItems: [{ type: 'string' }] } })],
    ['`additionalItems` removed as inert beside an array `items`', d07({ t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } }), d07({ t: { type: 'array', items: [{ type: 'string' }] } })],
    ['dependencies split that drops a schema dependency', d07(ABCD, { dependencies: { a: ['b'], c: { required: ['d'] } } }), obj(ABCD, { dependentRequired: { a: ['b'] } })],
    ['dependencies split that turns required names into an empty schema', d07(ABCD, { dependencies: { a: ['b'] } }), obj(ABCD, { dependentSchemas: { a: {} } })],
    ['null union collapsed without `"null"` joining `type`', obj({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }), obj({ a: { type: 'string' } })],
    ['null union collapsed that forgets the enum`s null', obj({ a: { anyOf: [{ type: 'string', enum: ['x'] }, { type: 'null' }] } }), obj({ a: { type: ['string', 'null'], enum: ['x'] } })],
    ['null union collapsed that drops the branch`s `maxLength`', obj({ a: { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 2 }] } }), obj({ a: { type: ['string', 'null'] } })],
    ['null union of an array collapsed with its `items` changed', obj({ a: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] } }), obj({ a: { type: ['array', 'null'], items: { type: 'integer' } } })],
    ['draft-07 null union of a tuple collapsed into a 2020-12 `items` array', d07({ a: { anyOf: [{ type: 'array', items: [{ type: 'string' }] }, { type: 'null' }] } }), obj({ a: { type: ['array', 'null'], items: [{ type: 'string' }] } })],
    ['draft-07 null union collapsed, its `maxLength` changed on the way to 2020-12', d07({ a: { anyOf: [{ type: 'string', maxLength: 4 }, { type: 'null' }] } }), obj({ a: { type: ['string', 'null'], maxLength: 5 } })],
    ['nullable object split that leaves `required` behind', obj({ o: { type: 'object', nullable: true, properties: { a: { type: 'string' } }, required: ['a'] } }), obj({ o: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: ['null'] }] } })],
    ['nullable object split with `additionalProperties: false` left on the holder', obj({ o: { type: 'object', nullable: true, properties: { a: { type: 'string' } }, additionalProperties: false } }), obj({ o: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: ['null'] }], additionalProperties: false } })],
    ['nullable object split whose typed branch accepts null too', obj({ o: { type: 'object', nullable: true, properties: { a: { type: 'string' } } } }), obj({ o: { oneOf: [{ type: ['object', 'null'], properties: { a: { type: 'string' } } }, { type: ['null'] }] } })],
    ['nullable array split whose null branch accepts strings', obj({ l: { type: 'array', nullable: true, items: { type: 'integer' } } }), obj({ l: { oneOf: [{ type: 'array', items: { type: 'integer' } }, { type: ['null', 'string'] }] } })],
    ['draft-07 nullable object split, a property`s bound changed on the way to 2020-12', d07({ o: { type: ['object', 'null'], properties: { a: { type: 'integer', maximum: 3 } } } }), obj({ o: { oneOf: [{ type: 'object', properties: { a: { type: 'integer', maximum: 4 } } }, { type: ['null'] }] } })],
    ['$defs move with one pointer not retargeted', d07({ a: { $ref: '#/definitions/A' }, b: { $ref: '#/definitions/A' } }, { definitions: { A: { type: 'string' } } }), obj({ a: { $ref: '#/$defs/A' }, b: { $ref: '#/definitions/A' } }, { $defs: { A: { type: 'string' } } })],
    ['$defs move with a pointer retargeted to another definition', d07({ a: { $ref: '#/definitions/A' } }, { definitions: { A: { type: 'string' }, B: { type: 'integer' } } }), obj({ a: { $ref: '#/$defs/B' } }, { $defs: { A: { type: 'string' }, B: { type: 'integer' } } })],
  ];
  for (const [name, before, after] of cases) {
    it(name, () => {
      const da = getDeclaredDialect(before).dialect;
      const db = getDeclaredDialect(after).dialect;
      // The proof does not accept it: the rewritten object matches no rule exactly.
      const sites = findRewriteSites(before, after, da, db);
      expect(sites.before.length + sites.after.length > 0 || !compileImplied(before, after, da, db)).toBe(true);
      // Had it accepted, the oracle would have failed: the rewrite stops compiling or changes a verdict.
      expect(verdictDifference(before, after, 64)).toBeDefined();
      // And the gate itself, at its default level, returns the tool unchanged.
      const tool = deepFreeze({ name: 's', inputSchema: before }) as McpTool;
      const run = transformTools([tool], { transforms: [replaceWith(after)], ...(VERDICTS_ONLY.has(name) ? { verify: 'verdicts' as const } : {}) });
      expect(run.tools[0]).toBe(tool);
      expect(run.report.skipped.length).toBeGreaterThan(0);
    });
  }

  // Originals the default call rewrites in a way no rule accounts for (a tuple moved out of a null union): compiled.
  const COMPILED = new Set(['draft-07 null union of a tuple collapsed into a 2020-12 `items` array']);

  it('the same conversions done right: the default call accepts them with no ajv compile', () => {
    for (const [name, before] of cases) {
      if (COMPILED.has(name)) continue;
      const run = transformTools(deepFreeze([{ name: 'r', inputSchema: before }]) as McpTool[]);
      expect(run.report.changes.length, JSON.stringify(before)).toBeGreaterThan(0);
      expect(run.report.stats.verify, JSON.stringify(before)).toMatchObject({ failed: 0, compiled: 0 });
    }
  });
});
