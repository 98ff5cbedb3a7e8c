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
import { loadCorpus } from '../helpers/corpus.js';
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
  pool?: AjvPool;
}

/** Checks one pair: accepted → the original compiling implies the rewrite compiling, by ajv. */
function check(before: unknown, after: unknown, tally: Tally, where: string): void {
  const da = getDeclaredDialect(before).dialect;
  const db = getDeclaredDialect(after).dialect;
  if (!compileImplied(before, after, da, db)) {
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
  it('bench corpus: every version the default steps and max make, proven pairs compile', { timeout: 120_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0 };
    // `max` (a superset of the default steps) on every third server, to keep the suite's time.
    loadCorpus().forEach(({ file, data }, i) => checkHistories(deepFreeze(data.toolsList.tools) as McpTool[], tally, file, i % 3 === 0));
    // The shortcut is what the corpus needs (most rewrites remove a draft-07 stamp and annotations), and it fires.
    if (process.env.IMPLIED_REPORT) console.log('corpus', tally.accepted, tally.compiling, tally.refused);
    expect(tally.compiling).toBeGreaterThan(1000);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('fuzz harness tools (seeded): every version the default steps and max make, proven pairs compile', { timeout: 120_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0 };
    const samples = fc.sample(fuzzToolsArb(), { seed: 20261212, numRuns: 600 });
    samples.forEach((tools, s) => checkHistories(deepFreeze(tools) as McpTool[], tally, `fuzz sample ${s}`));
    if (process.env.IMPLIED_REPORT) console.log('fuzz', tally.accepted, tally.compiling, tally.refused);
    expect(tally.compiling).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
  });

  it('random mutations of corpus and fuzz schemas (seeded): proven pairs compile', { timeout: 120_000 }, () => {
    const tally: Tally = { accepted: 0, compiling: 0, refused: 0 };
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
    if (process.env.IMPLIED_REPORT) console.log('mutations', tally.accepted, tally.compiling, tally.refused);
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
    // An array-form `items` read by draft-07 and then by 2020-12 is not proven: the gate compiles.
    const tuple = { name: 't', inputSchema: { $schema: STAMP_07, type: 'object', properties: { p: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } } };
    const compiled = transformTools(deepFreeze([tuple]));
    expect(compiled.report.stats.verify!.compiled).toBeGreaterThan(0);
    // `verdicts` compiles as before.
    expect(transformTools(deepFreeze([zod]), { verify: 'verdicts' }).report.stats.verify!.compiled).toBeGreaterThan(0);
  });
});
